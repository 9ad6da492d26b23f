import { defineService } from '../../platform/service.js';

export const things = defineService({
  id: 'things',
  title: 'Signup, login and things',
  ports: { alone: 8080, together: 8081 },
  portEnv: ['PORT'],
  schema: 'things',
  migrations: [],
  openapi: true,
  docsPath: '/docs',
  settings: () => ({}),
  errorBody: ({ message }) => ({ message }),
  start: async () => ({ routes: async () => {} }),
});
