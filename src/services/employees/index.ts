import { defineService } from '../../platform/service.js';

export const employees = defineService({
  id: 'employees',
  title: 'Employee record API',
  ports: { alone: 8080, together: 8082 },
  portEnv: ['PORT'],
  schema: 'employees',
  migrations: [],
  openapi: true,
  docsPath: '/docs',
  settings: () => ({}),
  errorBody: ({ message }) => ({ message }),
  start: async () => ({ routes: async () => {} }),
});
