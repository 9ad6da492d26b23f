import { defineManifest } from '../../platform/service.js';
import { postsSettings } from './settings.js';

// What backlot knows of this service before loading it (see src/services/index.ts).
export const postsManifest = defineManifest({
  id: 'posts',
  title: 'Posts API with fake writes',
  ports: { alone: 8080, together: 8083 },
  settings: postsSettings,
});
