import { can, canOnPost, canRead } from './capabilities.js';
import { validId } from './http.js';
import { allowedByChecks, type Check, resourceRoute } from './resources/contract.js';
import { resources } from './resources/index.js';
import type { RouteSpec } from './route-spec.js';
import { taxonomyReadable } from './site-routes.js';
import type { ContentStore, PostRow, UserRow } from './store.js';

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

/** Who may read a post: attachments are read with their parent (or by anyone without one), as media.ts. */
async function readableAs(store: ContentStore, post: PostRow, me: UserRow | undefined) {
  if (post.type !== 'attachment' || post.status !== 'inherit') return canRead(me, post);
  const parent = post.parent ? await store.findPost(post.parent) : undefined;
  return !parent || canRead(me, parent);
}

const typeOfRoute = (path: string) =>
  path.startsWith('/wp/v2/pages')
    ? 'page'
    : path.startsWith('/wp/v2/media')
      ? 'attachment'
      : path.startsWith('/wp/v2/blocks')
        ? 'wp_block'
        : path.startsWith('/wp/v2/navigation')
          ? 'wp_navigation'
          : 'post';

/**
 * `rest_send_allow_header`: the route's methods whose permission checks pass for this caller and this request.
 * Core runs each check with the request as it ends: `context` is `edit` after a successful write (the handler
 * sets it), so a caller who may write but not read in edit context loses GET; after a delete the item is gone,
 * and so are its methods. Routes of other areas that do not say otherwise allow GET to anyone and writes to
 * whoever may edit posts. `sent` is the request's method and body, which the contract's checks read as core's
 * read `$request` (an OPTIONS request or a batch's refusal has neither).
 */
export async function allowedMethods(
  store: ContentStore,
  { spec, params }: Matched,
  me: UserRow | undefined,
  context = 'view',
  query: Record<string, unknown> = {},
  sent: Pick<Check, 'method' | 'body'> = { method: 'OPTIONS', body: {} },
) {
  // Resources on the contract answer with the very checks their routes run.
  const route = resourceRoute(resources, spec.path);
  if (route) return allowedByChecks(route, { store, me, params, query, context, ...sent });
  const methods = [...new Set(spec.endpoints.flatMap((e) => e.methods))];
  const id = Number(params.id);
  const edit = context === 'edit';
  /** A collection's GET: anyone, but edit context needs the capability. */
  const listable = (capability: string) => !edit || can(me, capability);
  let allowed: (method: string) => boolean;
  switch (spec.path) {
    case '/wp/v2/posts':
      allowed = (m) => (m === 'GET' ? listable('edit_posts') : can(me, 'edit_posts'));
      break;
    case '/wp/v2/blocks':
      // wp_block's create_posts is publish_posts.
      allowed = (m) => (m === 'GET' ? listable('edit_posts') : can(me, 'publish_posts'));
      break;
    case '/wp/v2/navigation':
      allowed = (m) => (m === 'GET' ? listable('edit_theme_options') : can(me, 'edit_theme_options'));
      break;
    case '/wp/v2/blocks/(?P<id>[\\d]+)':
    case '/wp/v2/navigation/(?P<id>[\\d]+)':
    case '/wp/v2/posts/(?P<id>[\\d]+)':
    case '/wp/v2/pages/(?P<id>[\\d]+)':
    case '/wp/v2/media/(?P<id>[\\d]+)': {
      const post = await postOf(store, id, [typeOfRoute(spec.path)]);
      if (!post) return [];
      const editor = canOnPost(me, 'edit', post);
      // A wrong password (the query's, or a write's body's) fails core's read check too, whoever asks.
      const password = typeof query.password === 'string' ? query.password : '';
      const readable =
        (await readableAs(store, post, me)) &&
        (!edit || editor) &&
        (password === '' || password === post.password);
      allowed = (m) => (m === 'GET' ? readable : canOnPost(me, m === 'DELETE' ? 'delete' : 'edit', post));
      break;
    }
    case '/wp/v2/pages':
      allowed = (m) => (m === 'GET' ? listable('edit_pages') : can(me, 'edit_pages'));
      break;
    case '/wp/v2/media':
      allowed = (m) => (m === 'GET' ? listable('edit_posts') : can(me, 'upload_files'));
      break;
    case '/wp/v2/posts/(?P<parent>[\\d]+)/revisions':
    case '/wp/v2/pages/(?P<parent>[\\d]+)/revisions':
    case '/wp/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)':
    case '/wp/v2/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)':
    case '/wp/v2/blocks/(?P<parent>[\\d]+)/revisions':
    case '/wp/v2/blocks/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)':
    case '/wp/v2/navigation/(?P<parent>[\\d]+)/revisions':
    case '/wp/v2/navigation/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)': {
      const parent = await postOf(store, Number(params.parent), [typeOfRoute(spec.path)]);
      if (!parent) return [];
      // A revision is never deleted (map_meta_cap: do_not_allow), so DELETE is never allowed.
      allowed = (m) => m !== 'DELETE' && canOnPost(me, 'edit', parent);
      break;
    }
    case '/wp/v2/statuses/(?P<status>[\\w-]+)':
      // Only `publish` is public; the others are described to those who may write.
      allowed = () => params.status === 'publish' || can(me, 'edit_posts') || can(me, 'edit_pages');
      break;
    case '/wp/v2/taxonomies/(?P<taxonomy>[\\w-]+)':
      allowed = () => taxonomyReadable(me, String(params.taxonomy).toLowerCase(), context);
      break;
    case '/wp/v2/settings':
      allowed = () => can(me, 'manage_options');
      break;
    default:
      allowed = (m) => !writes.includes(m) || can(me, 'edit_posts');
  }
  return methods.filter(allowed);
}
