import { defineManifest } from '../../platform/service.js';
import { employeesSettings } from './settings.js';

// What backlot knows of this service before loading it (see src/services/index.ts).
export const employeesManifest = defineManifest({
  id: 'employees',
  title: 'Employee record API',
  ports: { alone: 8080, together: 8082 },
  schema: 'employees',
  settings: employeesSettings,
});
