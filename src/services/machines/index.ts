import { defineService } from '../../platform/service.js';

export const machines = defineService({
  id: 'machines',
  title: 'Machine management API',
  ports: { alone: 8080, together: 8084 },
  portEnv: ['PORT'],
  schema: 'machines',
  migrations: [],
  openapi: true,
  docsPath: '/docs',
  settings: () => ({}),
  errorBody: ({ message }) => ({ message }),
  start: async () => ({ routes: async () => {} }),
});
