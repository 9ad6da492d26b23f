import { type Context, curies, renderHtml, type Site, wpDate } from './render.js';
import { texturize } from './render-text.js';
import type { PostRow } from './store.js';

/** Where a stored file is served: set by media.ts for the configured object store. */
let publicUrl = (key: string, site: Site) => `${site.url}/wp-content/${key.replace(/^content\//, '')}`;
export const setPublicUrl = (fn: (key: string, site: Site) => string) => {
  publicUrl = fn;
};

export const mediaTypeOf = (mime: string) => (mime.startsWith('image/') ? 'image' : 'file');

/** An attachment as core's media controller shows it. */
export function renderMedia(post: PostRow, site: Site, context: Context) {
  const media = post.media ?? { key: '', file: '', filesize: 0, alt_text: '' };
  const self = `${site.api}/wp/v2/media/${post.id}`;
  const source = publicUrl(media.key, site);
  // wp_insert_attachment keeps the uploaded file's URL as the guid.
  const guid = media.key ? source : `${site.url}/?attachment_id=${post.id}`;
  const edit = context === 'edit';
  const raw = <T extends object>(rendered: T, value: string) =>
    edit ? { raw: value, ...rendered } : rendered;
  const isImage = mediaTypeOf(post.mime_type) === 'image';
  const details: Record<string, unknown> = { filesize: media.filesize };
  if (isImage) {
    Object.assign(details, { width: media.width ?? 0, height: media.height ?? 0, file: media.file });
    // No resized copies are made, so `full` is the only size (core would add thumbnail, medium…).
    details.sizes = {
      full: {
        file: media.file.split('/').pop(),
        width: media.width ?? 0,
        height: media.height ?? 0,
        mime_type: post.mime_type,
        source_url: source,
      },
    };
  } else details.sizes = {};
  const links: Record<string, object[]> = {
    self: [{ href: self }],
    collection: [{ href: `${site.api}/wp/v2/media` }],
    about: [{ href: `${site.api}/wp/v2/types/attachment` }],
    author: [{ embeddable: true, href: `${site.api}/wp/v2/users/${post.author}` }],
    replies: [{ embeddable: true, href: `${site.api}/wp/v2/comments?post=${post.id}` }],
    curies: curies,
  };
  const caption = raw({ rendered: post.excerpt ? texturize(renderHtml(post.excerpt)) : '' }, post.excerpt);
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
    description: raw({ rendered: texturize(renderHtml(post.content)) }, post.content),
    caption,
    alt_text: media.alt_text,
    media_type: mediaTypeOf(post.mime_type),
    mime_type: post.mime_type,
    media_details: details,
    post: post.parent || null,
    source_url: source,
    ...(edit ? { missing_image_sizes: [] } : {}),
    _links: links,
  };
}
