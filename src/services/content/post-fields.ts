import { can } from './capabilities.js';
import { hasBlocks } from './render-text.js';
import type { Site } from './site.js';
import type { PostRow, UserRow } from './store.js';

/** The capability family of a post type (`edit_posts`, `edit_pages`; attachments use the posts' ones). */
const capsOf = (post: PostRow) =>
  post.type === 'wp_navigation'
    ? 'navigations'
    : post.type === 'page'
      ? 'pages'
      : post.type === 'wp_block'
        ? 'blocks'
        : 'posts';

/** `?p=7`, `?page_id=31`: the plain link of a post WordPress does not give a pretty one. */
const plainLink = (post: PostRow, site: Site) =>
  `${site.url}/?${post.type === 'page' ? 'page_id' : 'p'}=${post.id}`;

/**
 * `/about/team/` for a page under `about`: a page's permalink carries its ancestors' slugs (get_page_uri).
 * `post.path` is filled by the store for pages with a parent.
 */
const uriOf = (post: PostRow, slug: string) => (post.path ? `${post.path}/${slug}` : slug);

/**
 * get_permalink: published posts, and private ones (only those who may read them ever see one), have a pretty
 * link; drafts, pending, scheduled and trashed ones the plain `?p=` form.
 */
export function permalink(post: PostRow, site: Site): string {
  const pretty = (post.status === 'publish' || post.status === 'private') && post.slug !== '';
  return pretty ? `${site.url}/${uriOf(post, post.slug)}/` : plainLink(post, site);
}

/**
 * get_attachment_link: an attachment is shown under its parent's permalink (`/parent/attachment/`; a numeric slug
 * gets an `attachment/` marker), at `/slug/` when unattached, and at `?attachment_id=` when its status (the
 * parent's, for an attached one) is not public or the parent's own link is a plain one.
 */
export function attachmentLink(post: PostRow, parent: PostRow | undefined, site: Site): string {
  const plain = `${site.url}/?attachment_id=${post.id}`;
  if (post.parent && (!parent || parent.id === post.id)) return plain;
  const status =
    post.status !== 'inherit' || !parent
      ? post.status === 'inherit'
        ? 'publish'
        : post.status
      : parent.status === 'trash'
        ? (parent.trashed_from ?? 'draft')
        : parent.status;
  if (status !== 'publish' && status !== 'private') return plain;
  if (!parent) return post.slug ? `${site.url}/${post.slug}/` : plain;
  const parentLink = permalink(parent, site);
  if (parentLink.includes('?')) return plain;
  const name = /^\d+$/.test(post.slug) ? `attachment/${post.slug}` : post.slug;
  return `${parentLink}${name}/`;
}

/**
 * get_the_title as the REST API calls it: a private post's title starts with `Private: `; a password-protected
 * one keeps its title (the API's `protected_title_format` is `%s`), and then no `Private: ` either, as core's
 * elseif does.
 */
export const displayedTitle = (post: PostRow) =>
  post.password === '' && post.status === 'private' ? `Private: ${post.title}` : post.title;

/**
 * Edit context's `permalink_template` and `generated_slug` (get_sample_permalink): drafts, pending and scheduled
 * posts are shown as if published; trashed ones keep their plain link. `sample` is the slug the title gives,
 * made unique by the caller.
 */
export function samplePermalink(post: PostRow, site: Site, sample: string) {
  const placeholder = post.type === 'page' ? '%pagename%' : '%postname%';
  const template =
    post.status === 'trash' ? plainLink(post, site) : `${site.url}/${uriOf(post, placeholder)}/`;
  return { permalink_template: template, generated_slug: sample };
}

/** `content.block_version`: 1 when the content has block delimiters (block_version). */
export const blockVersion = (content: string) => (hasBlocks(content) ? 1 : 0);

/**
 * The `wp:action-*` links of edit context: what the caller may do when editing this post (core's
 * get_available_actions), so an editor UI can show or hide its controls.
 */
export function actionRels(post: PostRow, user: UserRow | undefined): string[] {
  if (!user) return [];
  const caps = capsOf(post);
  const rels: string[] = [];
  if (post.type !== 'attachment' && can(user, `publish_${caps}`)) rels.push('publish');
  if (can(user, 'unfiltered_html')) rels.push('unfiltered-html');
  if (post.type === 'post' && can(user, 'edit_others_posts') && can(user, 'publish_posts'))
    rels.push('sticky');
  // Only types that support an author (not wp_block).
  if (post.type !== 'wp_block' && post.type !== 'wp_navigation' && can(user, `edit_others_${caps}`))
    rels.push('assign-author');
  if (post.type === 'post') {
    // Categories are created with manage_categories (hierarchical), tags with assign_terms; both assigned with
    // edit_posts.
    if (can(user, 'manage_categories')) rels.push('create-categories');
    if (can(user, 'edit_posts')) rels.push('assign-categories', 'create-tags', 'assign-tags');
  }
  return rels.map((rel) => `wp:action-${rel}`);
}

/**
 * An attachment's edit context fields and links, added to what media-render made: its sample permalink (under
 * its published parent, or the plain `?attachment_id=` form), the slug its title gives, and the caller's
 * `wp:action-*` links. Core lists `curies` only when some link is a `wp:` one.
 */
export function withAttachmentLinks(
  body: Record<string, unknown>,
  post: PostRow,
  site: Site,
  edit?: { viewer?: UserRow; parent?: PostRow; sample: string },
): Record<string, unknown> {
  const { _links, ...data } = body as { _links: Record<string, unknown> } & Record<string, unknown>;
  const links = { ..._links };
  const { curies } = links;
  delete links.curies;
  if (edit) {
    const parentLink = edit.parent ? permalink(edit.parent, site) : '';
    data.permalink_template =
      parentLink && !parentLink.includes('?')
        ? `${parentLink}%postname%/`
        : `${site.url}/?attachment_id=${post.id}`;
    data.generated_slug = edit.sample;
    for (const rel of actionRels(post, edit.viewer))
      links[rel] = [{ href: `${site.api}/wp/v2/media/${post.id}` }];
  }
  if (Object.keys(links).some((rel) => rel.startsWith('wp:'))) links.curies = curies;
  return { ...data, _links: links };
}
