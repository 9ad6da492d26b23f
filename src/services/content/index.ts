import { defineService } from '../../platform/service.js';

export const content = defineService({
  id: 'content',
  title: 'Content-site API',
  ports: { alone: 8080, together: 8085 },
  portEnv: ['PORT'],
  schema: 'content',
  migrations: [],
  openapi: true,
  docsPath: '/docs',
  settings: () => ({}),
  errorBody: ({ message }) => ({ message }),
  start: async () => ({ routes: async () => {} }),
});
