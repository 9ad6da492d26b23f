import { LoginLimiter } from '../../platform/login-limit.js';
import { tokenHash } from '../../platform/secrets.js';
import { defineService, UsageError } from '../../platform/service.js';
import { newAccessToken, newAppPassword, normalizeAppPassword } from './auth.js';
import { contentErrorBody } from './errors.js';
import { migrations } from './migrations.js';
import { contentRoutes } from './routes.js';
import { contentSettings } from './settings.js';
import { ContentStore } from './store.js';

const REMEMBERED = 'admin_app_password';

/** `--user U [--name N]` from an operator command's arguments. */
function userFlag(args: string[], usage: string) {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] = arg.split('=', 2);
    if (flag !== '--user' && flag !== '--name')
      throw new UsageError(`unexpected argument "${arg}"; usage: ${usage}`);
    const value = inline ?? args[++i];
    if (!value) throw new UsageError(`${flag} needs a value; usage: ${usage}`);
    flags[flag.slice(2)] = value;
  }
  if (!flags.user) throw new UsageError(`--user is required; usage: ${usage}`);
  return { user: flags.user, name: flags.name };
}

export const content = defineService({
  id: 'content',
  title: 'Content-site API',
  ports: { alone: 8080, together: 8085 },
  portEnv: ['PORT'],
  schema: 'content',
  migrations,
  openapi: true,
  credentialed: true,
  docsPath: '/docs',
  exposeHeaders: ['x-wp-total', 'x-wp-totalpages', 'link', 'allow'],
  settings: contentSettings,
  errorBody: contentErrorBody,
  async start(ctx) {
    const store = new ContentStore(ctx.db);
    const banner: string[] = [];
    const admin = await store.findUserByLogin('admin');
    if (admin) {
      const configured = ctx.settings.adminAppPassword;
      if (configured) {
        await store.addCredential(
          admin.id,
          'app_password',
          'CONTENT_ADMIN_APP_PASSWORD',
          tokenHash(normalizeAppPassword(configured)),
        );
        banner.push('user "admin" signs in with the application password from CONTENT_ADMIN_APP_PASSWORD');
      } else {
        const existing = await store.credentialHashes(admin.id, 'app_password');
        let remembered = ctx.credentials.recall('content', REMEMBERED);
        if (existing.length === 0) {
          remembered = newAppPassword();
          await store.addCredential(
            admin.id,
            'app_password',
            'backlot first start',
            tokenHash(normalizeAppPassword(remembered)),
          );
          ctx.credentials.remember('content', REMEMBERED, remembered);
        }
        const hash = remembered ? tokenHash(normalizeAppPassword(remembered)) : undefined;
        const stillValid = existing.length === 0 || existing.some((row) => row.secret_hash === hash);
        banner.push(
          remembered && stillValid
            ? `user "admin", application password "${remembered}" (HTTP Basic)`
            : 'new application passwords: backlot content app-password create --user admin',
        );
      }
    }
    const limiter = LoginLimiter.forService(ctx, 'content');
    return { routes: contentRoutes(store, ctx.settings, limiter), banner, close: limiter.close };
  },
  commands: {
    'app-password': {
      usage: 'app-password create --user U [--name N]',
      summary: 'print a new application password for user U (HTTP Basic)',
      async run(args, ctx) {
        const usage = 'backlot content app-password create --user U [--name N]';
        if (args[0] !== 'create') throw new UsageError(`usage: ${usage}`);
        const { user: login, name } = userFlag(args.slice(1), usage);
        const store = new ContentStore(ctx.db);
        const user = await store.findUserByLogin(login);
        if (!user) throw new UsageError(`no user "${login}"`);
        const password = newAppPassword();
        await store.addCredential(
          user.id,
          'app_password',
          name ?? 'backlot CLI',
          tokenHash(normalizeAppPassword(password)),
        );
        return password;
      },
    },
    token: {
      usage: 'token create --user U [--name N]',
      summary: 'print a new access token for user U (Authorization: Bearer)',
      async run(args, ctx) {
        const usage = 'backlot content token create --user U [--name N]';
        if (args[0] !== 'create') throw new UsageError(`usage: ${usage}`);
        const { user: login, name } = userFlag(args.slice(1), usage);
        const store = new ContentStore(ctx.db);
        const user = await store.findUserByLogin(login);
        if (!user) throw new UsageError(`no user "${login}"`);
        const token = newAccessToken();
        await store.addCredential(user.id, 'bearer', name ?? 'backlot CLI', tokenHash(token));
        return token;
      },
    },
  },
});
