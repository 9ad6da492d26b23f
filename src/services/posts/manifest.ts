import { defineManifest } from '../../platform/service.js';
import { postsSettings } from './settings.js';

export const postsManifest = defineManifest({
  id: 'posts',
  title: 'Posts API with fake writes',
  ports: { alone: 8080, together: 8083 },
  portEnv: ['PORT'],
  schema: undefined,
  settings: postsSettings,
});
