import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../../platform/database.js';
import type { LocalObjectStore, ObjectStore } from '../../platform/objects.js';
import { restError } from './errors.js';
import { emptyImageMeta, type ImageMeta, imageMeta } from './image-meta.js';
import { loadSharp, makeImageSizes, type ProcessedImage } from './image-sizes.js';
import { slugify } from './post-write.js';
import type { MediaInfo } from './store.js';

const uploads = 'content/uploads/';

/** The stored part of an attachment's details: its file, and for images their size, copies and image_meta. */
export type StoredMedia = Omit<MediaInfo, 'alt_text'>;

/**
 * Stores an upload as wp_handle_upload and wp_generate_attachment_metadata do: the file under
 * `content/uploads/<file>`, and for images the resized copies beside it, with image_meta from the EXIF and IPTC
 * of JPEGs. A `-scaled` (over 2560 px) or `-rotated` (EXIF orientation) copy becomes the attachment's file.
 * `upload` is the request's spooled copy of the file.
 */
export async function storeMediaFiles(
  objects: ObjectStore,
  file: string,
  upload: { path: string; size: number },
  mime: string,
  size?: { width?: number; height?: number },
): Promise<StoredMedia> {
  const key = uploads + file;
  await objects.putFile(key, upload.path, { contentType: mime });
  const stored: StoredMedia = { key, file, filesize: upload.size, ...size };
  const { width, height } = size ?? {};
  if (!mime.startsWith('image/') || !width || !height) return stored;
  const folder = file.slice(0, file.lastIndexOf('/') + 1);
  stored.image_meta = emptyImageMeta();
  let made: ProcessedImage;
  try {
    if (mime === 'image/jpeg') {
      const sharp = await loadSharp();
      // The header only: no pixels are decoded here.
      const { exif, iptc } = await sharp(upload.path).metadata();
      stored.image_meta = imageMeta(exif, iptc);
    }
    const orientation = Number(stored.image_meta.orientation);
    made = await makeImageSizes(upload.path, file.slice(folder.length), mime, { width, height, orientation });
  } catch {
    // Bytes that decode no further than their header (or past sharp's pixel limit): core's editor fails the
    // same way and keeps the upload without copies.
    return stored;
  }
  // Copies first: the attachment row that names them is written only once they all exist.
  for (const copy of made.sizes)
    await objects.put(uploads + folder + copy.size.file, Readable.from([copy.data]), { contentType: mime });
  stored.sizes = made.sizes.map(({ name, size: copy }) => ({ name, ...copy }));
  if (made.replacement) {
    const shownKey = uploads + folder + made.replacement.name;
    await objects.put(shownKey, Readable.from([made.replacement.data]), { contentType: mime });
    Object.assign(stored, {
      key: shownKey,
      file: folder + made.replacement.name,
      filesize: made.replacement.data.length,
      width: made.width,
      height: made.height,
      original_image: file.slice(folder.length),
    });
  }
  if (made.rotated && stored.image_meta.orientation !== '0') stored.image_meta.orientation = 1;
  return stored;
}

/** PHP's empty() on a request field: missing, '' and '0' are empty. */
const empty = (value: string | undefined) => value === undefined || value === '' || value === '0';

/**
 * The media controller's defaults: an image's IPTC/EXIF title (unless it slugs to a number) and caption stand in
 * for a title and caption the request did not send. An empty title then falls back to the file name.
 */
export function titleAndCaption(meta: ImageMeta | undefined, title?: string, caption?: string) {
  const metaTitle = meta?.title.trim() && !/^\d+(\.\d+)?$/.test(slugify(meta.title)) ? meta.title : undefined;
  return {
    title: empty(title) ? (metaTitle ?? '') : (title as string),
    caption: empty(caption) && meta?.caption.trim() ? meta.caption : (caption ?? ''),
  };
}

/** Every object an attachment owns: its file, the original of a scaled or rotated image, and the resized copies. */
export function mediaKeys(media: MediaInfo): string[] {
  const folder = media.key.slice(0, media.key.lastIndexOf('/') + 1);
  return [
    media.key,
    ...(media.original_image ? [folder + media.original_image] : []),
    ...(media.sizes ?? []).map((size) => folder + size.file),
  ];
}

/**
 * What wp_delete_attachment does once an attachment's row is gone: its file and copies leave the object store
 * (wp_delete_attachment_files; a failure is logged, the row stays deleted), and posts that featured it show no
 * image any more (core clears their _thumbnail_id).
 */
export async function removeAttachmentFiles(
  db: Database,
  objects: ObjectStore,
  attachment: { id: number; media: MediaInfo | null },
  log: FastifyBaseLogger,
) {
  for (const key of attachment.media ? mediaKeys(attachment.media) : [])
    await objects.delete(key).catch((error) => log.warn({ err: error, key }, 'media file not deleted'));
  await db.query('UPDATE content.posts SET featured_media = 0 WHERE featured_media = $1', [attachment.id]);
}

/** Content type of a stored file by its extension, for the embedded store's copies (rows name originals only). */
const imageTypeOf = (key: string) =>
  ({ jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' })[
    key.slice(key.lastIndexOf('.') + 1).toLowerCase()
  ];

/** `/wp-content/uploads/…` for the embedded store: each file with its type, `nosniff` and a sandboxing CSP. */
export function serveUploads(app: FastifyInstance, objects: LocalObjectStore, db: Database) {
  app.get('/wp-content/uploads/*', { schema: { hide: true } }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    const file = await objects.find(uploads + rest);
    if (!file)
      throw restError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const [row] = (
      await db.query<{ mime_type: string }>(
        `SELECT mime_type FROM content.posts WHERE type = 'attachment' AND media->>'key' = $1`,
        [uploads + rest],
      )
    ).rows;
    reply
      .type(row?.mime_type || imageTypeOf(rest) || 'application/octet-stream')
      .header('content-length', file.size)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox");
    return reply.send(objects.open(file));
  });
}
