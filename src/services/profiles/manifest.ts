import { defineManifest } from '../../platform/service.js';
import { profilesSettings } from './settings.js';

export const profilesManifest = defineManifest({
  id: 'profiles',
  title: 'GraphQL user profiles with image uploads',
  ports: { alone: 8080, together: 8080 },
  portEnv: ['PORT'],
  schema: 'profiles',
  settings: profilesSettings,
});
