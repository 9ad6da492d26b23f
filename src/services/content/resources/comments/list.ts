import { can } from '../../capabilities.js';
import { dateParam } from '../../post-dates.js';
import type { PostRow, UserRow } from '../../store.js';
import { canReadComment } from './access.js';
import { type CommentListQuery, statusNames } from './schemas.js';
import type { CommentFilter, CommentRow, CommentStatus } from './store.js';

type ListQuery = typeof CommentListQuery.static;

/** WP_Comment_Query's arguments from the collection's parameters (10 a page, approved comments by default). */
export function listFilter(q: ListQuery, me: UserRow | undefined): CommentFilter {
  const statusName = q.status ?? 'approve';
  const status = statusName === 'all' ? undefined : statusNames[statusName];
  const statuses: CommentStatus[] = status ? [status] : statusName === 'all' ? ['approved', 'hold'] : [];
  const perPage = q.per_page ?? 10;
  return {
    statuses,
    posts: q.post,
    parents: q.parent,
    parentExclude: q.parent_exclude,
    authors: q.author,
    authorExclude: q.author_exclude,
    authorEmail: q.author_email,
    include: q.include,
    exclude: q.exclude,
    search: q.search,
    before: dateParam('before', q.before),
    after: dateParam('after', q.after),
    orderby: q.orderby === 'id' || q.orderby === 'post' || q.orderby === 'parent' ? q.orderby : 'date',
    order: q.order ?? 'desc',
    includeOrder: q.orderby === 'include' ? q.include : undefined,
    type: q.type,
    // Decided in SQL, so X-WP-Total counts only what the caller may read (see docs/content.md).
    visibleTo: can(me, 'moderate_comments') ? undefined : (me?.id ?? 'anonymous'),
    limit: perPage,
    offset: q.offset ?? ((q.page ?? 1) - 1) * perPage,
  };
}

/**
 * As core, comments of password-protected posts the caller has not opened are left out of the page (the totals
 * still count them).
 */
export async function openedComments(
  rows: CommentRow[],
  q: ListQuery,
  me: UserRow | undefined,
  findPost: (id: number) => Promise<PostRow | undefined>,
) {
  const access = { context: q.context ?? 'view', password: q.password, single: q.post?.length === 1 };
  const posts = new Map<number, PostRow | undefined>();
  for (const id of new Set(rows.map((c) => c.post))) posts.set(id, await findPost(id));
  return rows.filter((c) => {
    const post = posts.get(c.post);
    return !post?.password || canReadComment(me, c, post, access);
  });
}
