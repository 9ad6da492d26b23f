import { tokenHash } from '../../platform/secrets.js';
import { defineCommand, type ServiceCommand, UsageError } from '../../platform/service.js';
import { newAccessToken, newAppPassword, normalizeAppPassword } from './auth.js';
import type { ContentSettings } from './settings.js';
import { ContentStore } from './store.js';

/** `backlot content <command>`: credentials for the site's users. */
export const commands: Record<string, ServiceCommand<ContentSettings>> = {
  'app-password create': defineCommand({
    summary: 'print a new application password for the user (HTTP Basic)',
    flags: { user: { type: 'string' }, name: { type: 'string' } },
    required: ['user'],
    async run({ flags }, ctx) {
      const store = new ContentStore(ctx.db);
      const user = await store.findUserByLogin(flags.user);
      if (!user) throw new UsageError(`no user "${flags.user}"`);
      const password = newAppPassword();
      await store.addCredential(
        user.id,
        'app_password',
        flags.name ?? 'backlot CLI',
        tokenHash(normalizeAppPassword(password)),
      );
      return password;
    },
  }),
  'token create': defineCommand({
    summary: 'print a new access token for the user (Authorization: Bearer)',
    flags: { user: { type: 'string' }, name: { type: 'string' } },
    required: ['user'],
    async run({ flags }, ctx) {
      const store = new ContentStore(ctx.db);
      const user = await store.findUserByLogin(flags.user);
      if (!user) throw new UsageError(`no user "${flags.user}"`);
      const token = newAccessToken();
      await store.addCredential(user.id, 'bearer', flags.name ?? 'backlot CLI', tokenHash(token));
      return token;
    },
  }),
};
