import type sharpModule from 'sharp';
import type { Sharp } from 'sharp';

/** One resized copy, as wp_generate_attachment_metadata keeps it (`mime-type` becomes `mime_type` in REST). */
export interface ImageSize {
  file: string;
  width: number;
  height: number;
  filesize: number;
  mime_type: string;
}

interface SizeRule {
  width: number;
  height: number;
  crop: boolean;
}

/**
 * wp_get_registered_image_subsizes() of the seeded WordPress (core's options and 6.1's two big sizes; the default
 * theme adds none), in _wp_make_subsizes' order: medium, large, thumbnail and medium_large come first.
 */
export const registeredSizes: [string, SizeRule][] = [
  ['medium', { width: 300, height: 300, crop: false }],
  ['large', { width: 1024, height: 1024, crop: false }],
  ['thumbnail', { width: 150, height: 150, crop: true }],
  ['medium_large', { width: 768, height: 0, crop: false }],
  ['1536x1536', { width: 1536, height: 1536, crop: false }],
  ['2048x2048', { width: 2048, height: 2048, crop: false }],
];

/** Images wider or taller than this (but PNGs) are scaled down to it and kept as `name-scaled.ext`. */
const bigImageThreshold = 2560;

/** The types core's GD editor can resize; other images (BMP, ICO) keep only their original. */
export const resizable = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

const phpRound = (n: number) => Math.sign(n) * Math.round(Math.abs(n));
const fuzzyMatch = (a: number, b: number) => Math.abs(a - b) <= 1;

/** wp_constrain_dimensions: fit within max_width × max_height (0 = no limit) keeping the aspect ratio. */
export function constrainDimensions(width: number, height: number, maxWidth = 0, maxHeight = 0) {
  if (!maxWidth && !maxHeight) return [width, height] as const;
  let widthRatio = 1;
  let heightRatio = 1;
  let didWidth = false;
  let didHeight = false;
  if (maxWidth > 0 && width > 0 && width > maxWidth) {
    widthRatio = maxWidth / width;
    didWidth = true;
  }
  if (maxHeight > 0 && height > 0 && height > maxHeight) {
    heightRatio = maxHeight / height;
    didHeight = true;
  }
  const smaller = Math.min(widthRatio, heightRatio);
  const larger = Math.max(widthRatio, heightRatio);
  const ratio =
    phpRound(width * larger) > maxWidth || phpRound(height * larger) > maxHeight ? smaller : larger;
  let w = Math.max(1, phpRound(width * ratio));
  let h = Math.max(1, phpRound(height * ratio));
  // Core bumps a result one pixel short of the box up to it (rounding), so constraining twice is stable.
  if (didWidth && w === maxWidth - 1) w = maxWidth;
  if (didHeight && h === maxHeight - 1) h = maxHeight;
  return [w, h] as const;
}

/** image_resize_dimensions: the source rectangle and the new size, or undefined when no copy is made. */
export function resizeDimensions(width: number, height: number, rule: SizeRule) {
  const { width: destW, height: destH, crop } = rule;
  if (width <= 0 || height <= 0 || (destW <= 0 && destH <= 0)) return undefined;
  // No copy when the original is smaller than the size asks for.
  if (!destH ? width < destW : !destW ? height < destH : width < destW && height < destH) return undefined;
  let newW: number;
  let newH: number;
  let left = 0;
  let top = 0;
  let cropW = width;
  let cropH = height;
  if (crop) {
    const aspect = width / height;
    newW = Math.min(destW, width);
    newH = Math.min(destH, height);
    if (!newW) newW = phpRound(newH * aspect);
    if (!newH) newH = phpRound(newW / aspect);
    const sizeRatio = Math.max(newW / width, newH / height);
    cropW = phpRound(newW / sizeRatio);
    cropH = phpRound(newH / sizeRatio);
    left = Math.floor((width - cropW) / 2);
    top = Math.floor((height - cropH) / 2);
  } else [newW, newH] = constrainDimensions(width, height, destW, destH);
  // A copy within a pixel of the original is not made (core's wp_image_resize_identical_dimensions).
  if (fuzzyMatch(newW, width) && fuzzyMatch(newH, height)) return undefined;
  return { left, top, cropW, cropH, width: newW, height: newH };
}

/** What an upload's image processing made: the file to show as full size, and the resized copies. */
export interface ProcessedImage {
  width: number;
  height: number;
  /**
   * Set when the original is not shown as it is: its `-scaled` copy (over 2560 px) or `-rotated` copy (EXIF
   * orientation applied), whose name and bytes become the attachment's file.
   */
  replacement?: { name: string; data: Buffer };
  /** Whether the pixels were turned upright by their EXIF orientation (image_meta.orientation becomes 1). */
  rotated: boolean;
  sizes: { name: string; size: ImageSize; data: Buffer }[];
}

/** The encoder settings of core's GD editor: JPEG quality 82, WebP 86; PNG rows filtered as libpng does. */
function encode(image: Sharp, mime: string) {
  if (mime === 'image/jpeg') return image.jpeg({ quality: 82 });
  if (mime === 'image/webp') return image.webp({ quality: 86 });
  if (mime === 'image/gif') return image.gif();
  return image.png({ adaptiveFiltering: true });
}

/**
 * The most pixels an uploaded image may have (width × height from its header): larger ones are refused with 400
 * `rest_upload_image_too_large` before anything decodes them. 40 megapixels takes any camera's photo up to
 * 8000 × 5000; a default WordPress (GD, about 5 bytes a pixel within WP_MAX_MEMORY_LIMIT's 256 MB) cannot resize
 * much more either. Decoding one holds width × height × channels bytes (160 MB at most), once per upload.
 */
export const maxImagePixels = 40_000_000;

let sharpLoaded: Promise<typeof sharpModule> | undefined;

/**
 * sharp, loaded on the first image upload. libvips' operation cache is off: it keeps up to 50 MB of decoded
 * images for a server that resizes each upload once. One libvips thread per image: images are resized one at a
 * time (imageWork), so they take one of libuv's four threads and one core, and file writes of every service keep
 * the other threads.
 */
export function loadSharp() {
  sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpLoaded;
}

/** How image work has gone in this process: for tests, and what an operator may want to know. */
export const imageStats = {
  /** Uploaded originals decoded to pixels (once per image however many sizes it gets). */
  decodes: 0,
  /** Images being resized right now, and the most at once so far. */
  running: 0,
  mostAtOnce: 0,
};

let imageQueue: Promise<unknown> = Promise.resolve();

/** Runs `work` when the images before it are done: one image is resized at a time in the whole process. */
export function imageWork<T>(work: () => Promise<T>): Promise<T> {
  const run = async () => {
    imageStats.running++;
    imageStats.mostAtOnce = Math.max(imageStats.mostAtOnce, imageStats.running);
    try {
      return await work();
    } finally {
      imageStats.running--;
    }
  };
  const next = imageQueue.then(run, run);
  imageQueue = next.catch(() => {});
  return next;
}

/**
 * wp_create_image_subsizes with sharp in place of GD: each registered size smaller than the original, named
 * `name-WxH.ext` as core does; JPEG, WebP and GIF originals over 2560 px are scaled to `name-scaled.ext` first
 * (sizes are still made from the original). A JPEG whose EXIF orientation is not 1 is turned upright first, into
 * `name-rotated.jpg` when it is not scaled, as core's maybe_exif_rotate. The file is decoded once (in imageWork's
 * turn), and every copy is made from those pixels.
 */
export async function makeImageSizes(
  file: string,
  fileName: string,
  mime: string,
  size: { width: number; height: number; orientation?: number },
): Promise<ProcessedImage> {
  const { width: storedWidth, height: storedHeight } = size;
  const result: ProcessedImage = { width: storedWidth, height: storedHeight, rotated: false, sizes: [] };
  if (!resizable.has(mime) || storedWidth <= 0 || storedHeight <= 0) return result;
  const sharp = await loadSharp();
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const ext = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  const named = (suffix: string) => `${stem}-${suffix}${ext ? `.${ext}` : ''}`;
  const orientation = mime === 'image/jpeg' ? (size.orientation ?? 1) : 1;
  result.rotated = orientation >= 2 && orientation <= 8;
  // Orientations 5 to 8 turn the picture a quarter: its upright width is the stored height.
  const [width, height] =
    orientation >= 5 && orientation <= 8 ? [storedHeight, storedWidth] : [storedWidth, storedHeight];
  return imageWork(async () => {
    // Animated GIFs would be resized frame by frame; core's GD editor keeps the first frame only. A truncated JPEG
    // is resized as far as it decodes, as GD's libjpeg does; GD refuses other damaged images, and so does sharp.
    const failOn = mime === 'image/jpeg' ? 'none' : 'warning';
    const input = sharp(file, { animated: false, failOn, limitInputPixels: maxImagePixels });
    imageStats.decodes++;
    const decoded = await (result.rotated ? input.rotate() : input)
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    const { channels } = decoded.info;
    // The header's size is what core reports; pixels are taken from what actually decoded.
    const source = () =>
      sharp(decoded.data, { raw: { width: decoded.info.width, height: decoded.info.height, channels } });
    const scaleX = decoded.info.width / width;
    const scaleY = decoded.info.height / height;
    if (mime !== 'image/png' && (width > bigImageThreshold || height > bigImageThreshold)) {
      const [w, h] = constrainDimensions(width, height, bigImageThreshold, bigImageThreshold);
      const scaled = await encode(source().resize(w, h, { fit: 'fill' }), mime).toBuffer();
      Object.assign(result, { width: w, height: h, replacement: { name: named('scaled'), data: scaled } });
    } else if (result.rotated) {
      const upright = await encode(source(), mime).toBuffer();
      Object.assign(result, { width, height, replacement: { name: named('rotated'), data: upright } });
    }
    for (const [name, rule] of registeredSizes) {
      const box = resizeDimensions(width, height, rule);
      if (!box) continue;
      let image = source();
      if (box.cropW !== width || box.cropH !== height)
        image = image.extract({
          left: Math.round(box.left * scaleX),
          top: Math.round(box.top * scaleY),
          width: Math.max(1, Math.round(box.cropW * scaleX)),
          height: Math.max(1, Math.round(box.cropH * scaleY)),
        });
      const out = await encode(image.resize(box.width, box.height, { fit: 'fill' }), mime).toBuffer();
      const copy = named(`${box.width}x${box.height}`);
      result.sizes.push({
        name,
        data: out,
        size: { file: copy, width: box.width, height: box.height, filesize: out.length, mime_type: mime },
      });
    }
    return result;
  });
}
