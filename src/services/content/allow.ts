import { can, canOnPost } from './capabilities.js';
import type { RouteSpec } from './discovery.js';
import { validId } from './http.js';
import type { ContentStore, PostRow, UserRow } from './store.js';
import { CommentStore } from './store-comments.js';

export interface Matched {
  spec: RouteSpec;
  params: Record<string, string>;
}

const writes = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** One post of the given type, or undefined (an unknown id or another type: the route 404s, no Allow). */
async function postOf(store: ContentStore, id: number, types: string[]): Promise<PostRow | undefined> {
  const post = validId(id) ? await store.findPost(id) : undefined;
  return post && types.includes(post.type) ? post : undefined;
}

const typeOfRoute = (path: string) =>
  path.startsWith('/wp/v2/pages') ? 'page' : path.startsWith('/wp/v2/media') ? 'attachment' : 'post';

/**
 * `rest_send_allow_header`: the route's methods whose permission checks pass for this caller. Routes of other
 * areas that do not say otherwise allow GET to anyone and writes to whoever may edit posts.
 */
export async function allowedMethods(
  store: ContentStore,
  { spec, params }: Matched,
  me: UserRow | undefined,
) {
  const methods = [...new Set(spec.endpoints.flatMap((e) => e.methods))];
  const id = Number(params.id);
  const self = params.user_id === 'me' ? !!me : me !== undefined && Number(params.user_id) === me.id;
  let allowed: (method: string) => boolean;
  switch (spec.path) {
    case '/wp/v2/posts':
    case '/wp/v2/tags':
      allowed = (m) => m === 'GET' || can(me, 'edit_posts');
      break;
    case '/wp/v2/posts/(?P<id>[\\d]+)':
    case '/wp/v2/pages/(?P<id>[\\d]+)':
    case '/wp/v2/media/(?P<id>[\\d]+)': {
      const post = await postOf(store, id, [typeOfRoute(spec.path)]);
      if (!post) return [];
      allowed = (m) => m === 'GET' || canOnPost(me, m === 'DELETE' ? 'delete' : 'edit', post);
      break;
    }
    case '/wp/v2/pages':
      allowed = (m) => m === 'GET' || can(me, 'edit_pages');
      break;
    case '/wp/v2/media':
      allowed = (m) => m === 'GET' || can(me, 'upload_files');
      break;
    case '/wp/v2/comments':
      // Anonymous comments are off, as core's default (rest_allow_anonymous_comments).
      allowed = (m) => m === 'GET' || !!me;
      break;
    case '/wp/v2/comments/(?P<id>[\\d]+)': {
      const comment = validId(id) ? await new CommentStore(store.db).find(id) : undefined;
      if (!comment) return [];
      const post = await store.findPost(comment.post);
      // check_edit_permission: moderators, and whoever may edit the comment's post.
      const editor = can(me, 'moderate_comments') || (post !== undefined && canOnPost(me, 'edit', post));
      allowed = (m) => m === 'GET' || editor;
      break;
    }
    case '/wp/v2/posts/(?P<parent>[\\d]+)/revisions':
    case '/wp/v2/pages/(?P<parent>[\\d]+)/revisions':
    case '/wp/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)':
    case '/wp/v2/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)': {
      const parent = await postOf(store, Number(params.parent), [typeOfRoute(spec.path)]);
      if (!parent) return [];
      allowed = (m) => canOnPost(me, m === 'DELETE' ? 'delete' : 'edit', parent);
      break;
    }
    case '/wp/v2/users':
      allowed = (m) => m === 'GET' || can(me, 'create_users');
      break;
    case '/wp/v2/users/me':
      allowed = (m) => m === 'GET' || (m === 'DELETE' ? can(me, 'delete_users') : !!me);
      break;
    case '/wp/v2/users/(?P<id>[\\d]+)':
      allowed = (m) =>
        m === 'GET' || (m === 'DELETE' ? can(me, 'delete_users') : me?.id === id || can(me, 'edit_users'));
      break;
    case '/wp/v2/users/(?P<id>[\\d]+)/restore':
      allowed = () => can(me, 'delete_users');
      break;
    case '/wp/v2/categories':
      allowed = (m) => m === 'GET' || can(me, 'manage_categories');
      break;
    case '/wp/v2/categories/(?P<id>[\\d]+)':
    case '/wp/v2/tags/(?P<id>[\\d]+)':
      allowed = (m) =>
        m === 'GET' ||
        (can(me, 'manage_categories') &&
          !(m === 'DELETE' && spec.path.startsWith('/wp/v2/categories') && id === 1));
      break;
    case '/wp/v2/settings':
      allowed = () => can(me, 'manage_options');
      break;
    default:
      if (spec.path.includes('application-passwords'))
        allowed = () => self || (!spec.path.endsWith('introspect') && can(me, 'edit_users'));
      else allowed = (m) => !writes.includes(m) || can(me, 'edit_posts');
  }
  return methods.filter(allowed);
}
