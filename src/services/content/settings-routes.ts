import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { settingsError } from './errors.js';
import { caller, setCaller } from './http.js';
import { languages } from './languages.js';
import { avatarUrl } from './render.js';
import { SettingsErrorSchema, SettingsSchema } from './schemas.js';
import type { ContentStore, UserRow } from './store.js';

const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

const SettingsBody = Type.Object(
  {
    display_name: Text(250),
    first_name: Text(250),
    last_name: Text(250),
    description: Text(5000),
    user_email: Text(100),
    user_URL: Text(200),
    language: Text(20),
    user_login: Type.Optional(Type.Unknown({ description: 'Read-only: sending it is refused.' })),
    avatar_URL: Type.Optional(Type.Unknown({ description: 'Read-only: sending it is refused.' })),
  },
  { additionalProperties: false },
);

/** Settings key -> users column. */
const columns = {
  display_name: 'display_name',
  first_name: 'first_name',
  last_name: 'last_name',
  description: 'description',
  user_email: 'email',
  user_URL: 'url',
  language: 'language',
} as const;
type SettingKey = keyof typeof columns;

const invalid = (message: string) => settingsError(400, 'invalid_input', message);

/**
 * `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` without its quadratic backtracking: one `@` with text before it, no white
 * space, and a dot in the domain with text on both sides.
 */
function isEmail(value: string) {
  const at = value.indexOf('@');
  if (at < 1 || value.includes('@', at + 1) || /\s/.test(value)) return false;
  return value.slice(at + 2, -1).includes('.');
}

function settingsOf(user: UserRow) {
  return {
    user_login: user.login,
    display_name: user.display_name,
    first_name: user.first_name,
    last_name: user.last_name,
    description: user.description,
    user_email: user.email,
    user_URL: user.url,
    language: user.language,
    avatar_URL: avatarUrl(user.email),
  };
}

/** WordPress.com's `/me/settings/`: the logged-in user's own profile settings. */
export function settingsRoutes(store: ContentStore): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    const me = (request: FastifyRequest) => {
      const user = caller(request);
      if (!user)
        throw settingsError(
          403,
          'authorization_required',
          'An active access token must be used to query information about the current user.',
        );
      return user;
    };

    for (const prefix of ['', '/rest/v1.1']) {
      app.get(
        `${prefix}/me/settings`,
        {
          schema: {
            tags: ['settings'],
            summary: "The logged-in user's settings",
            response: { 200: SettingsSchema, '4xx': SettingsErrorSchema },
          },
        },
        async (request) => settingsOf(me(request)),
      );

      app.post(
        `${prefix}/me/settings`,
        {
          schema: {
            tags: ['settings'],
            summary: 'Change some of the logged-in user’s settings; answers the keys that were saved',
            body: Type.Optional(SettingsBody),
            response: { 200: Type.Partial(SettingsSchema), '4xx': SettingsErrorSchema },
          },
        },
        async (request) => {
          const user = me(request);
          const body = request.body ?? {};
          for (const readOnly of ['user_login', 'avatar_URL'] as const)
            if (readOnly in body) throw invalid(`${readOnly} cannot be changed`);
          const changes: Partial<Record<SettingKey, string>> = {};
          for (const key of Object.keys(columns) as SettingKey[]) {
            const value = body[key];
            if (value !== undefined) changes[key] = value.trim();
          }
          if (changes.user_email !== undefined) {
            if (!isEmail(changes.user_email)) throw invalid('Please enter a valid email address.');
            if (await store.emailTaken(changes.user_email, user.id))
              throw invalid('That email address is already in use.');
          }
          if (changes.user_URL !== undefined && changes.user_URL !== '') {
            let url: URL | undefined;
            try {
              url = new URL(changes.user_URL);
            } catch {}
            if (!url || !['http:', 'https:'].includes(url.protocol))
              throw invalid('Please enter a valid URL.');
          }
          if (changes.language !== undefined) {
            changes.language = changes.language.toLowerCase();
            if (!Object.hasOwn(languages, changes.language))
              throw invalid(`Unknown language: ${changes.language}`);
          }
          if (changes.display_name === '') throw invalid('The display name cannot be empty.');
          const update: Record<string, string> = {};
          for (const [key, value] of Object.entries(changes)) update[columns[key as SettingKey]] = value;
          await store.updateUserSettings(user.id, update);
          setCaller(request, { ...user, ...update });
          return changes;
        },
      );
    }
  };
}
