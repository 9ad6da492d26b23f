import { defineService } from '../../platform/service.js';

export const list = defineService({
  id: 'list',
  title: 'Grocery list over a JSON file',
  ports: { alone: 3333, together: 3333 },
  portEnv: ['PORT'],
  schema: undefined,
  migrations: [],
  openapi: true,
  docsPath: '/docs',
  settings: () => ({}),
  errorBody: ({ message }) => ({ message }),
  start: async () => ({ routes: async () => {} }),
});
