import type { Database } from '../../platform/database.js';
import type { Clock } from '../../platform/service.js';
import type { TypedApp } from './routing.js';
import type { MachinesSettings } from './settings.js';

/** What every resource's routes are given. */
export interface ResourceContext {
  db: Database;
  settings: MachinesSettings;
  /** The service's clock (`ServiceContext.clock`): provisioning (`new` → `active`, actions completing) reads it. */
  clock: Clock;
}

/** One DigitalOcean resource: its folder under resources/ exports one of these, listed in resources/index.ts. */
export interface Resource {
  routes(app: TypedApp, ctx: ResourceContext): void;
}
