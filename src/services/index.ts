import type { ServiceDefinition, ServiceId } from '../platform/service.js';
import { content } from './content/index.js';
import { employees } from './employees/index.js';
import { list } from './list/index.js';
import { machines } from './machines/index.js';
import { posts } from './posts/index.js';
import { profiles } from './profiles/index.js';
import { things } from './things/index.js';

/** Every service backlot serves, in banner order. Adding a service is one import and one entry here. */
export const services: ServiceDefinition<any>[] = [
  profiles,
  things,
  list,
  employees,
  posts,
  machines,
  content,
];

export const serviceIds = services.map((s) => s.id) as ServiceId[];

export function findService(id: string): ServiceDefinition<any> | undefined {
  return services.find((s) => s.id === id);
}
