import { LoginLimiter } from '../../platform/login-limit.js';
import { newToken } from '../../platform/secrets.js';
import { defineService } from '../../platform/service.js';
import { Authenticator } from './auth.js';
import { employeesManifest } from './manifest.js';
import { migrations } from './migrations.js';
import { employeeRoutes, errorBody, prefix } from './routes.js';
import type { ConfiguredAccount, EmployeesSettings } from './settings.js';
import { EmployeeStore } from './store.js';

export const employees = defineService<EmployeesSettings>({
  ...employeesManifest,
  migrations,
  openapi: true,
  credentialed: true,
  securitySchemes: {
    basic: {
      type: 'http',
      scheme: 'basic',
      description: "An account (the banner prints the admin editor's password)",
    },
  },
  docsPath: '/docs',
  exposeHeaders: ['location'],
  errorBody,
  async start(ctx) {
    const { settings } = ctx;
    const store = new EmployeeStore(ctx.db);
    const banner = [`API under ${ctx.publicUrl}${prefix}/employees`];

    let accounts: ConfiguredAccount[] = settings.accounts;
    if (accounts.length === 0) {
      // No accounts configured: one generated editor, kept in the data directory so restarts reuse it.
      let password = ctx.credentials.recall('employees', 'admin');
      if (!password) {
        password = newToken(12);
        ctx.credentials.remember('employees', 'admin', password);
      }
      accounts = [{ name: 'admin', password, role: 'editor' }];
      banner.push(`Basic credentials (editor): admin / ${password}`);
    } else {
      banner.push(
        `Accounts from EMPLOYEES_USERS: ${settings.accounts.map((a) => `${a.name} (${a.role})`).join(', ')}`,
      );
    }
    await store.replaceAccounts(accounts);
    if (settings.openWrites)
      banner.push('EMPLOYEES_OPEN_WRITES=true: anyone may create, update and delete records');

    if (settings.seed && (await store.seedOnce())) ctx.log.info('added the 24 sample employees');

    const limiter = LoginLimiter.forService(ctx, 'employees');
    const auth = new Authenticator(store, limiter);
    return { routes: employeeRoutes({ store, auth, settings }), banner, close: limiter.close };
  },
});
