import { Type } from '@sinclair/typebox';
import { blockVersion } from '../../post-fields.js';
import type { PostKind } from '../../post-write.js';
import { type Context, wpDate } from '../../render.js';
import { stripBlockComments, texturize } from '../../render-text.js';
import { deletedSchema, PostSchema, postBaseFields } from '../../schemas.js';
import type { ContentStore, PostRow } from '../../store.js';
import { BlocksListQuery, BlockWriteBody } from '../blocks/index.js';

/**
 * `/wp/v2/navigation`: the block editor's navigation menus (`wp_navigation` posts), served by the posts' routes
 * (posts.ts) with this kind. Every primitive of the type is edit_theme_options (administrators); published ones
 * are readable by anyone.
 */
export const navigationKind: PostKind = { type: 'wp_navigation', rest: 'navigation', caps: 'navigations' };

const fields = PostSchema.properties;
/** wp_navigation supports title, editor and revisions: the posts' fields less author, excerpt, comments, terms. */
export const NavigationSchema = Type.Object({
  ...postBaseFields,
  title: fields.title,
  content: Type.Optional(fields.content),
  template: Type.Optional(fields.template),
  _links: fields._links,
  _embedded: fields._embedded,
});
export const DeletedNavigationSchema = deletedSchema(NavigationSchema);
export const NavigationListQuery = BlocksListQuery;
export const NavigationWriteBody = BlockWriteBody;

/** esc_url for an attribute: `&` as `&#038;`, quotes and angle brackets encoded, spaces dropped. */
const escUrl = (url: string) =>
  url
    .replace(/\s/g, '')
    .replace(/&(?!#?\w+;)/g, '&#038;')
    .replace(/"/g, '&#034;')
    .replace(/'/g, '&#039;')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E');
const escAttr = (text: string) =>
  text
    .replace(/&(?!#?\w+;)/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

interface LinkAttributes {
  label?: string;
  url?: string;
  id?: number;
  kind?: string;
  type?: string;
  opensInNewTab?: boolean;
  rel?: string;
  nofollow?: boolean;
  title?: string;
  description?: string;
}

/**
 * render_block_core_navigation_link for a link without a submenu, outside a navigation block (no colours, font
 * sizes or current item): a post or page link renders only while that post is published, and only with a label.
 */
function renderLink(a: LinkAttributes, published: (id: number) => boolean): string {
  const postType = a.kind === 'post-type' || a.type === 'post' || a.type === 'page';
  if (postType && typeof a.id === 'number' && !published(a.id)) return '';
  if (!a.label) return '';
  let html =
    '<li class=" wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content" ';
  if (a.url !== undefined) html += ` href="${escUrl(a.url)}"`;
  if (a.opensInNewTab === true) html += ' target="_blank"  ';
  if (a.rel !== undefined) html += ` rel="${escAttr(a.rel)}"`;
  else if (a.nofollow) html += ' rel="nofollow"';
  if (a.title !== undefined) html += ` title="${escAttr(a.title)}"`;
  html += `><span class="wp-block-navigation-item__label">${a.label}</span>`;
  if (a.description) html += `<span class="wp-block-navigation-item__description">${a.description}</span>`;
  return `${html}</a></li>`;
}

const selfClosingLink = /<!--\s+wp:navigation-link(?:\s+(\{[\s\S]*?\}))?\s+\/-->/g;

/** The ids of posts and pages the links name (the caller looks up which are published). */
export function linkedIds(content: string): number[] {
  const ids: number[] = [];
  for (const match of content.matchAll(selfClosingLink)) {
    const id = (JSON.parse(match[1] ?? '{}') as LinkAttributes).id;
    if (typeof id === 'number') ids.push(id);
  }
  return ids;
}

/** `content.rendered`: navigation links as core's server render, other markup as the_content leaves it. */
export function renderNavigationContent(content: string, published: (id: number) => boolean): string {
  const html = content.replace(selfClosingLink, (_, json: string | undefined) => {
    try {
      return renderLink(JSON.parse(json ?? '{}') as LinkAttributes, published);
    } catch {
      return '';
    }
  });
  return texturize(stripBlockComments(html));
}

/**
 * the_content for navigation menus (and their revisions and autosaves) over the given raw contents: the posts and
 * pages their links name are looked up once, so links render while those are published.
 */
export async function navigationRenderer(store: ContentStore, contents: string[]) {
  const ids = [...new Set(contents.flatMap(linkedIds))];
  const linked = await Promise.all(ids.map((id) => store.findPost(id)));
  const published = new Set(linked.filter((p) => p?.status === 'publish').map((p) => p?.id));
  return (content: string) => renderNavigationContent(content, (id) => published.has(id));
}

/** A navigation menu as the posts controller answers for wp_navigation, from renderPost's output. */
export function renderNavigation(
  post: PostRow,
  context: Context,
  rendered: { guid?: unknown; link: string; title: unknown; _links: Record<string, unknown> },
  contentHtml: string,
) {
  const { author: _, replies: __, curies, ...own } = rendered._links;
  const _links = { ...own, curies };
  const edit = context === 'edit';
  if (context === 'embed')
    return {
      id: post.id,
      date: wpDate(post.date),
      slug: post.slug,
      type: post.type,
      link: rendered.link,
      title: rendered.title,
      _links,
    };
  return {
    id: post.id,
    date: wpDate(post.date),
    date_gmt: wpDate(post.date),
    guid: rendered.guid,
    modified: wpDate(post.modified),
    modified_gmt: wpDate(post.modified),
    ...(edit ? { password: post.password } : {}),
    slug: post.slug,
    status: post.status,
    type: post.type,
    link: rendered.link,
    title: rendered.title,
    content: {
      ...(edit ? { raw: post.content } : {}),
      rendered: contentHtml,
      protected: post.password !== '',
      ...(edit ? { block_version: blockVersion(post.content) } : {}),
    },
    template: post.template,
    _links,
  };
}
