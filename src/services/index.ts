import type { ServiceEntry, ServiceId } from '../platform/service.js';
import { contentManifest } from './content/manifest.js';
import { employeesManifest } from './employees/manifest.js';
import { listManifest } from './list/manifest.js';
import { machinesManifest } from './machines/manifest.js';
import { postsManifest } from './posts/manifest.js';
import { profilesManifest } from './profiles/manifest.js';
import { thingsManifest } from './things/manifest.js';

/**
 * Every service backlot serves, in banner order: its manifest, and its module, imported only when it is served
 * (so `--help` or `serve list` never load GraphQL, the S3 SDK or another service's routes). Adding a service is
 * one import of its manifest (`<id>/manifest.ts`) and one entry here.
 */
export const services: ServiceEntry<any>[] = [
  { ...profilesManifest, load: async () => (await import('./profiles/index.js')).profiles },
  { ...thingsManifest, load: async () => (await import('./things/index.js')).things },
  { ...listManifest, load: async () => (await import('./list/index.js')).list },
  { ...employeesManifest, load: async () => (await import('./employees/index.js')).employees },
  { ...postsManifest, load: async () => (await import('./posts/index.js')).posts },
  { ...machinesManifest, load: async () => (await import('./machines/index.js')).machines },
  { ...contentManifest, load: async () => (await import('./content/index.js')).content },
];

export const serviceIds = services.map((s) => s.id) as ServiceId[];

export function findService(id: string): ServiceEntry<any> | undefined {
  return services.find((s) => s.id === id);
}
