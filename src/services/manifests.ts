import { defineManifest } from '../platform/service.js';
import { contentSettings } from './content/settings.js';
import { employeesSettings } from './employees/settings.js';
import { listDelayMs, listSettings } from './list/settings.js';
import { machinesSettings } from './machines/settings.js';
import { postsSettings } from './posts/settings.js';
import { profilesSettings } from './profiles/settings.js';
import { thingsSettings } from './things/settings.js';

// What backlot knows of each service before loading it: enough for --help, port planning, settings and operator
// commands. One table, so that a service's code is loaded only when the service is served (see index.ts).

export const profilesManifest = defineManifest({
  id: 'profiles',
  title: 'GraphQL user profiles with image uploads',
  ports: { alone: 8080, together: 8080 },
  schema: 'profiles',
  settings: profilesSettings,
});

export const thingsManifest = defineManifest({
  id: 'things',
  title: 'Signup, login and things',
  ports: { alone: 8080, together: 8081 },
  hostEnv: 'IP',
  schema: 'things',
  settings: thingsSettings,
  commands: async () => (await import('./things/commands.js')).commands,
});

export const listManifest = defineManifest({
  id: 'list',
  title: 'Grocery list over a JSON file',
  ports: { alone: 3333, together: 3333 },
  defaultDelayMs: listDelayMs,
  settings: listSettings,
});

export const employeesManifest = defineManifest({
  id: 'employees',
  title: 'Employee record API',
  ports: { alone: 8080, together: 8082 },
  schema: 'employees',
  settings: employeesSettings,
});

export const postsManifest = defineManifest({
  id: 'posts',
  title: 'Posts API with fake writes',
  ports: { alone: 8080, together: 8083 },
  settings: postsSettings,
});

export const machinesManifest = defineManifest({
  id: 'machines',
  title: 'Machine management API',
  ports: { alone: 8080, together: 8084 },
  schema: 'machines',
  settings: machinesSettings,
  commands: async () => (await import('./machines/tokens.js')).tokenCommands,
});

export const contentManifest = defineManifest({
  id: 'content',
  title: 'Content-site API',
  ports: { alone: 8080, together: 8085 },
  schema: 'content',
  settings: contentSettings,
  commands: async () => (await import('./content/commands.js')).commands,
});
