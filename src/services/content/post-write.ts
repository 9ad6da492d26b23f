import type { Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { can, canOnPost } from './capabilities.js';
import { restError } from './errors.js';
import { validId } from './http.js';
import { dateParam } from './post-dates.js';
import { stripTags } from './render.js';
import { isTrue, type PostWriteBody } from './schemas.js';
import type { PageWriteBody } from './schemas-posts.js';
import type { ContentStore, PostRow, PostStatus, PostType, UserRow } from './store.js';
import type { RevisionStore } from './store-revisions.js';

export type WriteBody = Static<typeof PostWriteBody> & Partial<Static<typeof PageWriteBody>>;

/** Which post type a set of routes serves, and the capability names that go with it. */
export interface PostKind {
  type: Extract<PostType, 'post' | 'page' | 'wp_block' | 'wp_navigation'>;
  rest: 'posts' | 'pages' | 'blocks' | 'navigation';
  /** `edit_posts` or `edit_pages`… (`edit_blocks` is read as `edit_posts`, see can). */
  caps: 'posts' | 'pages' | 'blocks' | 'navigations';
  /** The type's `create_posts` when it is not its `edit_posts`. */
  create?: string;
}

export const slugify = (text: string) =>
  stripTags(
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase(),
    '',
  )
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);

const text = (value: string | { raw: string } | undefined) => (typeof value === 'object' ? value.raw : value);

const listFields = ['categories', 'tags'];
const integerFields = ['author', 'featured_media', 'parent', 'menu_order'];
const textFields = ['title', 'content', 'excerpt'];

/**
 * WordPress's type coercion on write (rest_sanitize_value_from_schema): `"2,3"` and `["2"]` are id lists, `"5"`
 * is an integer, and form bodies' `a[]=1&a[]=2` arrive as lists. Runs before validation, so what cannot be
 * coerced still fails with the parameter's own message.
 */
export function coerceWriteBody(request: FastifyRequest) {
  const body = request.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  for (const key of Object.keys(body)) {
    if (key.endsWith('[]')) {
      body[key.slice(0, -2)] = ([] as unknown[]).concat(body[key.slice(0, -2)] ?? [], body[key]);
      delete body[key];
    }
  }
  const asInt = (v: unknown) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v);
  for (const key of listFields) {
    let value = body[key];
    if (value === undefined) continue;
    if (typeof value === 'string') value = value.split(/[\s,]+/).filter(Boolean);
    else if (typeof value === 'number') value = [value];
    if (Array.isArray(value)) body[key] = value.map(asInt);
  }
  for (const key of integerFields) if (body[key] !== undefined) body[key] = asInt(body[key]);
  // Core validates none of title, content and excerpt: prepare_item_for_database takes a string or `raw`, and
  // ignores anything else (`{"title": 42}` sets no title, so an otherwise empty post is `empty_content`).
  for (const key of textFields) {
    const value = body[key];
    if (value === undefined || typeof value === 'string') continue;
    const raw = value && typeof value === 'object' ? (value as { raw?: unknown }).raw : undefined;
    if (typeof raw === 'string') continue;
    if (typeof raw === 'number') body[key] = { raw: String(raw) };
    else delete body[key];
  }
}

/** Numeric strings (form bodies, loose clients) as integers for the named fields, as core's sanitizing does. */
export function coerceIntegers(body: unknown, keys: string[]) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const values = body as Record<string, unknown>;
  for (const key of keys) {
    const v = values[key];
    if (typeof v === 'string' && /^\d+$/.test(v.trim())) values[key] = Number(v.trim());
  }
}

/** Permission checks shared by create and update, in WordPress's order. */
export async function checkWrite(store: ContentStore, kind: PostKind, user: UserRow, body: WriteBody) {
  if (body.author !== undefined && body.author !== user.id && !can(user, `edit_others_${kind.caps}`))
    throw restError(
      403,
      'rest_cannot_edit_others',
      'Sorry, you are not allowed to update posts as this user.',
    );
  if (
    body.status !== undefined &&
    ['publish', 'future', 'private'].includes(body.status) &&
    !can(user, `publish_${kind.caps}`)
  )
    throw restError(
      403,
      'rest_cannot_publish',
      'Sorry, you are not allowed to publish posts in this post type.',
    );
  if (isTrue(body.sticky) && !can(user, 'publish_posts') && !can(user, 'edit_others_posts'))
    throw restError(403, 'rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.');
  if (body.author !== undefined && !(validId(body.author) && (await store.findUser(body.author))))
    throw restError(400, 'rest_invalid_author', 'Invalid author ID.');
  const params: Record<string, string> = {};
  if (body.categories && (await store.missingTerms(body.categories, 'category')).length)
    params.categories = 'Invalid term ID.';
  if (body.tags && (await store.missingTerms(body.tags, 'post_tag')).length) params.tags = 'Invalid term ID.';
  if (Object.keys(params).length)
    throw restError(
      400,
      'rest_invalid_param',
      `Invalid parameter(s): ${Object.keys(params).join(', ')}`,
      params,
    );
  if (body.featured_media) {
    const media = await store.findPost(body.featured_media);
    if (media?.type !== 'attachment')
      throw restError(400, 'rest_invalid_featured_media', 'Invalid featured media ID.');
  }
  if (body.parent) {
    const parent = await store.findPost(body.parent);
    // Core checks only that the parent exists (get_post), whatever its type.
    if (!parent || parent.type === 'revision')
      throw restError(400, 'rest_post_invalid_id', 'Invalid post parent ID.');
  }
}

/** `date` (site time, offsets converted) wins over `date_gmt`; either alone sets the date, as in core. */
function dateOf(body: WriteBody) {
  if (body.date != null) return dateParam('date', body.date);
  if (body.date_gmt != null) return dateParam('date_gmt', body.date_gmt);
  return undefined;
}

/** wp_insert_post's rule: a publish date in the future schedules the post, a scheduled one in the past publishes. */
export function effectiveStatus(status: PostStatus, date: Date): PostStatus {
  if (status === 'publish' && date.getTime() > Date.now()) return 'future';
  if (status === 'future' && date.getTime() <= Date.now()) return 'publish';
  return status;
}

/** The columns a write changes: only what the body names (and the status the date implies). */
export function fieldsOf(body: WriteBody, post?: PostRow, type: PostType = post?.type ?? 'post') {
  const title = text(body.title);
  let slug = body.slug === undefined ? undefined : slugify(body.slug);
  const date = dateOf(body);
  let status = body.status as PostStatus | undefined;
  const baseStatus = status ?? post?.status;
  if (baseStatus === 'publish' || baseStatus === 'future') {
    const next = effectiveStatus(baseStatus, date ?? post?.date ?? new Date());
    if (next !== post?.status || status !== undefined) status = next;
  }
  // wp_insert_post: drafts and pending posts keep an empty slug until they are published (or scheduled, made
  // private): then it comes from the title, the stored one when the write does not send one.
  const slugTitle = title ?? post?.title;
  // Leaving the trash gives back the slug trashing set aside (wp_untrash_post's `_wp_desired_post_slug`).
  if (slug === undefined && post?.status === 'trash' && status !== undefined && status !== 'trash')
    slug = post.slug.replace(/__trashed$/, '');
  const finalStatus = status ?? post?.status ?? 'draft';
  const unnamed = finalStatus === 'draft' || finalStatus === 'pending';
  if (slug === undefined && !post?.slug && !unnamed && slugTitle) slug = slugify(slugTitle);
  // prepare_item_for_database: sticky and a password exclude each other, the stored ones too (only posts have
  // `sticky`; a page's is ignored).
  const stickyWanted = type === 'post' && isTrue(body.sticky);
  if (body.password !== undefined && body.password !== '') {
    if (stickyWanted)
      throw restError(400, 'rest_invalid_field', 'A post can not be sticky and have a password.');
    if (post?.sticky)
      throw restError(400, 'rest_invalid_field', 'A sticky post can not be password protected.');
  }
  if (stickyWanted && post?.password)
    throw restError(400, 'rest_invalid_field', 'A password protected post can not be set to sticky.');
  return {
    title,
    content: text(body.content),
    excerpt: text(body.excerpt),
    status,
    // A trashed post that is given a status again leaves the trash.
    trashed_from: status !== undefined && post?.status === 'trash' ? null : undefined,
    author: body.author,
    slug,
    categories: body.categories,
    tags: body.tags,
    date,
    sticky: body.sticky === undefined || type !== 'post' ? undefined : isTrue(body.sticky),
    comment_status: body.comment_status,
    ping_status: body.ping_status,
    format: body.format,
    password: body.password,
    featured_media: body.featured_media,
    template: body.template,
    parent: body.parent,
    menu_order: body.menu_order,
  };
}

/** Whether a password-protected post shows its content: the caller may edit it or sent the right password. */
export const unlocked = (user: UserRow | undefined, post: PostRow, password: string | undefined) =>
  post.password === '' || canOnPost(user, 'edit', post) || password === post.password;

/**
 * wp_trash_post: the status goes aside (`trashed_from`), and so does the slug (`hello__trashed`) so another post may
 * take it meanwhile; it goes through wp_update_post, which saves a first revision (by `by`) when there is none yet.
 */
export async function trashPost(store: ContentStore, revisions: RevisionStore, post: PostRow, by: number) {
  const slug = post.slug.endsWith('__trashed') ? post.slug : `${post.slug}__trashed`;
  const trashed = await store.savePost({ status: 'trash', trashed_from: post.status, slug }, post.id);
  await revisions.saveAfterUpdate(trashed, by);
}
