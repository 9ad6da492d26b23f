import { defineManifest } from '../../platform/service.js';
import { contentSettings } from './settings.js';

export const contentManifest = defineManifest({
  id: 'content',
  title: 'Content-site API',
  ports: { alone: 8080, together: 8085 },
  portEnv: ['PORT'],
  schema: 'content',
  settings: contentSettings,
  commands: async () => (await import('./commands.js')).commands,
});
