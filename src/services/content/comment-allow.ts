import { can } from './capabilities.js';
import { canEditComment, canReadComment, commentPostReadable } from './comment-access.js';
import { validId } from './http.js';
import type { ContentStore, UserRow } from './store.js';
import { CommentStore } from './store-comments.js';

/**
 * The parameters core's comment checks read (`$request[...]`): the JSON body over the query string, and on a GET
 * the collection's defaults (`status=approve`, `type=comment`), which the write routes do not have.
 */
export function commentParams(method: string, query: Record<string, unknown>, body: unknown) {
  if (method === 'GET' || method === 'HEAD') return { status: 'approve', type: 'comment', ...query };
  return body && typeof body === 'object' && !Array.isArray(body) ? { ...query, ...body } : query;
}

const given = (value: unknown) =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && !value.length);

/** PHP's `(int)` of a parameter: a list (a GET's `post=`) is 1 when it has any item. */
const phpInt = (value: unknown) => (Array.isArray(value) ? (value.length ? 1 : 0) : Number(value) || 0);

/** `/wp/v2/comments`: get_items_permissions_check and create_item_permissions_check on this request's parameters. */
export async function commentsAllowed(
  store: ContentStore,
  me: UserRow | undefined,
  context: string,
  params: Record<string, unknown>,
) {
  const moderator = can(me, 'moderate_comments');
  const single = !Array.isArray(params.post) || params.post.length === 1;
  const access = { context, password: params.password as string | undefined, single };
  const readable = async () => {
    for (const id of Array.isArray(params.post) ? params.post : given(params.post) ? [params.post] : []) {
      const post = Number(id) ? await store.findPost(Number(id)) : undefined;
      if (post && !commentPostReadable(me, post, access)) return false;
      if (Number(id) === 0 && !moderator) return false;
    }
    if (context === 'edit' && !moderator) return false;
    if (can(me, 'edit_posts')) return true;
    const forbidden = ['author', 'author_exclude', 'author_email'].some((p) => given(params[p]));
    return !forbidden && params.status === 'approve' && params.type === 'comment';
  };
  const creatable = async () => {
    // Anonymous comments are off, as core's default (rest_allow_anonymous_comments).
    if (!me) return false;
    const author = Array.isArray(params.author) ? Number.NaN : Number(params.author);
    if (given(params.author) && author !== me.id && !moderator) return false;
    if ((given(params.author_ip) || given(params.status)) && !moderator) return false;
    const id = phpInt(params.post);
    const post = id ? await store.findPost(id) : undefined;
    if (!post || post.type === 'revision' || post.status === 'draft' || post.status === 'trash') return false;
    // A create names one post, so its password counts (check_read_post_permission).
    return commentPostReadable(me, post, { ...access, single: true }) && post.comment_status === 'open';
  };
  const methods: string[] = [];
  if (await readable()) methods.push('GET');
  if (await creatable()) methods.push('POST');
  return methods;
}

/** `/wp/v2/comments/<id>`: reading as get_item_permissions_check, every write as check_edit_permission. */
export async function commentAllowed(
  store: ContentStore,
  me: UserRow | undefined,
  id: number,
  context: string,
  params: Record<string, unknown>,
) {
  const comment = validId(id) ? await new CommentStore(store.db).find(id) : undefined;
  if (!comment) return undefined;
  const post = await store.findPost(comment.post);
  const access = { context, password: params.password as string | undefined, single: true };
  const readable =
    (context !== 'edit' || can(me, 'moderate_comments')) &&
    canReadComment(me, comment, post, access) &&
    (!post || commentPostReadable(me, post, access));
  const editor = canEditComment(me, post);
  return (method: string) => (method === 'GET' ? readable : editor);
}
