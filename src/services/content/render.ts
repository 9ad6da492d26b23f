import { createHash } from 'node:crypto';
import { roleCapabilities } from './capabilities.js';
import { languages } from './languages.js';
import { actionRels, blockVersion, displayedTitle, permalink, samplePermalink } from './post-fields.js';
import { hasBlocks, stripBlockComments, texturize } from './render-text.js';
import type { Site } from './site.js';
import type { PostRow, TermRow, UserRow } from './store.js';

export type Context = 'view' | 'edit' | 'embed';

/** WordPress shows dates without an offset; the site runs on UTC so `date` and `date_gmt` agree. */
export const wpDate = (date: Date) => date.toISOString().slice(0, 19);

const blockStart = /^\s*(<(p|div|h[1-6]|ul|ol|blockquote|pre|figure|table)[\s>]|<!-- wp:)/i;

/** A small wpautop: blank-line separated text becomes paragraphs, single newlines become line breaks. */
export function renderHtml(raw: string): string {
  if (raw.trim() === '') return '';
  if (blockStart.test(raw)) return raw;
  return raw
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${p.replace(/\n/g, '<br />\n')}</p>\n`)
    .join('');
}

/**
 * `text.replace(/<[^>]*>/g, replacement)` in one pass: each `<` up to the next `>` is replaced. The regular
 * expression rescans to the end from every `<` that has no `>` after it, quadratic on a long run of `<`.
 */
export function stripTags(text: string, replacement: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<', from);
    if (open === -1) break;
    const close = text.indexOf('>', open + 1);
    // No `>` after this `<`, so none after any later one either: the rest stays as it is.
    if (close === -1) break;
    out += text.slice(from, open) + replacement;
    from = close + 1;
  }
  return out + text.slice(from);
}

/** The_content's filters: block delimiters out (no wpautop for block content, as do_blocks), then texturize. */
const renderContent = (raw: string) => texturize(hasBlocks(raw) ? stripBlockComments(raw) : renderHtml(raw));

function renderExcerpt(post: PostRow): string {
  if (post.excerpt.trim()) return texturize(renderHtml(post.excerpt));
  const words = stripTags(stripBlockComments(post.content), ' ').split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const text = words.slice(0, 55).join(' ') + (words.length > 55 ? ' [&hellip;]' : '');
  return `<p>${texturize(text)}</p>\n`;
}

export const curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

/** The REST base of a post type's routes. */
export const restBase = (type: string) =>
  type === 'page'
    ? 'pages'
    : type === 'attachment'
      ? 'media'
      : type === 'wp_block'
        ? 'blocks'
        : type === 'wp_navigation'
          ? 'navigation'
          : 'posts';

/**
 * A post or a page. `unlocked` says whether a password-protected one shows its content (the caller may edit
 * it or sent its password); otherwise content and excerpt render empty, as core does. In edit context `viewer`
 * gets the `wp:action-*` links of what they may do, and `sample` is the slug a post without one would get.
 */
export function renderPost(
  post: PostRow,
  site: Site,
  context: Context,
  unlocked = true,
  viewer?: UserRow,
  sample?: string,
) {
  const base = restBase(post.type);
  const self = `${site.api}/wp/v2/${base}/${post.id}`;
  const guid = post.guid
    ? `${site.url}${post.guid}`
    : `${site.url}/?${post.type === 'page' ? 'page_id' : 'p'}=${post.id}`;
  const edit = context === 'edit';
  const raw = <T extends object>(rendered: T, value: string) =>
    edit ? { raw: value, ...rendered } : rendered;
  const locked = post.password !== '' && !unlocked;
  const links: Record<string, object[]> = {
    self: [{ href: self }],
    collection: [{ href: `${site.api}/wp/v2/${base}` }],
    about: [{ href: `${site.api}/wp/v2/types/${post.type}` }],
    author: [{ embeddable: true, href: `${site.api}/wp/v2/users/${post.author}` }],
    replies: [{ embeddable: true, href: `${site.api}/wp/v2/comments?post=${post.id}` }],
    'version-history': [{ count: post.revision_count ?? 0, href: `${self}/revisions` }],
  };
  if (post.last_revision)
    links['predecessor-version'] = [
      { id: post.last_revision, href: `${self}/revisions/${post.last_revision}` },
    ];
  if (post.type === 'page' && post.parent)
    links.up = [{ embeddable: true, href: `${site.api}/wp/v2/pages/${post.parent}` }];
  if (post.featured_media)
    links['wp:featuredmedia'] = [
      { embeddable: true, href: `${site.api}/wp/v2/media/${post.featured_media}` },
    ];
  links['wp:attachment'] = [{ href: `${site.api}/wp/v2/media?parent=${post.id}` }];
  if (post.type === 'post')
    links['wp:term'] = [
      { taxonomy: 'category', embeddable: true, href: `${site.api}/wp/v2/categories?post=${post.id}` },
      { taxonomy: 'post_tag', embeddable: true, href: `${site.api}/wp/v2/tags?post=${post.id}` },
    ];
  if (edit) for (const rel of actionRels(post, viewer)) links[rel] = [{ href: self }];
  links.curies = curies;
  const common = {
    id: post.id,
    date: wpDate(post.date),
    date_gmt: wpDate(post.date),
    guid: raw({ rendered: guid }, guid),
    modified: wpDate(post.modified),
    modified_gmt: wpDate(post.modified),
    ...(edit ? { password: post.password } : {}),
    slug: post.slug,
    status: post.status,
    type: post.type,
    link: permalink(post, site),
    title: raw({ rendered: texturize(displayedTitle(post)) }, post.title),
    content: raw(
      {
        rendered: locked ? '' : renderContent(post.content),
        protected: post.password !== '',
        ...(edit ? { block_version: blockVersion(post.content) } : {}),
      },
      post.content,
    ),
    excerpt: raw(
      { rendered: locked ? '' : renderExcerpt(post), protected: post.password !== '' },
      post.excerpt,
    ),
    author: post.author,
    featured_media: post.featured_media,
    comment_status: post.comment_status,
    ping_status: post.ping_status,
  };
  if (context === 'embed') {
    // Core's embed context: the fields a list of links needs.
    const { id, date, slug, type, link, title, excerpt, author, featured_media } = common;
    return { id, date, slug, type, link, title, excerpt, author, featured_media, _links: links };
  }
  const sampleFields = edit ? samplePermalink(post, site, sample ?? post.slug) : {};
  if (post.type === 'page') {
    // WordPress 6.1 (with its default theme) gives pages an excerpt too.
    return {
      ...common,
      parent: post.parent,
      menu_order: post.menu_order,
      template: post.template,
      meta: [],
      ...sampleFields,
      _links: links,
    };
  }
  return {
    ...common,
    sticky: post.sticky,
    template: post.template,
    format: post.format,
    meta: [],
    categories: post.categories,
    tags: post.tags,
    ...sampleFields,
    _links: links,
  };
}

const avatar = (email: string, size: number) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(email.trim().toLowerCase()).digest('hex')}?s=${size}&d=mm&r=g`;

export const avatarUrl = (email: string) => avatar(email, 96);

export function renderUser(user: UserRow, site: Site, context: Context) {
  const view = {
    id: user.id,
    name: user.display_name,
    url: user.url,
    description: user.description,
    link: `${site.url}/author/${user.slug}/`,
    slug: user.slug,
    avatar_urls: { '24': avatar(user.email, 24), '48': avatar(user.email, 48), '96': avatar(user.email, 96) },
    // An empty PHP array, as core sends it; edit context adds the block editor's (empty) preferences.
    meta: context === 'edit' ? { persisted_preferences: [] } : [],
    _links: {
      self: [{ href: `${site.api}/wp/v2/users/${user.id}` }],
      collection: [{ href: `${site.api}/wp/v2/users` }],
    },
  };
  if (context !== 'edit') return view;
  const capabilities: Record<string, boolean> = {};
  for (const capability of roleCapabilities[user.role]) capabilities[capability] = true;
  capabilities[user.role] = true;
  return {
    ...view,
    username: user.login,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    locale: languages[user.language] ?? 'en_US',
    nickname: user.nickname,
    registered_date: `${wpDate(user.registered_at)}+00:00`,
    roles: [user.role],
    capabilities,
    extra_capabilities: { [user.role]: true },
  };
}

/** A term; in `embed` context only core's short form (id, link, name, slug, taxonomy and the links). */
export function renderTerm(term: TermRow, site: Site, context: Context = 'view') {
  const route = term.taxonomy === 'category' ? 'categories' : 'tags';
  const base = {
    id: term.id,
    count: term.count,
    description: term.description,
    link:
      term.taxonomy === 'category' ? `${site.url}/category/${term.slug}/` : `${site.url}/tag/${term.slug}/`,
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
  };
  const rendered = {
    ...base,
    ...(term.taxonomy === 'category' ? { parent: term.parent } : {}),
    meta: [],
    _links: {
      self: [{ href: `${site.api}/wp/v2/${route}/${term.id}` }],
      collection: [{ href: `${site.api}/wp/v2/${route}` }],
      about: [{ href: `${site.api}/wp/v2/taxonomies/${term.taxonomy}` }],
      ...(term.parent
        ? { up: [{ href: `${site.api}/wp/v2/${route}/${term.parent}`, embeddable: true }] }
        : {}),
      'wp:post_type': [{ href: `${site.api}/wp/v2/posts?${route}=${term.id}` }],
      curies,
    },
  };
  if (context !== 'embed') return rendered;
  const { id, link, name, slug, taxonomy, _links } = rendered;
  return { id, link, name, slug, taxonomy, _links };
}

/** `_fields=id,title.rendered`: keeps only the named top-level fields (and nested ones by dotted path). */
export function pickFields(object: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const [head, ...rest] = field.split('.');
    if (!head || !(head in object)) continue;
    const value = object[head];
    if (rest.length === 0) out[head] = value;
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      const nested = pickFields(value as Record<string, unknown>, [rest.join('.')]);
      if (Object.keys(nested).length)
        out[head] = { ...((out[head] as Record<string, unknown>) ?? {}), ...nested };
    }
  }
  return out;
}

/** A deleted item's `previous`: core sends the item's data without its links. */
export function withoutLinks<T extends { _links?: unknown }>(item: T): Omit<T, '_links'> {
  const { _links: _, ...data } = item;
  return data;
}
