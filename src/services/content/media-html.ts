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

/** The instance counters of core's `[audio]` and `[video]` shortcodes: they count up through one request. */
export interface PlayerCount {
  audio: number;
  video: number;
}
export const newPlayerCount = (): PlayerCount => ({ audio: 0, video: 0 });

/** wp_get_audio_extensions and wp_get_video_extensions: what the players play; other files get a plain link. */
const playable = { audio: ['mp3', 'ogg', 'flac', 'm4a', 'wav'], video: ['mp4', 'm4v', 'webm', 'ogv', 'flv'] };

/** wp_audio_shortcode / wp_video_shortcode for a file with no other attributes (core reads no audio metadata). */
function player(post: PostRow, kind: 'audio' | 'video', source: string, count: PlayerCount) {
  const instance = ++count[kind];
  const href = escUrl(source);
  const ext = new URL(source, 'http://x').pathname.split('.').pop()?.toLowerCase() ?? '';
  if (!playable[kind].includes(ext))
    return `<a class="wp-embedded-${kind}" href="${href}">${escAttr(source)}</a>`;
  // The element shim for old Internet Explorer is printed by the first player of a page only.
  const shim =
    instance === 1
      ? `<!--[if lt IE 9]><script>document.createElement('${kind}');</script><![endif]-->\n`
      : '';
  const inner = `<source type="${post.mime_type}" src="${escUrl(`${source}?_=${instance}`)}" /><a href="${href}">${href}</a>`;
  if (kind === 'audio')
    return `${shim}<audio class="wp-audio-shortcode" id="audio-${post.id}-${instance}" preload="none" style="width: 100%;" controls="controls">${inner}</audio>`;
  return `<div style="width: 640px;" class="wp-video">${shim}<video class="wp-video-shortcode" id="video-${post.id}-${instance}" width="640" height="360" preload="metadata" controls="controls">${inner}</video></div>`;
}

/**
 * prepend_attachment's markup, which core's the_content filter puts before an attachment's description: an audio
 * or video player, or a paragraph with a link to the file around its medium size (wp_get_attachment_image with
 * srcset), or around its title.
 */
export function prependAttachment(
  post: PostRow,
  source: string,
  urlOf: (file: string) => string,
  count: PlayerCount,
) {
  const kind = post.mime_type.split('/')[0];
  if (kind === 'audio' || kind === 'video') return player(post, kind, source, count);
  const media = post.media;
  let text = '';
  if (media?.width && media.height && kind === 'image') {
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

/** wp_trim_excerpt's words: the text of rendered HTML (scripts and styles dropped), its first 55 words. */
export function excerptWords(html: string) {
  const text = stripTags(html.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, ''), '').trim();
  const words = text.split(/[\n\r\t ]+/).filter(Boolean);
  if (words.length === 0) return '';
  return words.slice(0, 55).join(' ') + (words.length > 55 ? ' [&hellip;]' : '');
}
