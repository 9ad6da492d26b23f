import type { FastifyRequest } from 'fastify';
import { can } from './capabilities.js';
import { refused, restError } from './errors.js';
import { dateParam, invalidParam } from './post-dates.js';
import type { PostKind } from './post-write.js';
import { isTrue, postStatuses } from './schemas.js';
import type { PostFilter, PostStatus, UserRow } from './store.js';

/** List parameters beyond the ones routes.ts splits on commas. */
const moreLists = ['categories_exclude', 'tags_exclude', 'parent', 'parent_exclude', 'post', 'post_exclude'];

export function splitListParams(request: FastifyRequest) {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  for (const name of moreLists) {
    const value = query[name];
    if (typeof value === 'string' && value.includes(',')) query[name] = value.split(',').filter(Boolean);
  }
}

/**
 * The list parameters a post type registers (core's get_collection_params), and the global `_`-parameters: core
 * never reads the others, so `/pages?categories=2` or `/posts?parent=1` lists as if they were absent.
 */
export function registeredParams(query: unknown, schema: { properties?: Record<string, unknown> }) {
  const names = new Set(Object.keys(schema.properties ?? {}));
  return Object.fromEntries(
    Object.entries((query ?? {}) as Record<string, never>).filter(
      ([name]) => names.has(name) || name.startsWith('_'),
    ),
  ) as Record<string, never>;
}

/**
 * get_items_permissions_check: an edit-context list of posts, pages or media needs the type's `edit_posts` (core's
 * message says "posts" for every type). Its items are then each checked with editContextAllows.
 */
export function checkListContext(user: UserRow | undefined, context: string | undefined, capability: string) {
  if (context === 'edit' && !can(user, capability))
    throw refused(
      !!user,
      'rest_forbidden_context',
      'Sorry, you are not allowed to edit posts in this post type.',
    );
}

/** The posts controller's checks of `orderby` before any query (posts, pages, media). */
export function checkOrderby(q: { orderby?: string; search?: string; include?: number[] }) {
  if (q.orderby === 'relevance' && !q.search)
    throw restError(
      400,
      'rest_no_search_term_defined',
      'You need to define a search term to order by relevance.',
    );
  if (q.orderby === 'include' && !q.include?.length)
    throw restError(
      400,
      'rest_orderby_include_missing_include',
      'You need to define an include parameter to order by include.',
    );
}

/** `orderby=include` / `include_slugs` as core's post__in / post_name__in orders (see PostFilter.listOrder). */
export function listOrder(orderby: string | undefined, include?: number[], slugs?: string[]) {
  if (orderby === 'include' && include?.length) return { ids: include };
  if (orderby === 'include_slugs') return { slugs: slugs ?? [] };
  return undefined;
}

/** WordPress's default page size once `page` is given without `per_page`. */
export const DEFAULT_PER_PAGE = 10;

/**
 * A list request as a store filter. Statuses the caller may not list are refused as core's sanitize callback
 * does: 400 rest_invalid_param whose detail is rest_forbidden_status.
 */
// biome-ignore lint/suspicious/noExplicitAny: the query is one of two validated schemas.
export function listFilter(kind: PostKind, q: Record<string, any>, user: UserRow | undefined): PostFilter {
  let statuses = (q.status ?? ['publish']) as (PostStatus | 'any')[];
  if (statuses.includes('any')) statuses = postStatuses.filter((s) => s !== 'trash');
  for (const status of statuses) {
    if (status === 'publish' || can(user, `edit_${kind.caps}`)) continue;
    if (status === 'private' && can(user, `read_private_${kind.caps}`)) continue;
    throw invalidParam('status', 'Status is forbidden.', 'rest_forbidden_status', {
      status: user ? 403 : 401,
    });
  }
  checkOrderby(q);
  // No per_page and no page: the whole list (the seed's rule); page alone pages by core's default of 10.
  const perPage: number | undefined = q.per_page ?? (q.page !== undefined ? DEFAULT_PER_PAGE : undefined);
  const page: number = q.page ?? 1;
  // The list orders (include, include_slugs) and relevance are PostFilter.listOrder / titleFirst, over the date.
  const orderby = ['include', 'relevance', 'include_slugs'].includes(q.orderby) ? 'date' : q.orderby;
  return {
    type: kind.type,
    statuses: statuses as PostStatus[],
    search: q.search,
    searchSkipsProtected: !user,
    authors: q.author,
    authorExclude: q.author_exclude,
    categories: q.categories,
    tags: q.tags,
    categoriesExclude: q.categories_exclude,
    tagsExclude: q.tags_exclude,
    taxRelation: q.tax_relation,
    include: q.include,
    exclude: q.exclude,
    slugs: q.slug,
    sticky: q.sticky === undefined ? undefined : isTrue(q.sticky),
    parents: q.parent,
    parentExclude: q.parent_exclude,
    menuOrder: q.menu_order,
    before: dateParam('before', q.before),
    after: dateParam('after', q.after),
    modifiedBefore: dateParam('modified_before', q.modified_before),
    modifiedAfter: dateParam('modified_after', q.modified_after),
    orderby: orderby ?? 'date',
    order: q.order ?? 'desc',
    listOrder: listOrder(q.orderby, q.include, q.slug),
    titleFirst: q.orderby === 'relevance',
    limit: perPage,
    offset: q.offset ?? (perPage ? (page - 1) * perPage : 0),
    visibleTo: user && !can(user, `edit_others_${kind.caps}`) ? user.id : undefined,
  };
}
