import { defineManifest } from '../../platform/service.js';
import { listSettings } from './settings.js';

export const listManifest = defineManifest({
  id: 'list',
  title: 'Grocery list over a JSON file',
  ports: { alone: 3333, together: 3333 },
  portEnv: ['PORT'],
  schema: undefined,
  settings: listSettings,
});
