import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { can, canOnPost, canRead, editContextAllows } from './capabilities.js';
import { embeddedByRoute } from './embed-links.js';
import { linksWanted, parseEmbed, pickItemFields } from './embed-param.js';
import { refused, restError } from './errors.js';
import { caller, fieldList, paginate, sendFields, siteOf, validId } from './http.js';
import { type MediaFiles, mediaRoutes } from './media.js';
import { type Embedded, embedFor, withEmbedded } from './post-embed.js';
import { permalink } from './post-fields.js';
import { checkListContext, listFilter, registeredParams, splitListParams } from './post-list.js';
import {
  checkWrite,
  coerceWriteBody,
  fieldsOf,
  type PostKind,
  slugify,
  trashPost,
  unlocked,
  type WriteBody,
} from './post-write.js';
import { type Context, renderPost, withoutLinks } from './render.js';
import {
  BlockSchema,
  BlocksListQuery,
  BlockWriteBody,
  blockKind,
  DeletedBlockSchema,
  renderBlock,
} from './resources/blocks/index.js';
import {
  DeletedNavigationSchema,
  NavigationListQuery,
  NavigationSchema,
  NavigationWriteBody,
  navigationKind,
  navigationRenderer,
  renderNavigation,
} from './resources/navigation/index.js';
import { revisionRoutes } from './revisions.js';
import {
  DeletedPostSchema,
  ForceQuery,
  IdParams,
  isTrue,
  PostSchema,
  PostWriteBody,
  responses,
} from './schemas.js';
import {
  DeletedPageSchema,
  PageSchema,
  PagesListQuery,
  PageWriteBody,
  PostItemQuery,
  PostsListQuery,
} from './schemas-posts.js';
import type { ContentStore, PostRow, UserRow } from './store.js';
import { RevisionStore } from './store-revisions.js';

export { slugify } from './post-write.js';

export const postKind: PostKind = { type: 'post', rest: 'posts', caps: 'posts' };
export const pageKind: PostKind = { type: 'page', rest: 'pages', caps: 'pages' };

const schemasOf = (kind: PostKind) =>
  kind.type === 'page'
    ? { item: PageSchema, deleted: DeletedPageSchema, list: PagesListQuery, write: PageWriteBody }
    : kind.type === 'wp_block'
      ? { item: BlockSchema, deleted: DeletedBlockSchema, list: BlocksListQuery, write: BlockWriteBody }
      : kind.type === 'wp_navigation'
        ? {
            item: NavigationSchema,
            deleted: DeletedNavigationSchema,
            list: NavigationListQuery,
            write: NavigationWriteBody,
          }
        : { item: PostSchema, deleted: DeletedPostSchema, list: PostsListQuery, write: PostWriteBody };

/** The routes of one post type (posts or pages): list, read, create, update, trash/delete. */
export function postTypeRoutes(store: ContentStore, kind: PostKind): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const revisions = new RevisionStore(store.db);
    const base = `/wp-json/wp/v2/${kind.rest}`;
    const item = `${base}/:id(^\\d+$)`;
    const tags = [kind.rest];
    const schemas = schemasOf(kind);
    app.addHook('preValidation', async (request) => {
      splitListParams(request);
      if (request.method !== 'GET') coerceWriteBody(request);
    });

    const findPost = async (id: number) => {
      const post = validId(id) ? await store.findPost(id) : undefined;
      if (!post || post.type !== kind.type) throw restError(404, 'rest_post_invalid_id', 'Invalid post ID.');
      return post;
    };

    /**
     * Edit context's `generated_slug`: the unique slug the post's title gives (core's get_sample_permalink is
     * passed an empty name, so it always works from the title, even when the post has a slug).
     */
    const sampleSlug = (post: PostRow) =>
      store.uniqueSlug(store.db, slugify(post.title) || String(post.id), post.id);

    /** A navigation menu's `content.rendered`: its links to posts and pages render while those are published. */
    const navigationHtml = async (post: PostRow, user: UserRow | undefined, password?: string) => {
      if (!unlocked(user, post, password)) return '';
      return (await navigationRenderer(store, [post.content]))(post.content);
    };

    const respond = async (
      request: FastifyRequest,
      post: PostRow,
      context: Context,
      fields?: string[],
      embedded?: Embedded,
      password?: string,
      collection = false,
    ) => {
      const user = caller(request);
      const rendered = renderPost(
        post,
        siteOf(request),
        context,
        unlocked(user, post, password),
        user,
        // Blocks and navigation menus are not viewable (no sample permalink).
        context === 'edit' && kind.type !== 'wp_block' && kind.type !== 'wp_navigation'
          ? await sampleSlug(post)
          : undefined,
      );
      const body: Record<string, unknown> =
        kind.type === 'wp_block'
          ? renderBlock(post, context, rendered)
          : kind.type === 'wp_navigation'
            ? renderNavigation(post, context, rendered, await navigationHtml(post, user, password))
            : rendered;
      // What is embedded comes from the links `_fields` leaves (see pickItemFields).
      return withEmbedded(pickItemFields(request, body, fields, collection), post, embedded);
    };

    app.get(
      base,
      {
        schema: {
          tags,
          summary: `List ${kind.rest} (the full list unless per_page or page is given)`,
          querystring: schemas.list as TSchema,
          response: responses(Type.Array(schemas.item)),
        },
      },
      async (request, reply) => {
        const user = caller(request);
        const q = registeredParams(request.query, schemas.list);
        const context = (q.context ?? 'view') as Context;
        checkListContext(user, context, `edit_${kind.caps}`);
        const filter = listFilter(kind, q, user);
        // As core, the totals count what the query found, before the per-item check.
        const { rows: found, total } = await store.listPosts(filter);
        // Core checks each item's read permission too; only blocks' (edit_posts) can fail on a listed status.
        const rows = found.filter(
          (post) =>
            editContextAllows(user, post, context) && (kind.type !== 'wp_block' || canRead(user, post)),
        );
        const perPage = filter.limit;
        const page = (q.page as number | undefined) ?? 1;
        const totalPages = perPage ? Math.ceil(total / perPage) : total > 0 ? 1 : 0;
        paginate(request, reply, total, page, totalPages, 'rest_post_invalid_page_number');
        const fields = fieldList(q._fields);
        // The embed context has fewer fields than the full schema: serialized as they are, like `_fields`.
        sendFields(reply, context === 'embed' ? ['embed'] : fields);
        const rels = parseEmbed(q._embed);
        if (rels) embeddedByRoute.add(request);
        const embedded =
          rels && linksWanted(fields, rels) ? await embedFor(store, rows, request, rels) : undefined;
        return Promise.all(
          rows.map((post) => respond(request, post, context, fields, embedded, undefined, true)),
        );
      },
    );

    app.get(
      item,
      {
        schema: {
          tags,
          summary: `Read one of the ${kind.rest}`,
          params: IdParams,
          querystring: PostItemQuery,
          response: responses(schemas.item),
        },
      },
      async (request, reply) => {
        const user = caller(request);
        const post = await findPost(request.params.id);
        const context = request.query.context ?? 'view';
        if (!editContextAllows(user, post, context))
          throw refused(!!user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
        const password = request.query.password;
        // Core compares any ?password= with the post's, even when the post has none (then it never matches), and
        // before the read check, for everyone (get_item_permissions_check).
        if (password && password !== post.password)
          throw restError(403, 'rest_post_incorrect_password', 'Incorrect post password.');
        if (!canRead(user, post))
          throw refused(!!user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
        const allow = ['GET'];
        if (canOnPost(user, 'edit', post)) allow.push('POST', 'PUT', 'PATCH');
        if (canOnPost(user, 'delete', post)) allow.push('DELETE');
        reply.header('allow', allow.join(', '));
        // Core's get_item links the post's page for browsers (which replaces the API's discovery link).
        // Not for blocks: is_post_type_viewable is false for wp_block.
        if (kind.type !== 'wp_block' && kind.type !== 'wp_navigation')
          reply.header('link', `<${permalink(post, siteOf(request))}>; rel="alternate"; type=text/html`);
        const fields = fieldList(request.query._fields);
        sendFields(reply, context === 'embed' ? ['embed'] : fields);
        const rels = parseEmbed(request.query._embed);
        if (rels) embeddedByRoute.add(request);
        const embedded =
          rels && linksWanted(fields, rels) ? await embedFor(store, [post], request, rels) : undefined;
        return respond(request, post, context, fields, embedded, password);
      },
    );

    /** wp_insert_post: someone who may not publish cannot name a post pending review (its slug stays empty). */
    const pendingSlug = <F extends ReturnType<typeof fieldsOf>>(
      fields: F,
      user: UserRow,
      post?: PostRow,
    ): F =>
      (fields.status ?? post?.status ?? 'draft') === 'pending' && !can(user, `publish_${kind.caps}`)
        ? { ...fields, slug: '' }
        : fields;

    const requireWriter = (user: UserRow | undefined): UserRow => {
      // Core's message names posts whatever the type.
      if (!user || !can(user, kind.create ?? `edit_${kind.caps}`))
        throw refused(
          !!user,
          'rest_cannot_create',
          'Sorry, you are not allowed to create posts as this user.',
        );
      return user;
    };

    app.post(
      base,
      {
        schema: {
          tags,
          summary: `Create one of the ${kind.rest} (a draft unless status says otherwise)`,
          body: Type.Optional(schemas.write as TSchema),
          response: responses(schemas.item, 201),
        },
      },
      async (request, reply) => {
        const user = requireWriter(caller(request));
        const body = (request.body ?? {}) as WriteBody;
        await checkWrite(store, kind, user, body);
        const fields = pendingSlug(fieldsOf(body, undefined, kind.type), user);
        // wp_insert_post's empty check applies to types with title, editor and excerpt: blocks have no excerpt.
        if (kind.type === 'post' || kind.type === 'page')
          if (!fields.title && !fields.content && !fields.excerpt)
            throw restError(400, 'empty_content', 'Content, title, and excerpt are empty.');
        const post = await store.savePost({
          ...fields,
          type: kind.type,
          author: fields.author ?? user.id,
          status: fields.status ?? 'draft',
          // wp_insert_post: a new post given a date was last modified then, not now.
          modified: fields.date,
          title: fields.title ?? '',
          slug: fields.slug ?? '',
          // get_default_comment_status: comments and pings are closed on new pages.
          ...(kind.type === 'page'
            ? {
                comment_status: fields.comment_status ?? 'closed',
                ping_status: fields.ping_status ?? 'closed',
              }
            : {}),
          categories:
            kind.type === 'post' ? (fields.categories?.length ? fields.categories : [1]) : undefined,
        });
        reply.status(201).header('location', `${siteOf(request).api}/wp/v2/${kind.rest}/${post.id}`);
        return respond(request, post, 'edit');
      },
    );

    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      app.route({
        method,
        url: item,
        schema: {
          tags,
          summary: `Update one of the ${kind.rest}: only the fields sent change`,
          params: IdParams,
          body: Type.Optional(schemas.write as TSchema),
          response: responses(schemas.item),
        },
        handler: async (request) => {
          const user = caller(request);
          const post = await findPost((request.params as { id: number }).id);
          if (!user || !canOnPost(user, 'edit', post))
            throw refused(!!user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
          const body = (request.body ?? {}) as WriteBody;
          await checkWrite(store, kind, user, body);
          if (body.parent !== undefined && body.parent === post.id)
            throw restError(400, 'rest_post_invalid_id', 'Invalid post parent ID.');
          await store.savePost(pendingSlug(fieldsOf(body, post), user, post), post.id);
          // A delete may land between these statements: the post is then gone, as if it came first.
          await revisions.saveAfterUpdate(await findPost(post.id), user.id);
          return respond(request, await findPost(post.id), 'edit');
        },
      });
    }

    app.delete(
      item,
      {
        schema: {
          tags,
          summary: `Move one of the ${kind.rest} to the trash, or delete it for good with force=true`,
          params: IdParams,
          querystring: ForceQuery,
          body: Type.Optional(ForceQuery),
          response: responses(Type.Union([schemas.item, schemas.deleted])),
        },
      },
      async (request) => {
        const user = caller(request);
        const post = await findPost(request.params.id);
        if (!canOnPost(user, 'delete', post))
          throw refused(!!user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
        const force = isTrue(request.body?.force ?? request.query.force);
        if (force) {
          const previous = withoutLinks(await respond(request, post, 'edit'));
          await store.deletePost(post.id);
          return { deleted: true, previous };
        }
        if (post.status === 'trash')
          throw restError(410, 'rest_already_trashed', 'The post has already been deleted.');
        await trashPost(store, revisions, post, (user as UserRow).id);
        return respond(request, (await store.findPost(post.id)) as PostRow, 'edit');
      },
    );
  };
}

/** Posts, pages, their revisions and media (routes.ts registers this one plugin). */
export function postRoutes(store: ContentStore, files: MediaFiles): FastifyPluginAsync {
  return async (app) => {
    await app.register(postTypeRoutes(store, postKind));
    await app.register(postTypeRoutes(store, pageKind));
    await app.register(postTypeRoutes(store, blockKind));
    await app.register(revisionRoutes(store, 'post'));
    await app.register(revisionRoutes(store, 'page'));
    await app.register(revisionRoutes(store, 'wp_block'));
    await app.register(postTypeRoutes(store, navigationKind));
    await app.register(revisionRoutes(store, 'wp_navigation'));
    await app.register(mediaRoutes(store, files));
  };
}
