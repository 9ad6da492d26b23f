import { constrainDimensions } from './image-sizes.js';
import { stripTags } from './render.js';
import type { MediaInfo, PostRow } from './store.js';

/** esc_attr: the five special characters as entities, existing entities kept. */
export const escAttr = (value: string) =>
  value
    .replace(/&(?!(#\d+|#x[\da-f]+|[a-z][a-z\d]*);)/gi, '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#039;');

/** esc_url's output for an href: `&` and quotes as core writes them. */
const escUrl = (url: string) => url.replaceAll('&', '&#038;').replaceAll("'", '&#039;');

const fuzzyMatch = (a: number, b: number) => Math.abs(a - b) <= 1;

/** wp_image_matches_ratio: the two sizes have the same aspect ratio, give or take a pixel. */
function matchesRatio(width: number, height: number, otherWidth: number, otherHeight: number) {
  const [constrained, expected] =
    width > otherWidth
      ? [constrainDimensions(width, height, otherWidth), [otherWidth, otherHeight]]
      : [constrainDimensions(otherWidth, otherHeight, width), [width, height]];
  return (
    fuzzyMatch(constrained[0], expected[0] as number) && fuzzyMatch(constrained[1], expected[1] as number)
  );
}

interface Candidate {
  file: string;
  width: number;
  height: number;
}

/**
 * wp_calculate_image_srcset for an image shown at `width`×`height` from `src`: every stored size of the same
 * aspect ratio up to 2048 px wide (the shown one first), or undefined when there is only one.
 */
export function srcset(
  media: MediaInfo,
  width: number,
  height: number,
  src: string,
  urlOf: (file: string) => string,
) {
  const sizes: Candidate[] = [...(media.sizes ?? [])];
  if (sizes.length === 0 || width < 1) return undefined;
  const dirname = media.file.includes('/') ? media.file.slice(0, media.file.lastIndexOf('/') + 1) : '';
  // GIF sizes lose their animation, so core leaves the original out of a GIF's srcset (or gives none at all).
  const gif = media.sizes?.find((s) => s.name === 'thumbnail')?.mime_type === 'image/gif';
  if (!gif)
    sizes.push({
      file: media.file.slice(dirname.length),
      width: media.width ?? 0,
      height: media.height ?? 0,
    });
  else if (src.includes(media.file)) return undefined;
  let sources = new Map<number, string>();
  let matched = false;
  for (const image of sizes) {
    let isSrc = false;
    if (!matched && src.includes(dirname + image.file)) matched = isSrc = true;
    if (image.width > 2048 && !isSrc) continue;
    if (!matchesRatio(width, height, image.width, image.height)) continue;
    const entry = `${urlOf(image.file).replaceAll(' ', '%20')} ${image.width}w`;
    // The shown image comes first (an iOS 8 bug, says core); PHP's array keys keep the first position.
    if (isSrc) sources = new Map([[image.width, entry], ...[...sources].filter(([w]) => w !== image.width)]);
    else sources.set(image.width, entry);
  }
  return matched && sources.size >= 2 ? [...sources.values()].join(', ') : undefined;
}

/**
 * prepend_attachment's paragraph, which core's the_content filter puts before an attachment's description:
 * a link to the file around its medium size (wp_get_attachment_image with srcset), or around its title.
 */
export function attachmentParagraph(post: PostRow, source: string, urlOf: (file: string) => string) {
  const media = post.media;
  let text = '';
  if (media?.width && media.height && post.mime_type.startsWith('image/')) {
    const medium = media.sizes?.find((s) => s.name === 'medium');
    const [src, width, height] = medium
      ? [urlOf(medium.file), medium.width, medium.height]
      : [source, ...constrainDimensions(media.width, media.height, 300, 300)];
    const set = srcset(media, width, height, src, urlOf);
    const alt = escAttr(stripTags(media.alt_text, '').trim());
    const responsive = set
      ? ` srcset="${escAttr(set)}" sizes="(max-width: ${width}px) 100vw, ${width}px"`
      : '';
    text = `<img width="${width}" height="${height}" src="${escAttr(src)}" class="attachment-medium size-medium" alt="${alt}" decoding="async" loading="lazy"${responsive} />`;
  }
  if (text === '') text = post.title;
  if (text.trim() === '') {
    const name = (media?.file ?? '').split('/').pop() ?? '';
    text = escAttr(name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name);
  }
  return `<p class="attachment"><a href='${escUrl(source)}'>${text}</a></p>`;
}
