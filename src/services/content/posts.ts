import type { Static, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { can, canOnPost, canRead } from './capabilities.js';
import { refused, restError } from './errors.js';
import { caller, fieldList, paginate, sendFields, siteOf, validId } from './http.js';
import { type Context, pickFields, renderPost, renderTerm, renderUser, stripTags } from './render.js';
import {
  DeletedPostSchema,
  ForceQuery,
  IdParams,
  ItemQuery,
  isTrue,
  PostListQuery,
  PostSchema,
  PostWriteBody,
  postStatuses,
  responses,
} from './schemas.js';
import type { ContentStore, PostFilter, PostRow, PostStatus, TermRow, UserRow } from './store.js';

interface Embedded {
  users: Map<number, UserRow>;
  terms: Map<number, TermRow>;
}

const base = '/wp-json/wp/v2/posts';
const item = `${base}/:id(^\\d+$)`;
const tags = ['posts'];

const invalidId = () => restError(404, 'rest_post_invalid_id', 'Invalid post ID.');

export const slugify = (text: string) =>
  stripTags(
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase(),
    '',
  )
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);

const text = (value: string | { raw: string } | undefined) => (typeof value === 'object' ? value.raw : value);

type WriteBody = Static<typeof PostWriteBody>;

/** Dates are given in the site's time zone (UTC) without an offset, as WordPress shows them. */
function parseDate(value: string) {
  const date = new Date(`${value.slice(0, 19)}Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 19) !== value.slice(0, 19))
    throw restError(400, 'rest_invalid_param', 'Invalid parameter(s): date', { date: 'Invalid date.' });
  return date;
}

export function postRoutes(store: ContentStore): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    const findPost = async (id: number) => {
      const post = validId(id) ? await store.findPost(id) : undefined;
      if (!post) throw invalidId();
      return post;
    };

    const respond = (
      request: FastifyRequest,
      post: PostRow,
      context: Context,
      fields?: string[],
      embedded?: Embedded,
    ) => {
      const site = siteOf(request);
      const body: Record<string, unknown> = renderPost(post, site, context);
      if (embedded) {
        const author = embedded.users.get(post.author);
        const terms = (ids: number[]) =>
          ids.flatMap((id) => {
            const term = embedded.terms.get(id);
            return term ? [renderTerm(term, site)] : [];
          });
        body._embedded = {
          author: author ? [renderUser(author, site, 'embed')] : [],
          'wp:term': [terms(post.categories), terms(post.tags)],
        };
      }
      return fields?.length ? pickFields(body, fields) : body;
    };

    /** `_embed`: the posts' authors and terms, loaded once for the whole page. */
    const embeddedFor = async (
      posts: PostRow[],
      embed: string | undefined,
    ): Promise<Embedded | undefined> => {
      if (embed === undefined) return undefined;
      const users = await store.findUsers([...new Set(posts.map((p) => p.author))]);
      const termIds = [...new Set(posts.flatMap((p) => [...p.categories, ...p.tags]))];
      const terms = new Map<number, TermRow>();
      for (const taxonomy of ['category', 'post_tag'] as const) {
        if (termIds.length === 0) break;
        const { rows } = await store.listTerms({
          taxonomy,
          include: termIds,
          hideEmpty: false,
          orderby: 'id',
          order: 'asc',
          offset: 0,
        });
        for (const term of rows) terms.set(term.id, term);
      }
      return { users: new Map(users.map((u) => [u.id, u])), terms };
    };

    /** Permission checks shared by create and update, in WordPress's order. */
    const checkWrite = async (user: UserRow, body: WriteBody) => {
      if (body.author !== undefined && body.author !== user.id && !can(user, 'edit_others_posts'))
        throw restError(
          403,
          'rest_cannot_edit_others',
          'Sorry, you are not allowed to update posts as this user.',
        );
      if (
        body.status !== undefined &&
        ['publish', 'future', 'private'].includes(body.status) &&
        !can(user, 'publish_posts')
      )
        throw restError(
          403,
          'rest_cannot_publish',
          'Sorry, you are not allowed to publish posts in this post type.',
        );
      if (isTrue(body.sticky) && !can(user, 'publish_posts') && !can(user, 'edit_others_posts'))
        throw restError(403, 'rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.');
      if (body.author !== undefined && !(validId(body.author) && (await store.findUser(body.author))))
        throw restError(400, 'rest_invalid_author', 'Invalid author ID.');
      const params: Record<string, string> = {};
      if (body.categories && (await store.missingTerms(body.categories, 'category')).length)
        params.categories = 'Invalid term ID.';
      if (body.tags && (await store.missingTerms(body.tags, 'post_tag')).length)
        params.tags = 'Invalid term ID.';
      if (Object.keys(params).length)
        throw restError(
          400,
          'rest_invalid_param',
          `Invalid parameter(s): ${Object.keys(params).join(', ')}`,
          params,
        );
    };

    const fieldsOf = (body: WriteBody, post?: PostRow) => {
      const title = text(body.title);
      const status = body.status as PostStatus | undefined;
      let slug = body.slug === undefined ? undefined : slugify(body.slug);
      if (slug === undefined && !post?.slug && title) slug = slugify(title);
      return {
        title,
        content: text(body.content),
        excerpt: text(body.excerpt),
        status,
        // A trashed post that is given a status again leaves the trash.
        trashed_from: status !== undefined && post?.status === 'trash' ? null : undefined,
        author: body.author,
        slug,
        categories: body.categories,
        tags: body.tags,
        date: body.date === undefined ? undefined : parseDate(body.date),
        sticky: body.sticky === undefined ? undefined : isTrue(body.sticky),
        comment_status: body.comment_status,
        ping_status: body.ping_status,
        format: body.format,
      };
    };

    app.get(
      base,
      {
        schema: {
          tags,
          summary: 'List posts (the full list unless per_page is given)',
          querystring: PostListQuery,
          response: responses(Type.Array(PostSchema)),
        },
      },
      async (request, reply) => {
        const user = caller(request);
        const q = request.query;
        const context = q.context ?? 'view';
        if (context === 'edit' && !can(user, 'edit_posts'))
          throw refused(
            !!user,
            'rest_forbidden_context',
            'Sorry, you are not allowed to edit posts in this post type.',
          );
        let statuses = (q.status ?? ['publish']) as (PostStatus | 'any')[];
        if (statuses.includes('any')) statuses = postStatuses.filter((s) => s !== 'trash');
        if (statuses.some((s) => s !== 'publish') && !can(user, 'edit_posts'))
          throw refused(!!user, 'rest_forbidden_status', 'Status is forbidden.');
        const perPage = q.per_page;
        const page = q.page ?? 1;
        const orderby =
          q.orderby === 'include' || q.orderby === 'relevance' || q.orderby === 'parent' ? 'date' : q.orderby;
        const filter: PostFilter = {
          statuses: statuses as PostStatus[],
          search: q.search,
          authors: q.author,
          authorExclude: q.author_exclude,
          categories: q.categories,
          tags: q.tags,
          include: q.include,
          exclude: q.exclude,
          slugs: q.slug,
          sticky: q.sticky === undefined ? undefined : isTrue(q.sticky),
          orderby: orderby ?? 'date',
          order: q.order ?? 'desc',
          limit: perPage,
          offset: q.offset ?? (perPage ? (page - 1) * perPage : 0),
          visibleTo: user && !can(user, 'edit_others_posts') ? user.id : undefined,
        };
        if (!perPage && q.offset === undefined && page > 1) filter.limit = 0;
        const { rows, total } = await store.listPosts(filter);
        const totalPages = perPage ? Math.ceil(total / perPage) : total > 0 ? 1 : 0;
        paginate(request, reply, total, page, totalPages, 'rest_post_invalid_page_number');
        const fields = fieldList(q._fields);
        sendFields(reply, fields);
        const embedded = await embeddedFor(rows, q._embed);
        return rows.map((post) => respond(request, post, context, fields, embedded));
      },
    );

    app.get(
      item,
      {
        schema: {
          tags,
          summary: 'Read a post',
          params: IdParams,
          querystring: ItemQuery,
          response: responses(PostSchema),
        },
      },
      async (request, reply) => {
        const user = caller(request);
        const post = await findPost(request.params.id);
        const context = request.query.context ?? 'view';
        if (context === 'edit' && !canOnPost(user, 'edit', post))
          throw refused(!!user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
        if (!canRead(user, post))
          throw refused(!!user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
        const allow = ['GET'];
        if (canOnPost(user, 'edit', post)) allow.push('POST', 'PUT', 'PATCH');
        if (canOnPost(user, 'delete', post)) allow.push('DELETE');
        reply.header('allow', allow.join(', '));
        const fields = fieldList(request.query._fields);
        sendFields(reply, fields);
        return respond(request, post, context, fields, await embeddedFor([post], request.query._embed));
      },
    );

    app.post(
      base,
      {
        schema: {
          tags,
          summary: 'Create a post (a draft unless status says otherwise)',
          body: Type.Optional(PostWriteBody),
          response: responses(PostSchema, 201),
        },
      },
      async (request, reply) => {
        const user = caller(request);
        const body = request.body ?? {};
        if (!can(user, 'edit_posts') || !user)
          throw refused(
            !!user,
            'rest_cannot_create',
            'Sorry, you are not allowed to create posts as this user.',
          );
        await checkWrite(user, body);
        const fields = fieldsOf(body);
        if (!fields.title && !fields.content && !fields.excerpt)
          throw restError(400, 'empty_content', 'Content, title, and excerpt are empty.');
        const post = await store.savePost({
          ...fields,
          author: fields.author ?? user.id,
          status: fields.status ?? 'draft',
          title: fields.title ?? '',
          slug: fields.slug ?? '',
          categories: fields.categories?.length ? fields.categories : [1],
        });
        reply.status(201).header('location', `${siteOf(request).api}/wp/v2/posts/${post.id}`);
        return respond(request, post, 'edit');
      },
    );

    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      app.route({
        method,
        url: item,
        schema: {
          tags,
          summary: 'Update a post: only the fields sent change',
          params: IdParams,
          body: Type.Optional(PostWriteBody),
          response: responses(PostSchema),
        },
        handler: async (request) => {
          const user = caller(request);
          const post = await findPost(request.params.id);
          if (!user || !canOnPost(user, 'edit', post))
            throw refused(!!user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
          const body = request.body ?? {};
          await checkWrite(user, body);
          const updated = await store.savePost(fieldsOf(body, post), post.id);
          return respond(request, updated, 'edit');
        },
      });
    }

    app.delete(
      item,
      {
        schema: {
          tags,
          summary: 'Move a post to the trash, or delete it for good with force=true',
          params: IdParams,
          querystring: ForceQuery,
          body: Type.Optional(ForceQuery),
          response: responses(Type.Union([PostSchema, DeletedPostSchema])),
        },
      },
      async (request) => {
        const user = caller(request);
        const post = await findPost(request.params.id);
        if (!canOnPost(user, 'delete', post))
          throw refused(!!user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
        const force = isTrue(request.body?.force ?? request.query.force);
        if (force) {
          const previous = respond(request, post, 'edit');
          await store.deletePost(post.id);
          return { deleted: true, previous };
        }
        if (post.status === 'trash')
          throw restError(410, 'rest_already_trashed', 'The post has already been deleted.');
        const trashed = await store.savePost({ status: 'trash', trashed_from: post.status }, post.id);
        return respond(request, trashed, 'edit');
      },
    );
  };
}
