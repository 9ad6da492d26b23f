import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { LocalObjectStore, type ObjectStore } from '../../platform/objects.js';
import { can, canOnPost, canRead, editContextAllows } from './capabilities.js';
import { pickItemFields } from './embed-param.js';
import { refused, restError } from './errors.js';
import { caller, fieldList, paginate, sendFields, siteOf, validId } from './http.js';
import { mediaKeys, serveUploads, storeMediaFiles, titleAndCaption } from './media-files.js';
import { newPlayerCount, type PlayerCount } from './media-html.js';
import { mediaListFilter } from './media-list.js';
import { renderMedia, setPublicUrl } from './media-render.js';
import { MediaFields, MediaItem, MediaListQuery } from './media-schemas.js';
import {
  checkUpload,
  filenameFromDisposition,
  parseMultipart,
  safeName,
  UploadBody,
} from './media-upload.js';
import { dateParam } from './post-dates.js';
import { attachmentLink, withAttachmentLinks } from './post-fields.js';
import { checkListContext, splitListParams } from './post-list.js';
import { coerceIntegers, slugify } from './post-write.js';
import { type Context, type Site, withoutLinks } from './render.js';
import { ContextEnum, ForceQuery, IdParams, isTrue, responses } from './schemas.js';
import type { ContentStore, PostRow } from './store.js';
import { MediaStore } from './store-media.js';

/** Where media files go and how their URLs are made. */
export interface MediaFiles {
  objects: ObjectStore;
  /** The public URL of an S3 key (STORAGE_PUBLIC_URL); undefined for the embedded store, served here. */
  urlTemplate?: string;
  maxBytes: number;
}

const base = '/wp-json/wp/v2/media';
const item = `${base}/:id(^\\d+$)`;
const tags = ['media'];
const text = (v: string | { raw: string } | undefined) => (typeof v === 'object' ? v.raw : v);
/** Audio and video players rendered so far, per request: core numbers them through a whole answer. */
const players = new WeakMap<FastifyRequest, PlayerCount>();

/** `/wp/v2/media`: attachments, their files in the object store (embedded or S3). */
export function mediaRoutes(store: ContentStore, files: MediaFiles): FastifyPluginAsync {
  const media = new MediaStore(store.db);
  const { objects } = files;
  const template = files.urlTemplate;
  if (template)
    setPublicUrl((key) => template.replaceAll('{key}', key.split('/').map(encodeURIComponent).join('/')));
  else setPublicUrl((key: string, site: Site) => `${site.url}/wp-content/${key.replace(/^content\//, '')}`);

  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('preValidation', async (request) => {
      splitListParams(request);
      coerceIntegers(request.body, ['post', 'author']);
    });
    // Any other media type is the file itself (core's upload_from_data); multipart forms carry it as `file`.
    // A text file too: Fastify's own text/plain parser would hand over a string, not the bytes.
    app.removeContentTypeParser('text/plain');
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: files.maxBytes }, (_r, body, done) =>
      done(null, new UploadBody({ raw: body as Buffer })),
    );
    app.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: files.maxBytes },
      (request, body, done) => {
        parseMultipart(String(request.headers['content-type']), body as Buffer).then(
          (parsed) => done(null, parsed),
          (error) => done(error),
        );
      },
    );

    const findMedia = async (id: number) => {
      const post = validId(id) ? await store.findPost(id) : undefined;
      if (post?.type !== 'attachment') throw restError(404, 'rest_post_invalid_id', 'Invalid post ID.');
      return post;
    };
    /** An attachment is as visible as the post it is attached to; unattached ones are public. */
    const readable = async (request: FastifyRequest, post: PostRow) => {
      if (post.status === 'inherit' && post.parent) {
        const parent = await store.findPost(post.parent);
        return !parent || canRead(caller(request), parent);
      }
      return post.status === 'inherit' || canRead(caller(request), post);
    };
    const respond = async (
      request: FastifyRequest,
      post: PostRow,
      context: Context,
      fields?: string[],
      collection = false,
    ) => {
      const site = siteOf(request);
      const count = players.get(request) ?? newPlayerCount();
      players.set(request, count);
      const parent = post.parent ? await store.findPost(post.parent) : undefined;
      const edit =
        context === 'edit'
          ? {
              viewer: caller(request),
              parent,
              sample: await store.uniqueSlug(store.db, slugify(post.title) || String(post.id), post.id),
            }
          : undefined;
      const rendered = renderMedia(post, site, context, count) as Record<string, unknown>;
      const body = withAttachmentLinks(
        { ...rendered, link: attachmentLink(post, parent, site) },
        post,
        site,
        edit,
      );
      return pickItemFields(request, body, fields, collection);
    };

    if (objects instanceof LocalObjectStore) serveUploads(app, objects, store.db);

    app.get(
      base,
      {
        schema: {
          tags,
          summary: 'List media',
          querystring: MediaListQuery,
          response: responses(Type.Array(MediaItem)),
        },
      },
      async (request, reply) => {
        const q = request.query;
        const user = caller(request);
        const statuses = q.status ?? ['inherit'];
        if (statuses.some((s) => s !== 'inherit') && !can(user, 'edit_posts'))
          throw restError(
            400,
            'rest_invalid_param',
            'Invalid parameter(s): status',
            { status: 'Status is forbidden.' },
            undefined,
            {
              status: {
                code: 'rest_forbidden_status',
                message: 'Status is forbidden.',
                data: { status: user ? 403 : 401 },
              },
            },
          );
        checkListContext(user, q.context, 'edit_posts');
        const { page, ...filter } = mediaListFilter(q, user, statuses);
        const { rows, total } = await store.listPosts(filter);
        const perPage = filter.limit;
        const totalPages = perPage ? Math.ceil(total / perPage) : total > 0 ? 1 : 0;
        paginate(request, reply, total, page, totalPages, 'rest_post_invalid_page_number');
        const fields = fieldList(q._fields);
        sendFields(reply, fields);
        // One after another: players are numbered in the order the list shows them.
        const items: Record<string, unknown>[] = [];
        for (const row of rows.filter((r) => editContextAllows(user, r, q.context)))
          items.push(await respond(request, row, q.context ?? 'view', fields, true));
        return items;
      },
    );

    app.get(
      item,
      {
        schema: {
          tags,
          summary: 'Read a media item',
          params: IdParams,
          querystring: Type.Object({
            context: Type.Optional(ContextEnum),
            _fields: Type.Optional(Type.String()),
          }),
          response: responses(MediaItem),
        },
      },
      async (request, reply) => {
        const post = await findMedia(request.params.id);
        const user = caller(request);
        const context = request.query.context ?? 'view';
        if (!editContextAllows(user, post, context))
          throw refused(!!user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
        if (!(await readable(request, post)))
          throw refused(!!user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
        const fields = fieldList(request.query._fields);
        sendFields(reply, fields);
        // Core's get_item links the attachment's page for browsers.
        const parent = post.parent ? await store.findPost(post.parent) : undefined;
        reply.header(
          'link',
          `<${attachmentLink(post, parent, siteOf(request))}>; rel="alternate"; type=text/html`,
        );
        return respond(request, post, context, fields);
      },
    );

    /** The fields of a create or update, from a JSON/form body or (for uploads) the query string and form fields. */
    const writeFields = async (request: FastifyRequest, values: Record<string, unknown>) => {
      const v = values as Record<string, never>;
      const user = caller(request);
      const parent = v.post === undefined ? undefined : v.post === null ? 0 : Number(v.post);
      if (parent) {
        const target = await store.findPost(parent);
        if (!target || target.type === 'attachment' || target.type === 'revision')
          throw restError(400, 'rest_invalid_param', 'Invalid parent type.');
        if (!canOnPost(user, 'edit', target))
          throw refused(
            !!user,
            'rest_cannot_edit',
            'Sorry, you are not allowed to upload media to this post.',
          );
      }
      if (v.author !== undefined && Number(v.author) !== user?.id && !can(user, 'edit_others_posts'))
        throw restError(
          403,
          'rest_cannot_edit_others',
          'Sorry, you are not allowed to update posts as this user.',
        );
      if (v.author !== undefined && !(await store.findUser(Number(v.author))))
        throw restError(400, 'rest_invalid_author', 'Invalid author ID.');
      return {
        title: text(v.title),
        excerpt: text(v.caption),
        content: text(v.description),
        parent,
        author: v.author === undefined ? undefined : Number(v.author),
        slug: v.slug === undefined ? undefined : slugify(v.slug),
        date: dateParam('date', v.date),
        comment_status: v.comment_status,
        ping_status: v.ping_status,
        alt_text: v.alt_text as string | undefined,
      };
    };

    app.post(
      base,
      {
        bodyLimit: files.maxBytes,
        schema: {
          tags,
          summary: 'Upload a file: the raw body with Content-Disposition, or multipart with a `file` part',
          querystring: MediaFields,
          response: responses(MediaItem, 201),
        },
      },
      async (request, reply) => {
        const user = caller(request);
        // The posts controller's check runs first in core: the attachment type's create_posts is upload_files.
        if (!user || !can(user, 'upload_files'))
          throw refused(
            !!user,
            'rest_cannot_create',
            'Sorry, you are not allowed to create posts as this user.',
          );
        const body = request.body instanceof UploadBody ? request.body : new UploadBody({});
        let name: string | undefined;
        let data: Buffer | undefined;
        if (body.file) {
          name = body.file.name;
          data = body.file.data;
        } else {
          // Core reads the raw body: a JSON `{}` is data, refused below for its missing Content-Disposition.
          const sent = Number(request.headers['content-length'] ?? 0) > 0;
          data = body.raw ?? (sent ? Buffer.from(JSON.stringify(request.body)) : undefined);
          if (!data?.length) throw restError(400, 'rest_upload_no_data', 'No data supplied.');
          if (!request.headers['content-type'])
            throw restError(400, 'rest_upload_no_content_type', 'No Content-Type supplied.');
          const disposition = request.headers['content-disposition'];
          if (!disposition)
            throw restError(400, 'rest_upload_no_content_disposition', 'No Content-Disposition supplied.');
          name = filenameFromDisposition(String(disposition));
          if (!name)
            throw restError(
              400,
              'rest_upload_invalid_disposition',
              'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
            );
        }
        if (!data?.length) throw restError(400, 'rest_upload_no_data', 'No data supplied.');
        const fileName = safeName(name ?? '');
        if (!fileName)
          throw restError(
            400,
            'rest_upload_sideload_error',
            'Sorry, you are not allowed to upload this file type.',
          );
        const checked = await checkUpload(fileName, data);
        const fields = await writeFields(request, { ...request.query, ...body.fields });
        const now = new Date();
        const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
        const file = await media.uniqueFile(folder, fileName, checked.mime.startsWith('image/'));
        const stored = await storeMediaFiles(objects, file, data, checked.mime, checked);
        // The default title is the stored name without its extension (`photo-1` for a second photo.png), as core's.
        const storedName = file.slice(file.lastIndexOf('/') + 1);
        const stem = storedName.includes('.') ? storedName.slice(0, storedName.lastIndexOf('.')) : storedName;
        const { title, caption } = titleAndCaption(stored.image_meta, fields.title, fields.excerpt);
        const post = await store.savePost({
          type: 'attachment',
          status: 'inherit',
          author: fields.author ?? user.id,
          title: title || stem,
          excerpt: caption,
          content: fields.content ?? '',
          slug: fields.slug ?? slugify(title || stem),
          parent: fields.parent ?? 0,
          date: fields.date,
          comment_status: fields.comment_status ?? 'open',
          ping_status: fields.ping_status ?? 'closed',
          mime_type: checked.mime,
          media: { ...stored, alt_text: fields.alt_text ?? '' },
        });
        reply.status(201).header('location', `${siteOf(request).api}/wp/v2/media/${post.id}`);
        return respond(request, post, 'edit');
      },
    );

    for (const method of ['POST', 'PUT', 'PATCH'] as const)
      app.route({
        method,
        url: item,
        schema: {
          tags,
          summary: 'Update a media item’s fields',
          params: IdParams,
          body: Type.Optional(MediaFields),
          response: responses(MediaItem),
        },
        handler: async (request) => {
          const user = caller(request);
          const post = await findMedia((request.params as { id: number }).id);
          if (!user || !canOnPost(user, 'edit', post))
            throw refused(!!user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
          const body =
            request.body instanceof UploadBody ? {} : ((request.body ?? {}) as Record<string, unknown>);
          const { alt_text, ...fields } = await writeFields(request, body);
          const info = post.media;
          const updated = await store.savePost(
            { ...fields, media: alt_text !== undefined && info ? { ...info, alt_text } : undefined },
            post.id,
          );
          // Core's attachment update builds its answer twice (the posts controller's, then its own), so the
          // players of the first count too: the answer's are numbered after them.
          const count = newPlayerCount();
          players.set(request, count);
          renderMedia(updated, siteOf(request), 'edit', count);
          return respond(request, updated, 'edit');
        },
      });

    app.delete(
      item,
      {
        schema: {
          tags,
          summary: 'Delete a media item and its files (force=true is required: media has no trash)',
          params: IdParams,
          querystring: ForceQuery,
          body: Type.Optional(ForceQuery),
        },
      },
      async (request) => {
        const user = caller(request);
        const post = await findMedia(request.params.id);
        if (!canOnPost(user, 'delete', post))
          throw refused(!!user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
        if (!isTrue((request.body as { force?: string } | undefined)?.force ?? request.query.force))
          throw restError(
            501,
            'rest_trash_not_supported',
            "The post does not support trashing. Set 'force=true' to delete.",
          );
        const previous = withoutLinks(await respond(request, post, 'edit'));
        await store.deletePost(post.id);
        // The file and its copies go with it, as wp_delete_attachment_files removes them.
        for (const key of post.media ? mediaKeys(post.media) : [])
          await objects
            .delete(key)
            .catch((error) => request.log.warn({ err: error, key }, 'media file not deleted'));
        // Posts that featured it show no image any more, as core's wp_delete_attachment clears _thumbnail_id.
        await store.db.query('UPDATE content.posts SET featured_media = 0 WHERE featured_media = $1', [
          post.id,
        ]);
        return { deleted: true, previous };
      },
    );
  };
}
