import { emptyImageMeta, type ImageMeta } from './image-meta.js';
import { registeredSizes, resizeDimensions } from './image-sizes.js';
import { excerptWords, newPlayerCount, type PlayerCount, prependAttachment } from './media-html.js';
import { type Context, curies, renderHtml, wpDate } from './render.js';
import { texturize } from './render-text.js';
import type { Site } from './site.js';
import type { MediaInfo, PostRow } from './store.js';

/** Where a stored file is served: set by media.ts for the configured object store. */
let publicUrl = (key: string, site: Site) => `${site.url}/wp-content/${key.replace(/^content\//, '')}`;
export const setPublicUrl = (fn: (key: string, site: Site) => string) => {
  publicUrl = fn;
};

export const mediaTypeOf = (mime: string) => (mime.startsWith('image/') ? 'image' : 'file');

/** The URL of a file stored next to the attachment's own (one of its sizes). */
const sizeUrl = (media: MediaInfo, file: string, site: Site) =>
  publicUrl(`${media.key.slice(0, media.key.lastIndexOf('/') + 1)}${file}`, site);

/**
 * wp_get_attachment_metadata as the media controller shapes it: for images width, height, file, filesize, every
 * resized copy with its URL (and `full`, when there are copies; `{}` when none), image_meta, original_image.
 */
function mediaDetails(post: PostRow, site: Site, source: string): Record<string, unknown> {
  const media = post.media;
  if (!media?.width || !media.height || mediaTypeOf(post.mime_type) !== 'image')
    return { filesize: media?.filesize ?? 0, sizes: {} };
  const sizes: Record<string, object> = {};
  for (const { name, ...size } of media.sizes ?? [])
    sizes[name] = { ...size, source_url: sizeUrl(media, size.file, site) };
  if (media.sizes?.length)
    sizes.full = {
      file: media.file.split('/').pop(),
      width: media.width,
      height: media.height,
      mime_type: post.mime_type,
      source_url: source,
    };
  // Built in core's key order: the jsonb column keeps keys in an order of its own.
  const meta: Record<string, unknown> = { ...emptyImageMeta() };
  for (const key of Object.keys(meta)) meta[key] = media.image_meta?.[key as keyof ImageMeta] ?? meta[key];
  return {
    width: media.width,
    height: media.height,
    file: media.file,
    filesize: media.filesize,
    sizes,
    image_meta: meta,
    ...(media.original_image ? { original_image: media.original_image } : {}),
  };
}

/** get_intermediate_image_sizes' order, which wp_get_missing_image_subsizes lists in. */
const sizeOrder = ['thumbnail', 'medium', 'medium_large', 'large', '1536x1536', '2048x2048'];

/**
 * wp_get_missing_image_subsizes: the registered sizes the image is large enough for and has no copy of (a BMP's,
 * which cannot be resized; or an image stored before copies were made).
 */
function missingSizes(post: PostRow): string[] {
  const media = post.media;
  if (mediaTypeOf(post.mime_type) !== 'image' || !media?.width || !media.height) return [];
  const { width, height } = media;
  const made = new Set(media.sizes?.map((size) => size.name));
  const rules = new Map(registeredSizes);
  return sizeOrder.filter((name) => {
    const rule = rules.get(name);
    return rule && !made.has(name) && resizeDimensions(width, height, rule);
  });
}

/**
 * An attachment as core's media controller shows it. `players` counts the audio and video players rendered so far
 * in this request (core numbers them in their ids).
 */
export function renderMedia(post: PostRow, site: Site, context: Context, players = newPlayerCount()) {
  const media = post.media ?? { key: '', file: '', filesize: 0, alt_text: '' };
  const self = `${site.api}/wp/v2/media/${post.id}`;
  const source = publicUrl(media.key, site);
  // wp_insert_attachment keeps the uploaded file's URL as the guid.
  const guid = media.key ? source : `${site.url}/?attachment_id=${post.id}`;
  const edit = context === 'edit';
  const raw = <T extends object>(rendered: T, value: string) =>
    edit ? { raw: value, ...rendered } : rendered;
  const details = mediaDetails(post, site, source);
  const links: Record<string, object[]> = {
    self: [{ href: self }],
    collection: [{ href: `${site.api}/wp/v2/media` }],
    about: [{ href: `${site.api}/wp/v2/types/attachment` }],
    author: [{ embeddable: true, href: `${site.api}/wp/v2/users/${post.author}` }],
    replies: [{ embeddable: true, href: `${site.api}/wp/v2/comments?post=${post.id}` }],
    curies: curies,
  };
  const urlOf = (file: string) => sizeUrl(media, file, site);
  // the_content: the attachment's own markup, then the description (rendered only where the context shows it).
  const described = (count: PlayerCount) =>
    `${prependAttachment(post, source, urlOf, count)}\n${texturize(renderHtml(post.content))}`;
  const description = context === 'embed' ? '' : described(players);
  // An empty caption is core's generated excerpt: the_content again (another player), cut to 55 words.
  const words = post.excerpt.trim() ? '' : excerptWords(described(players));
  const captionHtml = post.excerpt.trim()
    ? texturize(renderHtml(post.excerpt))
    : words && `<p>${texturize(words)}</p>\n`;
  const caption = raw({ rendered: captionHtml }, post.excerpt);
  const title = raw({ rendered: texturize(post.title) }, post.title);
  if (context === 'embed')
    return {
      id: post.id,
      date: wpDate(post.date),
      slug: post.slug,
      type: 'attachment',
      link: `${site.url}/${post.slug}/`,
      title,
      author: post.author,
      caption,
      alt_text: media.alt_text,
      media_type: mediaTypeOf(post.mime_type),
      mime_type: post.mime_type,
      media_details: details,
      source_url: source,
      _links: links,
    };
  return {
    id: post.id,
    date: wpDate(post.date),
    date_gmt: wpDate(post.date),
    guid: raw({ rendered: guid }, guid),
    modified: wpDate(post.modified),
    modified_gmt: wpDate(post.modified),
    slug: post.slug,
    status: post.status,
    type: 'attachment',
    link: `${site.url}/${post.slug}/`,
    title,
    author: post.author,
    comment_status: post.comment_status,
    ping_status: post.ping_status,
    template: post.template,
    meta: [],
    description: raw({ rendered: description }, post.content),
    caption,
    alt_text: media.alt_text,
    media_type: mediaTypeOf(post.mime_type),
    mime_type: post.mime_type,
    media_details: details,
    post: post.parent || null,
    source_url: source,
    ...(edit ? { missing_image_sizes: missingSizes(post) } : {}),
    _links: links,
  };
}
