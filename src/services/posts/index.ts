import { defineService } from '../../platform/service.js';

export const posts = defineService({
  id: 'posts',
  title: 'Posts API with fake writes',
  ports: { alone: 8080, together: 8083 },
  portEnv: ['PORT'],
  schema: undefined,
  migrations: [],
  openapi: true,
  docsPath: '/docs',
  settings: () => ({}),
  errorBody: ({ message }) => ({ message }),
  start: async () => ({ routes: async () => {} }),
});
