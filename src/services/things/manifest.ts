import { defineManifest } from '../../platform/service.js';
import { thingsSettings } from './settings.js';

// What backlot knows of this service before loading it (see src/services/index.ts).
export const thingsManifest = defineManifest({
  id: 'things',
  title: 'Signup, login and things',
  ports: { alone: 8080, together: 8081 },
  hostEnv: 'IP',
  schema: 'things',
  settings: thingsSettings,
  commands: async () => (await import('./commands.js')).commands,
});
