import { tokenHash } from '../../platform/secrets.js';
import { defineCommand, type ServiceCommand, UsageError } from '../../platform/service.js';
import { newAccessToken, newAppPassword, normalizeAppPassword } from './auth.js';
import type { ContentSettings } from './settings.js';
import { ContentStore } from './store.js';

/** A `… create --user U [--name N]` command that gives user U a new secret, stored as its hash, and prints it. */
function createCredential(
  summary: string,
  kind: 'app_password' | 'bearer',
  fresh: () => string,
  stored: (s: string) => string,
) {
  return defineCommand({
    summary,
    flags: { user: { type: 'string' }, name: { type: 'string' } },
    required: ['user'],
    async run({ flags }, ctx) {
      const store = new ContentStore(ctx.db);
      const user = await store.findUserByLogin(flags.user);
      if (!user) throw new UsageError(`no user "${flags.user}"`);
      const secret = fresh();
      await store.addCredential(user.id, kind, flags.name ?? 'backlot CLI', tokenHash(stored(secret)));
      return secret;
    },
  });
}

/** `backlot content <command>`: credentials for the site's users. */
export const commands: Record<string, ServiceCommand<ContentSettings>> = {
  'app-password create': createCredential(
    'print a new application password for the user (HTTP Basic)',
    'app_password',
    newAppPassword,
    normalizeAppPassword,
  ),
  'token create': createCredential(
    'print a new access token for the user (Authorization: Bearer)',
    'bearer',
    newAccessToken,
    (token) => token,
  ),
};
