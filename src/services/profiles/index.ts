import { defineService } from '../../platform/service.js';

export const profiles = defineService({
  id: 'profiles',
  title: 'GraphQL user profiles with image uploads',
  ports: { alone: 8080, together: 8080 },
  portEnv: ['PORT'],
  schema: 'profiles',
  migrations: [],
  openapi: true,
  docsPath: '/docs',
  settings: () => ({}),
  errorBody: ({ message }) => ({ message }),
  start: async () => ({ routes: async () => {} }),
});
