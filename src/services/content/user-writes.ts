import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { hashPassword } from '../../platform/secrets.js';
import { can, roleCapabilities } from './capabilities.js';
import { phpList, refused, restError } from './errors.js';
import { caller, setCaller, siteOf, validId } from './http.js';
import { languages } from './languages.js';
import { slugify } from './posts.js';
import { renderUser } from './render.js';
import { IdParams, responses, UserSchema } from './schemas.js';
import type { ContentStore, Role, UserRow } from './store.js';
import { insertUser, type UserFields, uniqueUserSlug, updateUser, userHolding } from './user-store.js';

const Text = Type.Optional(Type.String({ maxLength: 5000 }));
export const UserWriteBody = Type.Object({
  username: Type.Optional(Type.String({ description: 'Login name (required to create; not editable).' })),
  email: Type.Optional(Type.String({ description: 'E-mail address (required to create).' })),
  password: Type.Optional(Type.String({ description: 'Password (required to create; never shown).' })),
  name: Text,
  first_name: Text,
  last_name: Text,
  nickname: Text,
  description: Text,
  url: Text,
  locale: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String({ maxLength: 200 })),
  roles: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  meta: Type.Optional(Type.Object({}, { additionalProperties: true })),
});
type UserBody = Static<typeof UserWriteBody>;

/** `rest_invalid_param` for one parameter, with core's `params` and `details`. */
export function invalidParam(name: string, message: string, code = 'rest_invalid_param') {
  const error = restError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, { [name]: message });
  (error.body as { data: Record<string, unknown> }).data.details = {
    [name]: { code, message, data: { status: 400 } },
  };
  return error;
}

const roleNames = Object.keys(roleCapabilities) as Role[];
const rolesOf = (roles: UserBody['roles']) =>
  roles === undefined
    ? undefined
    : (typeof roles === 'string' ? roles.split(',') : roles).map((r) => r.trim());

/** `sanitize_text_field`: no tags, no line breaks or tabs, trimmed. */
const plainText = (value: string) =>
  value
    .replace(/<[^>]*>/g, '')
    .replace(/[\r\n\t ]+/g, ' ')
    .trim();

/** `validate_username`: letters, digits, space, `_ . - @`, with no leading, trailing or doubled spaces. */
const validUsername = (name: string) => /^[A-Za-z0-9_.@-]+( [A-Za-z0-9_.@-]+)*$/.test(name);

/** `is_email` for the common cases: one `@`, a dotted domain, no white space. */
const validEmail = (email: string) => /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email) && email.length <= 100;

/** Parameter checks that run before permissions, as core's sanitize callbacks do. */
function checkParams(body: UserBody) {
  if (body.username !== undefined && !validUsername(body.username))
    throw invalidParam(
      'username',
      'This username is invalid because it uses illegal characters. Please enter a valid username.',
      'rest_user_invalid_username',
    );
  if (body.email !== undefined && !validEmail(body.email))
    throw invalidParam('email', 'Invalid email address.', 'rest_invalid_email');
  if (body.password !== undefined) {
    if (body.password === '')
      throw invalidParam('password', 'Passwords cannot be empty.', 'rest_user_invalid_password');
    if (body.password.includes('\\'))
      throw invalidParam(
        'password',
        'Passwords cannot contain the "\\" character.',
        'rest_user_invalid_password',
      );
  }
  if (body.url !== undefined && body.url !== '' && !/^https?:\/\/[^\s]+$/i.test(body.url))
    throw invalidParam('url', 'Invalid URL.', 'rest_invalid_url');
  const locales = ['', 'en_US', ...Object.values(languages)];
  if (body.locale !== undefined && !locales.includes(body.locale))
    throw invalidParam('locale', `locale is not one of ${phpList(locales)}.`, 'rest_not_in_enum');
}

/** `check_role_update`: known roles only, and administrators cannot demote themselves. */
function checkRoles(me: UserRow, targetId: number | undefined, roles: string[]) {
  for (const role of roles) {
    if (!roleNames.includes(role as Role))
      throw restError(400, 'rest_user_invalid_role', `The role ${role} does not exist.`);
    if (targetId === me.id && !roleCapabilities[role as Role].includes('edit_users'))
      throw restError(403, 'rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.');
  }
}

/** The columns a body sets (names sanitized as core does); the password is hashed here. */
async function fieldsOf(body: UserBody, roles: string[] | undefined): Promise<UserFields> {
  const text = (value: string | undefined) => (value === undefined ? undefined : plainText(value));
  const locale = body.locale;
  return {
    email: body.email,
    display_name: text(body.name),
    first_name: text(body.first_name),
    last_name: text(body.last_name),
    nickname: text(body.nickname),
    description: body.description,
    url: body.url,
    language:
      locale === undefined
        ? undefined
        : (Object.entries(languages).find(([, l]) => l === locale)?.[0] ?? 'en'),
    role: roles?.length ? (roles[0] as Role) : undefined,
    password_hash: body.password === undefined ? undefined : await hashPassword(body.password),
  };
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** `POST /users` and updates of `/users/{id}` and `/users/me` (POST, PUT, PATCH). */
export function userWriteRoutes(store: ContentStore): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const db = store.db;
    const edit = (request: FastifyRequest, user: UserRow) => renderUser(user, siteOf(request), 'edit');

    app.post(
      '/wp-json/wp/v2/users',
      {
        schema: {
          tags: ['users'],
          summary: 'Create a user (administrators): username, email and password are required',
          body: UserWriteBody,
          response: responses(UserSchema, 201),
        },
      },
      async (request, reply) => {
        const body = request.body;
        const missing = (['username', 'email', 'password'] as const).filter((k) => body[k] === undefined);
        if (missing.length)
          throw restError(400, 'rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, [
            ...missing,
          ]);
        checkParams(body);
        const me = caller(request);
        if (!me || !can(me, 'create_users'))
          throw refused(!!me, 'rest_cannot_create_user', 'Sorry, you are not allowed to create new users.');
        if ((body as { id?: unknown }).id)
          throw restError(400, 'rest_user_exists', 'Cannot create existing user.');
        const roles = rolesOf(body.roles);
        if (roles?.length) checkRoles(me, undefined, roles);
        const login = body.username as string;
        if (login.length > 60)
          throw restError(400, 'user_login_too_long', 'Username may not be longer than 60 characters.');
        if ((await userHolding(db, 'login', login)) !== undefined)
          throw restError(400, 'existing_user_login', 'Sorry, that username already exists!');
        if ((await userHolding(db, 'email', body.email as string)) !== undefined)
          throw restError(400, 'existing_user_email', 'Sorry, that email address is already used!');
        const fields = await fieldsOf(body, roles);
        const first = fields.first_name ?? '';
        const last = fields.last_name ?? '';
        const slugBase = slugify(body.slug ?? login).slice(0, 50) || slugify(login) || 'user';
        try {
          const user = await insertUser(db, {
            ...fields,
            login,
            email: body.email as string,
            display_name: fields.display_name || [first, last].filter(Boolean).join(' ') || login,
            first_name: first,
            last_name: last,
            nickname: fields.nickname || login,
            description: fields.description ?? '',
            url: fields.url ?? '',
            language: fields.language ?? 'en',
            slug: await uniqueUserSlug(db, slugBase),
            role: fields.role ?? 'subscriber',
          });
          reply.status(201).header('location', `${siteOf(request).api}/wp/v2/users/${user.id}`);
          return edit(request, user);
        } catch (error) {
          if (isUniqueViolation(error))
            throw restError(400, 'existing_user_login', 'Sorry, that username already exists!');
          throw error;
        }
      },
    );

    const update = async (request: FastifyRequest, id: number) => {
      const body = (request.body ?? {}) as UserBody;
      checkParams(body);
      const me = caller(request);
      const user = validId(id) ? await store.findUser(id) : undefined;
      if (!user) throw restError(404, 'rest_user_invalid_id', 'Invalid user ID.');
      const roles = rolesOf(body.roles);
      if (roles?.length) {
        if (!can(me, 'promote_users'))
          throw refused(
            !!me,
            'rest_cannot_edit_roles',
            'Sorry, you are not allowed to edit roles of this user.',
          );
      }
      const onlyRoles = roles?.length && Object.keys(body).every((k) => k === 'roles');
      if (!onlyRoles && me?.id !== user.id && !can(me, 'edit_users'))
        throw refused(!!me, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this user.');
      const owner = body.email ? await userHolding(db, 'email', body.email) : undefined;
      if (owner !== undefined && owner !== user.id)
        throw restError(400, 'rest_user_invalid_email', 'Invalid email address.');
      if (body.username && body.username !== user.login)
        throw restError(400, 'rest_user_invalid_argument', "Username isn't editable.");
      const slug = body.slug ? slugify(body.slug) : undefined;
      if (slug && slug !== user.slug && (await userHolding(db, 'slug', slug)) !== undefined)
        throw restError(400, 'rest_user_invalid_slug', 'Invalid slug.');
      if (roles?.length) checkRoles(me as UserRow, user.id, roles);
      const fields = await fieldsOf(body, roles);
      try {
        await updateUser(db, user.id, { ...fields, slug: slug || undefined });
      } catch (error) {
        if (isUniqueViolation(error))
          throw restError(400, 'rest_user_invalid_email', 'Invalid email address.');
        throw error;
      }
      const updated = (await store.findUser(user.id)) as UserRow;
      if (me?.id === updated.id) setCaller(request, updated);
      return edit(request, updated);
    };

    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      app.route({
        method,
        url: '/wp-json/wp/v2/users/:id(^\\d+$)',
        schema: {
          tags: ['users'],
          summary: 'Update a user: yourself, or anyone for administrators; roles need promote_users',
          params: IdParams,
          body: UserWriteBody,
          response: responses(UserSchema),
        },
        handler: async (request) => update(request, request.params.id),
      });
      app.route({
        method,
        url: '/wp-json/wp/v2/users/me',
        schema: {
          tags: ['users'],
          summary: 'Update the logged-in user',
          body: UserWriteBody,
          response: responses(UserSchema),
        },
        // Anonymous callers are user 0, which core answers as an unknown user.
        handler: async (request) => update(request, caller(request)?.id ?? 0),
      });
    }
  };
}
