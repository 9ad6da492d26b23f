import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { can, roleCapabilities } from './capabilities.js';
import { pickItemFields } from './embed-param.js';
import { phpList, refused, restError } from './errors.js';
import { caller, fieldList, paginate, sendFields, siteOf, validId } from './http.js';
import { trashPost } from './post-write.js';
import { type Context, renderUser, withoutLinks } from './render.js';
import {
  IdParams,
  ItemQuery,
  isTrue,
  responses,
  UserDeleteArgs,
  UserListQuery,
  UserSchema,
} from './schemas.js';
import type { ContentStore, UserRow } from './store.js';
import { RevisionStore } from './store-revisions.js';
import { invalidParam } from './user-writes.js';

const base = '/wp-json/wp/v2/users';
const item = `${base}/:id(^\\d+$)`;
const tags = ['users'];

const invalidId = () => restError(404, 'rest_user_invalid_id', 'Invalid user ID.');
const cannotView = (loggedIn: boolean) =>
  refused(loggedIn, 'rest_user_cannot_view', 'Sorry, you are not allowed to list users.');
/** Orderings that would reveal private fields. */
const privateOrderings = new Set(['email', 'registered_date', 'username']);
const postTypes = ['post', 'page', 'attachment'];

/**
 * `has_published_posts` (core's boolean-or-post-types parameter): true or types limit the list to users with
 * published posts, false lifts nothing; anything else is a 400 naming the value.
 */
function publishedFilter(values: string[] | undefined): boolean | undefined {
  if (!values?.length) return undefined;
  if (values.length === 1 && ['true', '1'].includes(values[0] as string)) return true;
  if (values.length === 1 && ['false', '0', ''].includes(values[0] as string)) return undefined;
  values.forEach((value, i) => {
    if (!postTypes.includes(value))
      throw invalidParam(
        'has_published_posts',
        `has_published_posts[${i}] is not one of ${phpList(postTypes)}.`,
        'rest_not_in_enum',
      );
  });
  return true;
}

/** `reassign`: an id, or false (also `0`, `""`, `"false"`) to delete the user's posts with them. */
function reassignOf(value: unknown): number | false | undefined {
  if (value === undefined) return undefined;
  if (value === false || value === 'false' || value === '' || value === 0 || value === '0') return false;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  throw invalidParam('reassign', 'Invalid user parameter(s).');
}

/**
 * WP_User_Query's role__in: the roles asked for, plus (capability__in) every role holding one of the capabilities
 * and the capability names themselves, which core matches against role names too.
 */
function rolesFilter(roles: string[] | undefined, capabilities: string[] | undefined) {
  if (!capabilities?.length) return roles;
  const holders = Object.entries(roleCapabilities)
    .filter(([, caps]) => capabilities.some((cap) => caps.includes(cap)))
    .map(([role]) => role);
  return [...new Set([...(roles ?? []), ...holders, ...capabilities])];
}

export function userRoutes(store: ContentStore): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    const respond = (
      request: FastifyRequest,
      user: UserRow,
      context: Context,
      fields?: string[],
      collection = false,
    ) => {
      const body = renderUser(user, siteOf(request), context);
      return pickItemFields(request, body, fields, collection);
    };

    app.get(
      base,
      {
        schema: {
          tags,
          summary: 'List users (everyone for administrators; authors of published posts otherwise)',
          querystring: UserListQuery,
          response: responses(Type.Array(UserSchema)),
        },
      },
      async (request, reply) => {
        const me = caller(request);
        const q = request.query;
        const context = q.context ?? 'view';
        const listUsers = can(me, 'list_users');
        const published = publishedFilter(q.has_published_posts);
        if (q.roles?.length && !listUsers)
          throw refused(!!me, 'rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.');
        if (q.capabilities?.length && !listUsers)
          throw refused(
            !!me,
            'rest_user_cannot_view',
            'Sorry, you are not allowed to filter users by capability.',
          );
        if (context === 'edit' && !listUsers)
          throw refused(!!me, 'rest_forbidden_context', 'Sorry, you are not allowed to list users.');
        if (q.orderby && privateOrderings.has(q.orderby) && !listUsers)
          throw refused(
            !!me,
            'rest_forbidden_orderby',
            'Sorry, you are not allowed to order users by this parameter.',
          );
        if (q.who === 'authors' && !can(me, 'edit_posts'))
          throw refused(
            !!me,
            'rest_forbidden_who',
            'Sorry, you are not allowed to query users by this parameter.',
          );
        const perPage = q.per_page ?? 10;
        const page = q.page ?? 1;
        // include without include is no FIELD(): core falls back to user_login.
        const orderby =
          q.orderby === 'include' ? 'username' : q.orderby === 'include_slugs' ? 'id' : (q.orderby ?? 'name');
        const { rows, total } = await store.listUsers({
          // As core: who=authors lifts the published-posts limit; has_published_posts sets it explicitly.
          publishedOnly: published ?? (!listUsers && q.who !== 'authors'),
          search: q.search,
          roles: rolesFilter(q.roles, q.capabilities),
          include: q.include,
          exclude: q.exclude,
          slugs: q.slug,
          authors: q.who === 'authors',
          orderby,
          order: q.order ?? 'asc',
          listOrder:
            q.orderby === 'include' && q.include?.length
              ? { ids: q.include }
              : q.orderby === 'include_slugs'
                ? { slugs: q.slug ?? [] }
                : undefined,
          limit: perPage,
          offset: q.offset ?? (page - 1) * perPage,
        });
        const totalPages = Math.ceil(total / perPage);
        paginate(request, reply, total, page, totalPages);
        const fields = fieldList(q._fields);
        sendFields(reply, fields);
        return rows.map((user) => respond(request, user, context, fields, true));
      },
    );

    app.get(
      `${base}/me`,
      {
        schema: {
          tags,
          summary: 'The logged-in user',
          querystring: ItemQuery,
          response: responses(UserSchema),
        },
      },
      async (request, reply) => {
        const me = caller(request);
        if (!me) throw restError(401, 'rest_not_logged_in', 'You are not currently logged in.');
        const fields = fieldList(request.query._fields);
        sendFields(reply, fields);
        return respond(request, me, request.query.context ?? 'view', fields);
      },
    );

    app.get(
      item,
      {
        schema: {
          tags,
          summary: 'Read a user',
          params: IdParams,
          querystring: ItemQuery,
          response: responses(UserSchema),
        },
      },
      async (request, reply) => {
        const me = caller(request);
        const id = request.params.id;
        const listUsers = can(me, 'list_users');
        const user = validId(id) ? await store.findUser(id, listUsers) : undefined;
        if (!user) throw invalidId();
        const context = request.query.context ?? 'view';
        const self = me?.id === user.id;
        if (context === 'edit' && !self && !listUsers) throw cannotView(!!me);
        if (!self && !listUsers && !(await store.userHasPublishedPosts(user.id))) throw cannotView(!!me);
        const fields = fieldList(request.query._fields);
        sendFields(reply, fields);
        return respond(request, user, context, fields);
      },
    );

    // `/users/me` deletes the caller as `/users/{id}` would (anonymous callers are user 0: an unknown user).
    for (const url of [item, `${base}/me`]) {
      const current = url !== item;
      app.delete(
        url,
        {
          schema: {
            tags,
            summary: current
              ? 'Trash the logged-in user, or delete them for good (as /users/{id})'
              : 'Trash a user, or delete for good with force=true; reassign moves their posts first',
            ...(current ? {} : { params: IdParams }),
            querystring: UserDeleteArgs,
            body: Type.Optional(UserDeleteArgs),
            response: responses(
              Type.Object({
                deleted: Type.Boolean(),
                trashed: Type.Optional(Type.Boolean()),
                previous: Type.Omit(UserSchema, ['_links']),
              }),
            ),
          },
        },
        async (request) => {
          const force = isTrue(request.body?.force ?? request.query.force);
          const reassign = reassignOf(request.body?.reassign ?? request.query.reassign);
          // Deleting for good must say what happens to the user's posts, as core requires `reassign`.
          if (force && reassign === undefined)
            throw restError(400, 'rest_missing_callback_param', 'Missing parameter(s): reassign', [
              'reassign',
            ]);
          const me = caller(request);
          const id = current ? (me?.id ?? 0) : (request.params as { id: number }).id;
          const admin = can(me, 'delete_users');
          const user = validId(id) ? await store.findUser(id, admin) : undefined;
          if (!user) throw invalidId();
          if (!admin)
            throw refused(!!me, 'rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.');
          if (
            reassign !== undefined &&
            reassign !== false &&
            (reassign === user.id || !validId(reassign) || !(await store.findUser(reassign)))
          )
            throw restError(400, 'rest_user_invalid_reassign', 'Invalid user ID for reassignment.');
          if (!force && user.trashed_at)
            throw restError(410, 'rest_already_trashed', 'The user has already been trashed.');
          const previous = withoutLinks(renderUser(user, siteOf(request), 'edit'));
          const left = await store.removeUser(user.id, { reassign: reassign || undefined, force });
          // Without reassign, their posts and pages go to the trash (wp_delete_post with EMPTY_TRASH_DAYS).
          const revisions = new RevisionStore(store.db);
          for (const postId of left) {
            const post = await store.findPost(postId);
            if (post) await trashPost(store, revisions, post, (me as UserRow).id);
          }
          return force ? { deleted: true, previous } : { deleted: false, trashed: true, previous };
        },
      );
    }

    app.post(
      `${item}/restore`,
      {
        schema: {
          tags,
          summary: 'Bring a trashed user back (administrators)',
          params: IdParams,
          response: responses(UserSchema),
        },
      },
      async (request) => {
        const me = caller(request);
        const id = request.params.id;
        const admin = can(me, 'delete_users');
        const user = validId(id) ? await store.findUser(id, admin) : undefined;
        if (!user) throw invalidId();
        if (!admin) throw refused(!!me, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this user.');
        if (!user.trashed_at) throw restError(400, 'rest_user_not_trashed', 'The user is not in the trash.');
        await store.restoreUser(user.id);
        return respond(request, { ...user, trashed_at: null }, 'edit');
      },
    );
  };
}
