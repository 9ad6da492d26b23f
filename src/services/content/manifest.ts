import { defineManifest } from '../../platform/service.js';
import { contentSettings } from './settings.js';

// What backlot knows of this service before loading it (see src/services/index.ts).
export const contentManifest = defineManifest({
  id: 'content',
  title: 'Content-site API',
  ports: { alone: 8080, together: 8085 },
  schema: 'content',
  settings: contentSettings,
  commands: async () => (await import('./commands.js')).commands,
});
