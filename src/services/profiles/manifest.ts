import { defineManifest } from '../../platform/service.js';
import { profilesSettings } from './settings.js';

// What backlot knows of this service before loading it (see src/services/index.ts).
export const profilesManifest = defineManifest({
  id: 'profiles',
  title: 'GraphQL user profiles with image uploads',
  ports: { alone: 8080, together: 8080 },
  schema: 'profiles',
  settings: profilesSettings,
});
