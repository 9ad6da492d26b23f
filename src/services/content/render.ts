import { createHash } from 'node:crypto';
import { roleCapabilities } from './capabilities.js';
import { languages } from './languages.js';
import type { PostRow, TermRow, UserRow } from './store.js';

export type Context = 'view' | 'edit' | 'embed';

/** Where the site and its API live, from the request (so links work behind any host name). */
export interface Site {
  url: string;
  api: string;
}

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

function renderExcerpt(post: PostRow): string {
  if (post.excerpt.trim()) return renderHtml(post.excerpt);
  const words = stripTags(post.content, ' ').split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const text = words.slice(0, 55).join(' ') + (words.length > 55 ? ' [&hellip;]' : '');
  return `<p>${text}</p>\n`;
}

const curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

export function renderPost(post: PostRow, site: Site, context: Context) {
  const self = `${site.api}/wp/v2/posts/${post.id}`;
  const guid = `${site.url}/?p=${post.id}`;
  const edit = context === 'edit';
  const raw = <T extends object>(rendered: T, value: string) =>
    edit ? { raw: value, ...rendered } : rendered;
  return {
    id: post.id,
    date: wpDate(post.date),
    date_gmt: wpDate(post.date),
    guid: raw({ rendered: guid }, guid),
    modified: wpDate(post.modified),
    modified_gmt: wpDate(post.modified),
    slug: post.slug,
    status: post.status,
    type: 'post',
    link: post.status === 'publish' && post.slug ? `${site.url}/${post.slug}/` : guid,
    title: raw({ rendered: post.title }, post.title),
    content: raw({ rendered: renderHtml(post.content), protected: false }, post.content),
    excerpt: raw({ rendered: renderExcerpt(post), protected: false }, post.excerpt),
    author: post.author,
    featured_media: 0,
    comment_status: post.comment_status,
    ping_status: post.ping_status,
    sticky: post.sticky,
    template: '',
    format: post.format,
    meta: {},
    categories: post.categories,
    tags: post.tags,
    _links: {
      self: [{ href: self }],
      collection: [{ href: `${site.api}/wp/v2/posts` }],
      author: [{ embeddable: true, href: `${site.api}/wp/v2/users/${post.author}` }],
      'wp:term': [
        { taxonomy: 'category', embeddable: true, href: `${site.api}/wp/v2/categories?post=${post.id}` },
        { taxonomy: 'post_tag', embeddable: true, href: `${site.api}/wp/v2/tags?post=${post.id}` },
      ],
      curies,
    },
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
    meta: {},
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

export function renderTerm(term: TermRow, site: Site) {
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
  return {
    ...base,
    ...(term.taxonomy === 'category' ? { parent: term.parent } : {}),
    meta: {},
    _links: {
      self: [{ href: `${site.api}/wp/v2/${route}/${term.id}` }],
      collection: [{ href: `${site.api}/wp/v2/${route}` }],
      'wp:post_type': [{ href: `${site.api}/wp/v2/posts?${route}=${term.id}` }],
      curies,
    },
  };
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
