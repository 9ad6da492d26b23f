import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Env, globalSettings } from './config.js';
import type { RunningAdmin } from './harness/admin.js';
import { type CredentialsByService, credentialsOf } from './harness/credentials.js';
import { changedRule, type FaultRuleJson, ruleToJson } from './harness/faults.js';
import type { JournalEntry } from './harness/journal.js';
import type { StateControl } from './harness/state.js';
import type { ServiceId } from './platform/service.js';
import { createLogger, planServices, type RunningApp, startBacklot } from './server.js';
import { services as allServices, findService, serviceIds } from './services/index.js';

export type { CredentialsByService, NoCredentials, ServiceCredentials } from './harness/credentials.js';
export type { FaultRuleJson } from './harness/faults.js';
export type { JournalEntry } from './harness/journal.js';
export type { CheckpointSize } from './harness/state.js';
export { CheckpointNotFound, StateError } from './harness/state.js';
export type { ServiceId, StateControl };

export interface StartOptions<Id extends ServiceId = ServiceId> {
  /** The services to start (default: all seven). */
  services?: readonly Id[];
  /**
   * Where embedded data lives (the database, the list file, images, checkpoints). Default: a new temporary
   * directory, removed by `close()`. A given directory is kept.
   */
  dataDir?: string;
  /**
   * Settings as in `.env.example`, over `process.env` (`.env` files are not read). Ports are always free ones
   * chosen by the system, and services listen on 127.0.0.1 unless HOST is given here.
   */
  env?: Env;
  /**
   * Also start the admin page and API (docs/testing.md) on a free port of 127.0.0.1, at `admin.url`; calls need
   * `Authorization: Bearer <ADMIN_TOKEN>` when `env.ADMIN_TOKEN` is set.
   */
  admin?: boolean;
}

/** A change to a service's faults: any of the three, as numbers or text (`delayMs: '100-300'`); others are kept. */
export interface FaultChange {
  delayMs?: number | string;
  errorRate?: number | string;
  errorStatus?: number | string;
}

export interface StartedService<Id extends ServiceId = ServiceId> {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  docsUrl: string;
  credentials: CredentialsByService[Id];
}

/**
 * What `start()` returns. `Id` is the services it started, so `services.employees.credentials.password` needs no
 * `!` after `start({ services: ['employees'] })`; a plain `Backlot` may have started any of them.
 */
export interface Backlot<Id extends ServiceId = never> extends StateControl {
  services: { [K in Id]: StartedService<K> } & { [K in ServiceId]?: StartedService<K> };
  /** Where this instance keeps its data (temporary unless `dataDir` was given). */
  dataDir: string;
  /** The base URL of a started service; throws for one not started. */
  url(id: ServiceId): string;
  /** The requests `id` received, oldest first (the request journal). */
  requests(id: ServiceId): JournalEntry[];
  clearRequests(id: ServiceId): void;
  /** The faults `id` runs with now, as the admin API shows them: `{ delayMs: '0', errorRate: 0, errorStatus: 503 }`. */
  faults(id: ServiceId): FaultRuleJson;
  /**
   * Changes `id`'s faults from its next request (`<ID>_DELAY_MS`, `_ERROR_RATE`, `_ERROR_STATUS` while running);
   * returns the new rule. Throws naming a bad or unknown field, changing nothing.
   */
  setFaults(id: ServiceId, change: FaultChange): FaultRuleJson;
  /** Honour `X-Backlot-Delay` / `X-Backlot-Status` on every service, or not (`BACKLOT_FAULT_HEADERS`). */
  setFaultHeaders(enabled: boolean): void;
  /** The admin page and API, with `start({ admin: true })`. */
  admin?: { url: string };
  /** Stops every service and removes the temporary data directory. */
  close(): Promise<void>;
}

/**
 * Starts services in this process on free ports, for tests: `const b = await start({ services: ['posts'] })`.
 * Instances share nothing (each has its own data directory and embedded database). On PostgreSQL
 * (`env.DATABASE_URL`) they share whatever that database holds: give each instance its own database.
 */
export async function start<Id extends ServiceId = ServiceId>(
  options: StartOptions<Id> = {},
): Promise<Backlot<Id>> {
  const ids: readonly ServiceId[] = options.services ?? serviceIds;
  const unknown = ids.find((id) => !findService(id));
  if (unknown !== undefined)
    throw new Error(`unknown service "${unknown}" (valid: ${serviceIds.join(', ')})`);
  const chosen = allServices.filter((s) => ids.includes(s.id));
  const ephemeral = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'backlot-')));
  const env: Env = {
    ...process.env,
    // Tests want quiet output and quick answers; both can be set back through `env`.
    LOG_LEVEL: 'silent',
    LOG_PRETTY: 'false',
    LIST_DELAY_MS: '0',
    HOST: '127.0.0.1',
    ...options.env,
    ...Object.fromEntries(chosen.map((s) => [`${s.id.toUpperCase()}_PORT`, '0'])),
  };
  const removeData = () => (ephemeral ? rm(dataDir, { recursive: true, force: true }) : Promise.resolve());
  let server: Awaited<ReturnType<typeof startBacklot>>;
  try {
    const global = globalSettings(env, { dataDir });
    server = await startBacklot(planServices(chosen, env, global), global, createLogger(global));
  } catch (error) {
    await removeData();
    throw error;
  }
  try {
    // A test may write at once: the first-start state must be recorded before start() returns.
    await server.seeded;
  } catch (error) {
    await server.close();
    await removeData();
    throw error;
  }
  const started: { [K in ServiceId]?: StartedService<K> } = {};
  for (const s of server.services) {
    // credentialsOf gives each service the fields CredentialsByService names for it.
    started[s.id as ServiceId] = {
      url: s.url,
      docsUrl: s.docsUrl,
      credentials: credentialsOf(s.id, s.settings, dataDir) as CredentialsByService[ServiceId],
    } as StartedService<never>;
  }
  const url = (id: ServiceId) => {
    const service = started[id];
    if (!service)
      throw new Error(`service "${id}" was not started (started: ${Object.keys(started).join(', ')})`);
    return service.url;
  };
  const harnessOf = (id: ServiceId) => {
    url(id);
    return (server.services.find((s) => s.id === id) as RunningApp).harness.faults;
  };
  let admin: RunningAdmin | undefined;
  if (options.admin) {
    try {
      const { startAdmin } = await import('./harness/admin.js');
      admin = await startAdmin({
        services: server.services,
        faultHeaders: server.faultHeaders,
        state: server.state,
        host: '127.0.0.1',
        port: 0,
        token: env.ADMIN_TOKEN || undefined,
      });
    } catch (error) {
      await server.close();
      await removeData();
      throw error;
    }
  }
  const state = server.state;
  let closing: Promise<void> | undefined;
  return {
    // Holds exactly the services of `ids`, which is what Backlot<Id> says.
    services: started as Backlot<Id>['services'],
    dataDir,
    url,
    reset: (ids) => state.reset(ids),
    checkpoint: (name, ids) => state.checkpoint(name, ids),
    restore: (name, ids) => state.restore(name, ids),
    checkpoints: () => state.checkpoints(),
    checkpointSizes: () => state.checkpointSizes(),
    deleteCheckpoint: (name) => state.deleteCheckpoint(name),
    requests(id) {
      url(id);
      return server.journal.list(id);
    },
    clearRequests(id) {
      url(id);
      server.journal.clear(id);
    },
    faults: (id) => ruleToJson(harnessOf(id).rule),
    setFaults(id, change) {
      const faults = harnessOf(id);
      faults.rule = changedRule(faults.rule, change);
      return ruleToJson(faults.rule);
    },
    setFaultHeaders(enabled) {
      server.faultHeaders.enabled = enabled;
    },
    admin: admin && { url: admin.url },
    close() {
      closing ??= Promise.resolve(admin?.close())
        .then(() => server.close())
        .finally(removeData);
      return closing;
    },
  };
}
