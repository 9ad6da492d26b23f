import { defineManifest } from '../../platform/service.js';
import { machinesSettings } from './settings.js';

// What backlot knows of this service before loading it (see src/services/index.ts).
export const machinesManifest = defineManifest({
  id: 'machines',
  title: 'Machine management API',
  ports: { alone: 8080, together: 8084 },
  schema: 'machines',
  settings: machinesSettings,
  commands: async () => (await import('./tokens.js')).tokenCommands,
});
