import { timingSafeEqual } from 'node:crypto';
import { can, canOnPost, canRead } from '../../capabilities.js';
import { refused, restError } from '../../errors.js';
import { validId } from '../../http.js';
import type { ContentStore, PostRow, UserRow } from '../../store.js';
import type { Check } from '../contract.js';
import { type CommentRow, CommentStore } from './store.js';

/** What a comment request carries that opens a password-protected post (core's can_access_password_content). */
export interface PostAccess {
  context: string;
  password?: string;
  /** One post was asked for (`post=<id>` with a single id, or a single comment): only then a password counts. */
  single: boolean;
}

const samePassword = (stored: string, given: string) => {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The comments controller's check_read_post_permission: a password-protected post is readable, for its comments,
 * by whoever may edit it, or when its password (or the edit context with the right to edit) comes with a request
 * for that one post; otherwise as the post itself.
 */
export function commentPostReadable(user: UserRow | undefined, post: PostRow, access: PostAccess): boolean {
  if (!post.password) return canRead(user, post);
  const opened =
    access.single &&
    ((access.context === 'edit' && canOnPost(user, 'edit', post)) ||
      (!!access.password && samePassword(post.password, access.password)));
  return opened ? canRead(user, post) : canOnPost(user, 'edit', post);
}

/** check_edit_permission: moderators, and whoever may edit the comment's post. */
export const canEditComment = (user: UserRow | undefined, post: PostRow | undefined) =>
  !!user && (can(user, 'moderate_comments') || (post !== undefined && canOnPost(user, 'edit', post)));

/** check_read_permission: approved comments of a readable post; otherwise one's own, or those one may edit. */
export function canReadComment(
  user: UserRow | undefined,
  comment: CommentRow,
  post: PostRow | undefined,
  access: PostAccess,
): boolean {
  if (post && commentPostReadable(user, post, access) && comment.status === 'approved') return true;
  if (!user) return false;
  if (comment.author === user.id) return true;
  return canEditComment(user, post);
}

// The endpoints' permission checks, as the comments controller's *_permissions_check: each route runs its own
// before its handler, and the Allow header runs every one of the route's with the same request.

/**
 * The parameters core's comment checks read (`$request[...]`): the body over the query string, and on a GET the
 * collection's defaults (`status=approve`, `type=comment`), which the write routes do not have.
 */
function commentParams({ method, query, body }: Check): Record<string, unknown> {
  if (method === 'GET' || method === 'HEAD') return { status: 'approve', type: 'comment', ...query };
  return { ...query, ...body };
}

/** PHP's `! empty()` of a parameter. */
const given = (value: unknown) =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && !value.length);
/** PHP's `isset()` of a parameter. */
const isset = (value: unknown) => value !== undefined && value !== null;
/** PHP's `(int)` of a parameter: a list (a GET's `post=`) is 1 when it has any item. */
const phpInt = (value: unknown) => (Array.isArray(value) ? (value.length ? 1 : 0) : Number(value) || 0);
const passwordOf = (params: Record<string, unknown>) =>
  typeof params.password === 'string' ? params.password : undefined;

/** check_read_post_permission for a list: an attachment as readable as its post, and public when unattached. */
async function listedPostReadable(
  store: ContentStore,
  me: UserRow | undefined,
  post: PostRow,
  access: PostAccess,
) {
  if (post.status !== 'inherit') return commentPostReadable(me, post, access);
  const parent = post.parent ? await store.findPost(post.parent) : undefined;
  return !parent || canRead(me, parent);
}

/** get_items_permissions_check (`GET /comments`). */
export async function checkList(check: Check) {
  const { store, me } = check;
  const params = commentParams(check);
  const moderator = can(me, 'moderate_comments');
  if (check.context === 'edit' && !moderator)
    throw refused(!!me, 'rest_forbidden_context', 'Sorry, you are not allowed to edit comments.');
  if (!can(me, 'edit_posts')) {
    const forbidden = ['author', 'author_exclude', 'author_email'].filter((name) => given(params[name]));
    if (params.status !== 'approve') forbidden.push('status');
    if (params.type !== 'comment') forbidden.push('type');
    if (forbidden.length)
      throw refused(!!me, 'rest_forbidden_param', `Query parameter not permitted: ${forbidden.join(', ')}`);
  }
  const posts = Array.isArray(params.post) ? params.post : given(params.post) ? [params.post] : [];
  const access = { context: check.context, password: passwordOf(params), single: posts.length === 1 };
  for (const id of posts.map(Number)) {
    const post = id ? await store.findPost(id) : undefined;
    if (post && !(await listedPostReadable(store, me, post, access)))
      throw refused(
        !!me,
        'rest_cannot_read_post',
        'Sorry, you are not allowed to read the post for this comment.',
      );
    if (id === 0 && !moderator)
      throw refused(!!me, 'rest_cannot_read', 'Sorry, you are not allowed to read comments without a post.');
  }
}

/** The post a new comment goes on, as checkCreate read it (`$request['post']`). */
export const commentPostId = (check: Check) => phpInt(commentParams(check).post);

const cannotCreate = (code: string, message: string) => restError(403, code, message);

/** create_item_permissions_check (`POST /comments`): anonymous comments are off, as core's default. */
export async function checkCreate(check: Check) {
  const { store, me } = check;
  if (!me) throw restError(401, 'rest_comment_login_required', 'Sorry, you must be logged in to comment.');
  const params = commentParams(check);
  const moderator = can(me, 'moderate_comments');
  const author = Array.isArray(params.author) ? Number.NaN : Number(params.author);
  if (isset(params.author) && author !== me.id && !moderator)
    throw cannotCreate(
      'rest_comment_invalid_author',
      "Sorry, you are not allowed to edit 'author' for comments.",
    );
  if (isset(params.author_ip) && !moderator)
    throw cannotCreate(
      'rest_comment_invalid_author_ip',
      'Sorry, you are not allowed to set author_ip for comments.',
    );
  if (isset(params.status) && !moderator)
    throw cannotCreate(
      'rest_comment_invalid_status',
      'Sorry, you are not allowed to set status for comments.',
    );
  const id = commentPostId(check);
  const post = id ? await store.findPost(id) : undefined;
  if (!post || post.type === 'revision')
    throw cannotCreate(
      'rest_comment_invalid_post_id',
      'Sorry, you are not allowed to create this comment without a post.',
    );
  if (post.status === 'draft')
    throw cannotCreate(
      'rest_comment_draft_post',
      'Sorry, you are not allowed to create a comment on this post.',
    );
  if (post.status === 'trash')
    throw cannotCreate(
      'rest_comment_trash_post',
      'Sorry, you are not allowed to create a comment on this post.',
    );
  // A create names one post, so its password (query or body) counts, unless the caller may edit the post.
  const context = typeof params.context === 'string' ? params.context : check.context;
  if (!commentPostReadable(me, post, { context, password: passwordOf(params), single: true }))
    throw cannotCreate(
      'rest_cannot_read_post',
      'Sorry, you are not allowed to read the post for this comment.',
    );
  if (post.comment_status !== 'open')
    throw cannotCreate('rest_comment_closed', 'Sorry, comments are closed for this item.');
}

/** The comment a route's `id` names, or 404 rest_comment_invalid_id. */
export async function findComment(check: Check): Promise<CommentRow> {
  const id = Number(check.params.id);
  const comment = validId(id) ? await new CommentStore(check.store.db).find(id) : undefined;
  if (!comment) throw restError(404, 'rest_comment_invalid_id', 'Invalid comment ID.');
  return comment;
}

/** get_item_permissions_check (`GET /comments/<id>`): edit context needs moderate_comments, as in core. */
export async function checkRead(check: Check) {
  const { me } = check;
  const comment = await findComment(check);
  const post = await check.store.findPost(comment.post);
  if (check.context === 'edit' && !can(me, 'moderate_comments'))
    throw refused(!!me, 'rest_forbidden_context', 'Sorry, you are not allowed to edit comments.');
  const access = { context: check.context, password: passwordOf(commentParams(check)), single: true };
  if (!canReadComment(me, comment, post, access))
    throw refused(!!me, 'rest_cannot_read', 'Sorry, you are not allowed to read this comment.');
  if (post && !commentPostReadable(me, post, access))
    throw refused(
      !!me,
      'rest_cannot_read_post',
      'Sorry, you are not allowed to read the post for this comment.',
    );
}

/** update_item_permissions_check and delete_item_permissions_check: check_edit_permission. */
export const checkEdit = (code: string, message: string) => async (check: Check) => {
  const comment = await findComment(check);
  if (!canEditComment(check.me, await check.store.findPost(comment.post)))
    throw refused(!!check.me, code, message);
};
