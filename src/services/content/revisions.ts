import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { canOnPost } from './capabilities.js';
import { pickItemFields } from './embed-param.js';
import { refused, restError } from './errors.js';
import { caller, fieldList, paginate, sendFields, siteOf, validId } from './http.js';
import { checkOrderby } from './post-list.js';
import { navigationRenderer } from './resources/navigation/index.js';
import { type Context, renderHtml, restBase, wpDate } from './render.js';
import { hasBlocks, stripBlockComments, texturize } from './render-text.js';
import { ContextEnum, ForceQuery, responses, StringEnum } from './schemas.js';
import type { Site } from './site.js';
import type { ContentStore, PostRow } from './store.js';
import { type RevisionRow, RevisionStore } from './store-revisions.js';

const Int = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const IdList = Type.Array(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }));
const Params = Type.Object({ parent: Type.Integer() });
const ItemParams = Type.Object({ parent: Type.Integer(), id: Type.Integer() });
const ListQuery = Type.Object({
  context: Type.Optional(ContextEnum),
  page: Type.Optional(Int),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  orderby: Type.Optional(
    StringEnum(['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title'] as const),
  ),
  search: Type.Optional(Type.String()),
  include: Type.Optional(IdList),
  exclude: Type.Optional(IdList),
  _fields: Type.Optional(Type.String()),
});
const Revision = Type.Object({}, { additionalProperties: true });

/** The revisions controller's answer for one revision (the autosaves controller's too, for any post row). */
export function renderRevision(
  rev: RevisionRow,
  site: Site,
  rest: string,
  context: Context,
  /** The_content when it is not the posts' (navigation menus render their links). */
  theContent?: (raw: string) => string,
) {
  // A block's revisions take the blocks' schema: raw title and content in view context too, no excerpt.
  const block = rest === 'blocks';
  // Types without an excerpt (reusable blocks, navigation menus) have none in their revisions either.
  const excerpt = rest !== 'blocks' && rest !== 'navigation';
  const edit = context === 'edit' || block;
  const raw = <T extends object>(rendered: T, value: string) =>
    edit ? { raw: value, ...rendered } : rendered;
  const content = theContent
    ? theContent(rev.content)
    : texturize(hasBlocks(rev.content) ? stripBlockComments(rev.content) : renderHtml(rev.content));
  return {
    author: rev.author,
    date: wpDate(rev.date),
    date_gmt: wpDate(rev.date),
    id: rev.id,
    modified: wpDate(rev.modified),
    modified_gmt: wpDate(rev.modified),
    parent: rev.parent,
    slug: rev.slug,
    guid:
      context === 'edit'
        ? { rendered: `${site.url}/?p=${rev.id}`, raw: `${site.url}/?p=${rev.id}` }
        : { rendered: `${site.url}/?p=${rev.id}` },
    title: raw({ rendered: texturize(rev.title) }, rev.title),
    content: raw({ rendered: content }, rev.content),
    ...(!excerpt
      ? {}
      : { excerpt: raw({ rendered: rev.excerpt ? texturize(renderHtml(rev.excerpt)) : '' }, rev.excerpt) }),
    // Core links the parent only when there is one (a draft autosaved in place is a post without one).
    ...(rev.parent ? { _links: { parent: [{ href: `${site.api}/wp/v2/${rest}/${rev.parent}` }] } } : {}),
  };
}

/** `/posts/{id}/revisions` and `/pages/{id}/revisions`: whoever may edit the post may read them; nobody deletes one. */
export function revisionRoutes(
  store: ContentStore,
  type: 'post' | 'page' | 'wp_block' | 'wp_navigation',
): FastifyPluginAsync {
  const rest = restBase(type);
  const revisions = new RevisionStore(store.db);
  const contentRenderer = async (rows: RevisionRow[]) =>
    type === 'wp_navigation'
      ? navigationRenderer(
          store,
          rows.map((r) => r.content),
        )
      : undefined;
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const base = `/wp-json/wp/v2/${rest}/:parent(^\\d+$)/revisions`;
    const tags = [rest];

    const parentOf = async (request: FastifyRequest, id: number, action: 'edit' | 'delete' = 'edit') => {
      const post = validId(id) ? await store.findPost(id) : undefined;
      if (!post || post.type !== type)
        throw restError(404, 'rest_post_invalid_parent', 'Invalid post parent ID.');
      const user = caller(request);
      if (!canOnPost(user, action, post))
        throw refused(
          !!user,
          action === 'edit' ? 'rest_cannot_read' : 'rest_cannot_delete',
          action === 'edit'
            ? 'Sorry, you are not allowed to view revisions of this post.'
            : 'Sorry, you are not allowed to delete revisions of this post.',
        );
      return post as PostRow;
    };

    app.get(
      base,
      {
        schema: {
          tags,
          summary: 'List the revisions of a post, newest first',
          params: Params,
          querystring: ListQuery,
          response: responses(Type.Array(Revision)),
        },
      },
      async (request, reply) => {
        const parent = await parentOf(request, request.params.parent);
        const q = request.query;
        checkOrderby(q);
        // As core's revisions controller: no per_page is every revision (and then offset and page move nothing).
        const perPage = q.per_page;
        const page = q.page ?? 1;
        const offset = q.offset ?? (perPage ? (page - 1) * perPage : 0);
        const { rows: pageRows, total } = await revisions.query(parent.id, {
          search: q.search,
          include: q.include,
          exclude: q.exclude,
          orderby: q.orderby ?? 'date',
          order: q.order ?? 'desc',
          limit: perPage,
          offset,
        });
        const totalPages = perPage ? Math.ceil(total / perPage) : total > 0 ? 1 : 0;
        if (total > 0 && (q.offset ?? 0) >= total)
          throw restError(
            400,
            'rest_revision_invalid_offset_number',
            'The offset number requested is larger than or equal to the number of available revisions.',
          );
        // An offset (other than 0) takes the place of page, so then no page is out of range.
        if (total > 0 && !q.offset && page > totalPages)
          throw restError(
            400,
            'rest_revision_invalid_page_number',
            'The page number requested is larger than the number of pages available.',
          );
        paginate(request, reply, total, page, totalPages);
        const fields = fieldList(q._fields);
        sendFields(reply, fields);
        const site = siteOf(request);
        const theContent = await contentRenderer(pageRows);
        return pageRows.map((rev) => {
          const body = renderRevision(rev, site, rest, q.context ?? 'view', theContent);
          return pickItemFields(request, body, fields, true);
        });
      },
    );

    app.get(
      `${base}/:id(^\\d+$)`,
      {
        schema: {
          tags,
          summary: 'Read one revision',
          params: ItemParams,
          querystring: Type.Object({
            context: Type.Optional(ContextEnum),
            _fields: Type.Optional(Type.String()),
          }),
          response: responses(Revision),
        },
      },
      async (request, reply) => {
        const parent = await parentOf(request, request.params.parent);
        const rev = validId(request.params.id)
          ? await revisions.find(parent.id, request.params.id)
          : undefined;
        if (!rev) throw restError(404, 'rest_post_invalid_id', 'Invalid revision ID.');
        const fields = fieldList(request.query._fields);
        sendFields(reply, fields);
        const body = renderRevision(
          rev,
          siteOf(request),
          rest,
          request.query.context ?? 'view',
          await contentRenderer([rev]),
        );
        // The revisions controller adds its parent link whatever `_fields` says (it has no _links check).
        return fields?.length ? { ...pickItemFields(request, body, fields), _links: body._links } : body;
      },
    );

    app.delete(
      `${base}/:id(^\\d+$)`,
      {
        schema: {
          tags,
          summary: 'Delete a revision: always refused, as WordPress 6.1 (revisions go with their post)',
          params: ItemParams,
          querystring: ForceQuery,
          body: Type.Optional(ForceQuery),
        },
      },
      async (request) => {
        const parent = await parentOf(request, request.params.parent, 'delete');
        const rev = validId(request.params.id)
          ? await revisions.find(parent.id, request.params.id)
          : undefined;
        if (!rev) throw restError(404, 'rest_post_invalid_id', 'Invalid revision ID.');
        await parentOf(request, parent.id);
        // map_meta_cap answers `delete_post` on a revision with do_not_allow: WordPress 6.1's route never deletes
        // one, whoever asks and whatever `force` says (revisions go with their post).
        throw refused(
          !!caller(request),
          'rest_cannot_delete',
          'Sorry, you are not allowed to delete this revision.',
        );
      },
    );
  };
}
