import { defineManifest } from '../../platform/service.js';
import { listDelayMs, listSettings } from './settings.js';

// What backlot knows of this service before loading it (see src/services/index.ts).
export const listManifest = defineManifest({
  id: 'list',
  title: 'Grocery list over a JSON file',
  ports: { alone: 3333, together: 3333 },
  defaultDelayMs: listDelayMs,
  settings: listSettings,
});
