import { defineManifest } from '../../platform/service.js';
import { machinesSettings } from './settings.js';

export const machinesManifest = defineManifest({
  id: 'machines',
  title: 'Machine management API',
  ports: { alone: 8080, together: 8084 },
  portEnv: ['PORT'],
  schema: 'machines',
  settings: machinesSettings,
  commands: async () => (await import('./tokens.js')).tokenCommands,
});
