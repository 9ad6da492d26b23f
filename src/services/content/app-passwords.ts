import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Database } from '../../platform/database.js';
import { tokenHash } from '../../platform/secrets.js';
import { appPasswordOf, newAppPassword, normalizeAppPassword } from './auth.js';
import { can } from './capabilities.js';
import { refused, restError } from './errors.js';
import { caller, siteOf, validId } from './http.js';
import { wpDate } from './render.js';
import { responses } from './schemas.js';
import type { ContentStore, UserRow } from './store.js';

interface AppPasswordRow {
  id: number;
  uuid: string;
  app_id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  last_ip: string | null;
}

const columns = 'id, uuid::text AS uuid, app_id, name, created_at, last_used_at, last_ip';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const AppPasswordSchema = Type.Object({
  uuid: Type.String(),
  app_id: Type.String(),
  name: Type.String(),
  created: Type.String(),
  last_used: Type.Union([Type.String(), Type.Null()]),
  last_ip: Type.Union([Type.String(), Type.Null()]),
  password: Type.Optional(Type.String()),
  _links: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Object({ href: Type.String() })))),
});
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '.*\\S.*' });
const AppId = Type.String({ format: 'uuid', description: 'A UUID the application provides.' });
export const AppPasswordBody = Type.Object({ name: Type.Optional(Name), app_id: Type.Optional(AppId) });
export const AppPasswordCreateBody = Type.Object({ name: Name, app_id: Type.Optional(AppId) });
type Body = Static<typeof AppPasswordBody>;

const list = (db: Database, userId: number) =>
  db.query<AppPasswordRow>(
    `SELECT ${columns} FROM content.credentials WHERE user_id = $1 AND kind = 'app_password' ORDER BY id`,
    [userId],
  );

async function findOne(db: Database, userId: number, uuid: string) {
  if (!uuidPattern.test(uuid)) return undefined;
  const { rows } = await db.query<AppPasswordRow>(
    `SELECT ${columns} FROM content.credentials WHERE user_id = $1 AND kind = 'app_password' AND uuid = $2::uuid`,
    [userId, uuid],
  );
  return rows[0];
}

async function nameTaken(db: Database, userId: number, name: string, exceptId = 0) {
  const { rows } = await db.query(
    `SELECT 1 FROM content.credentials WHERE user_id = $1 AND kind = 'app_password' AND name = $2 AND id <> $3`,
    [userId, name, exceptId],
  );
  return rows.length > 0;
}

const duplicateName = () =>
  restError(409, 'application_password_duplicate_name', 'Each application name should be unique.');
const notFound = () =>
  restError(404, 'rest_application_password_not_found', 'Application password not found.');

/** Core's `WP_REST_Application_Passwords_Controller`: a user's application passwords, kept only as hashes. */
export function appPasswordRoutes(store: ContentStore): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const db = store.db;

    const render = (request: FastifyRequest, userId: number, row: AppPasswordRow, password?: string) => ({
      uuid: row.uuid,
      app_id: row.app_id,
      name: row.name,
      created: wpDate(row.created_at),
      last_used: row.last_used_at ? wpDate(row.last_used_at) : null,
      last_ip: row.last_ip || null,
      ...(password ? { password } : {}),
      _links: {
        self: [{ href: `${siteOf(request).api}/wp/v2/users/${userId}/application-passwords/${row.uuid}` }],
      },
    });

    /** `get_user`: `me` is the caller (401 without one); ids must name a user (404). */
    const userOf = async (request: FastifyRequest): Promise<UserRow> => {
      const raw = (request.params as { id?: string }).id ?? 'me';
      if (raw === 'me') {
        const me = caller(request);
        if (!me) throw restError(401, 'rest_not_logged_in', 'You are not currently logged in.');
        return me;
      }
      const id = Number(raw);
      const user = validId(id) ? await store.findUser(id) : undefined;
      if (!user) throw restError(404, 'rest_user_invalid_id', 'Invalid user ID.');
      return user;
    };

    /** The `*_app_password(s)` meta capabilities map to `edit_user`: yourself, or administrators. */
    const allowed = async (request: FastifyRequest, code: string, message: string) => {
      const user = await userOf(request);
      const me = caller(request);
      if (me?.id !== user.id && !can(me, 'edit_users')) throw refused(!!me, code, message);
      return user;
    };

    const item = async (request: FastifyRequest, user: UserRow) => {
      const row = await findOne(db, user.id, (request.params as { uuid: string }).uuid);
      if (!row) throw notFound();
      return row;
    };

    for (const base of ['/wp-json/wp/v2/users/:id(^\\d+$)', '/wp-json/wp/v2/users/me']) {
      const collection = `${base}/application-passwords`;
      const one = `${collection}/:uuid`;
      const tags = ['application passwords'];

      app.get(
        collection,
        {
          schema: {
            tags,
            summary: 'List application passwords',
            response: responses(Type.Array(AppPasswordSchema)),
          },
        },
        async (request) => {
          const user = await allowed(
            request,
            'rest_cannot_list_application_passwords',
            'Sorry, you are not allowed to list application passwords for this user.',
          );
          return (await list(db, user.id)).rows.map((row) => render(request, user.id, row));
        },
      );

      app.post(
        collection,
        {
          schema: {
            tags,
            summary: 'Create an application password: answered once, stored as a hash',
            body: AppPasswordCreateBody,
            response: responses(AppPasswordSchema, 201),
          },
        },
        async (request, reply) => {
          const user = await allowed(
            request,
            'rest_cannot_create_application_passwords',
            'Sorry, you are not allowed to create application passwords for this user.',
          );
          const name = request.body.name.trim();
          if (await nameTaken(db, user.id, name)) throw duplicateName();
          const password = newAppPassword();
          const { rows } = await db.query<AppPasswordRow>(
            `INSERT INTO content.credentials (user_id, kind, name, app_id, secret_hash)
             VALUES ($1, 'app_password', $2, $3, $4) RETURNING ${columns}`,
            [user.id, name, request.body.app_id ?? '', tokenHash(normalizeAppPassword(password))],
          );
          const body = render(request, user.id, rows[0] as AppPasswordRow, password);
          reply.status(201).header('location', body._links.self[0]?.href);
          return body;
        },
      );

      app.delete(
        collection,
        {
          schema: {
            tags,
            summary: 'Delete all of the user’s application passwords',
            response: responses(Type.Object({ deleted: Type.Boolean(), count: Type.Integer() })),
          },
        },
        async (request) => {
          const user = await allowed(
            request,
            'rest_cannot_delete_application_passwords',
            'Sorry, you are not allowed to delete application passwords for this user.',
          );
          const { rows } = await db.query(
            `DELETE FROM content.credentials WHERE user_id = $1 AND kind = 'app_password' RETURNING id`,
            [user.id],
          );
          return { deleted: true, count: rows.length };
        },
      );

      app.get(
        `${collection}/introspect`,
        {
          schema: {
            tags,
            summary: 'The application password this request authenticated with',
            response: responses(AppPasswordSchema),
          },
        },
        async (request) => {
          const user = await userOf(request);
          const me = caller(request);
          if (me?.id !== user.id)
            throw refused(
              !!me,
              'rest_cannot_introspect_app_password_for_non_authenticated_user',
              'The authenticated application password can only be introspected for the current user.',
            );
          const used = appPasswordOf(request);
          const row = (await list(db, user.id)).rows.find((r) => r.id === used);
          if (!row)
            throw restError(
              404,
              'rest_no_authenticated_app_password',
              'Cannot introspect application password.',
            );
          return render(request, user.id, row);
        },
      );

      app.get(
        one,
        {
          schema: { tags, summary: 'Read one application password', response: responses(AppPasswordSchema) },
        },
        async (request) => {
          const user = await allowed(
            request,
            'rest_cannot_read_application_password',
            'Sorry, you are not allowed to read this application password.',
          );
          return render(request, user.id, await item(request, user));
        },
      );

      for (const method of ['POST', 'PUT', 'PATCH'] as const)
        app.route({
          method,
          url: one,
          schema: {
            tags,
            summary: 'Rename an application password',
            body: AppPasswordBody,
            response: responses(AppPasswordSchema),
          },
          handler: async (request) => {
            const user = await allowed(
              request,
              'rest_cannot_edit_application_password',
              'Sorry, you are not allowed to edit this application password.',
            );
            const row = await item(request, user);
            const body = (request.body ?? {}) as Body;
            const name = body.name?.trim() ?? row.name;
            if (await nameTaken(db, user.id, name, row.id)) throw duplicateName();
            const { rows } = await db.query<AppPasswordRow>(
              `UPDATE content.credentials SET name = $2, app_id = $3 WHERE id = $1 RETURNING ${columns}`,
              [row.id, name, body.app_id ?? row.app_id],
            );
            return render(request, user.id, rows[0] as AppPasswordRow);
          },
        });

      app.delete(
        one,
        {
          schema: {
            tags,
            summary: 'Delete one application password',
            response: responses(Type.Object({ deleted: Type.Boolean(), previous: AppPasswordSchema })),
          },
        },
        async (request) => {
          const user = await allowed(
            request,
            'rest_cannot_delete_application_password',
            'Sorry, you are not allowed to delete this application password.',
          );
          const row = await item(request, user);
          await db.query('DELETE FROM content.credentials WHERE id = $1', [row.id]);
          return { deleted: true, previous: render(request, user.id, row) };
        },
      );
    }
  };
}
