import type { PostRow, Role, UserRow } from './store.js';

/** Core WordPress 6.1's primitive capabilities of each role (populate_roles in wp-admin/includes/schema.php). */
const contributor = ['read', 'level_0', 'level_1', 'edit_posts', 'delete_posts'];
const author = [
  ...contributor,
  'level_2',
  'upload_files',
  'edit_published_posts',
  'publish_posts',
  'delete_published_posts',
];
const editor = [
  ...author,
  'level_3',
  'level_4',
  'level_5',
  'level_6',
  'level_7',
  'moderate_comments',
  'manage_categories',
  'manage_links',
  'unfiltered_html',
  'edit_others_posts',
  'edit_private_posts',
  'read_private_posts',
  'delete_others_posts',
  'delete_private_posts',
  'edit_pages',
  'edit_others_pages',
  'edit_published_pages',
  'edit_private_pages',
  'read_private_pages',
  'publish_pages',
  'delete_pages',
  'delete_others_pages',
  'delete_published_pages',
  'delete_private_pages',
];
// Core's theme, plugin, file and update capabilities too: no route here checks them, but clients read them.
const administrator = [
  ...editor,
  'level_8',
  'level_9',
  'level_10',
  'edit_themes',
  'edit_plugins',
  'edit_files',
  'import',
  'export',
  'unfiltered_upload',
  'edit_dashboard',
  'update_plugins',
  'delete_plugins',
  'install_plugins',
  'update_themes',
  'install_themes',
  'update_core',
  'delete_themes',
  'switch_themes',
  'edit_theme_options',
  'activate_plugins',
  'manage_options',
  'list_users',
  'create_users',
  'edit_users',
  'delete_users',
  'promote_users',
  'remove_users',
];

export const roleCapabilities: Record<Role, readonly string[]> = {
  administrator,
  editor,
  author,
  contributor,
  subscriber: ['read', 'level_0'],
};

const has = (user: UserRow | undefined, capability: string) =>
  user !== undefined && roleCapabilities[user.role].includes(capability);

/**
 * A capability asked directly (current_user_can): map_meta_cap reads the reusable blocks' `*_blocks` as the
 * `*_posts` of the same name, so an author may `publish_blocks`.
 */
export function can(user: UserRow | undefined, capability: string): boolean {
  // wp_navigation's primitives (kind caps `navigations`) are all edit_theme_options.
  if (capability.endsWith('_navigations')) return has(user, 'edit_theme_options');
  return has(user, capability.endsWith('_blocks') ? capability.replace(/_blocks$/, '_posts') : capability);
}

/**
 * The primitive a post's meta capability resolves to, per type: wp_block registers some of its names as the
 * posts' own and leaves `delete_blocks`, `edit_private_blocks`, `delete_private_blocks` and
 * `read_private_blocks`, which map_meta_cap returns unmapped and no role holds: so an author may trash their
 * published block but not their draft.
 */
const blockPrimitives = new Set([
  'edit_posts',
  'edit_published_posts',
  'delete_published_posts',
  'edit_others_posts',
  'delete_others_posts',
]);
const primitiveOf = (post: PostRow, name: string) =>
  post.type === 'wp_navigation'
    ? 'edit_theme_options'
    : post.type === 'wp_block' && !blockPrimitives.has(name)
      ? name.replace(/_posts$/, '_blocks')
      : name;

/** WordPress's `edit_post` / `delete_post` meta capabilities mapped onto the primitives above. */
export function canOnPost(user: UserRow | undefined, action: 'edit' | 'delete', post: PostRow): boolean {
  if (!user) return false;
  // Attachments and revisions are checked as their own kind of post ("post" capabilities, or the parent's).
  const kind = post.type === 'page' ? 'pages' : 'posts';
  const status = post.status === 'trash' ? (post.trashed_from ?? 'draft') : post.status;
  const needed: string[] = [];
  if (post.author === user.id) {
    // As map_meta_cap: one's own private post needs only `edit_posts` (an author edits theirs).
    needed.push(
      status === 'publish' || status === 'future' ? `${action}_published_${kind}` : `${action}_${kind}`,
    );
  } else {
    needed.push(`${action}_others_${kind}`);
    if (status === 'publish' || status === 'future') needed.push(`${action}_published_${kind}`);
    if (status === 'private') needed.push(`${action}_private_${kind}`);
  }
  return needed.every((c) => has(user, primitiveOf(post, c)));
}

/**
 * The posts controller's edit-context rule for one item (check_update_permission, `edit_post`): the single route
 * refuses a post that fails it, and a list leaves it out, so an edit-context list never shows what its items'
 * routes would refuse (passwords, raw content). Other contexts are canRead's.
 */
export const editContextAllows = (user: UserRow | undefined, post: PostRow, context: string | undefined) =>
  context !== 'edit' || canOnPost(user, 'edit', post);

/** Who may see a post: published ones are public, private ones need read_private_posts, the rest need edit rights. */
export function canRead(user: UserRow | undefined, post: PostRow): boolean {
  // WP_REST_Blocks_Controller asks read_post first: wp_block's `read` is edit_posts (raw blocks are for editors).
  if (post.type === 'wp_block' && !canReadBlock(user, post)) return false;
  if (post.status === 'publish') return true;
  if (post.status === 'private')
    return (
      can(
        user,
        post.type === 'page'
          ? 'read_private_pages'
          : post.type === 'wp_navigation'
            ? 'edit_theme_options'
            : 'read_private_posts',
      ) || post.author === user?.id
    );
  return canOnPost(user, 'edit', post);
}

/** map_meta_cap's read_post for a reusable block: published or one's own needs edit_posts, else edit_post. */
function canReadBlock(user: UserRow | undefined, post: PostRow): boolean {
  if (post.status === 'publish' || post.author === user?.id) return has(user, 'edit_posts');
  if (post.status === 'private') return false;
  return canOnPost(user, 'edit', post);
}
