import { defineManifest } from '../../platform/service.js';
import { employeesSettings } from './settings.js';

export const employeesManifest = defineManifest({
  id: 'employees',
  title: 'Employee record API',
  ports: { alone: 8080, together: 8082 },
  portEnv: ['PORT'],
  schema: 'employees',
  settings: employeesSettings,
});
