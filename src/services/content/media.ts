import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { drainAfterAnswer } from '../../platform/multipart.js';
import { LocalObjectStore, makeSpool, type ObjectStore } from '../../platform/objects.js';
import { can, canOnPost, canRead, editContextAllows } from './capabilities.js';
import { pickItemFields } from './embed-param.js';
import { refused, restError } from './errors.js';
import { caller, fieldList, paginate, sendFields, siteOf, validId } from './http.js';
import { maxImagePixels, resizable } from './image-sizes.js';
import { removeAttachmentFiles, serveUploads, storeMediaFiles, titleAndCaption } from './media-files.js';
import { newPlayerCount, type PlayerCount } from './media-html.js';
import { mediaListFilter } from './media-list.js';
import { renderMedia, setPublicUrl } from './media-render.js';
import { MediaFields, MediaItem, MediaListQuery } from './media-schemas.js';
import {
  checkUpload,
  filenameFromDisposition,
  fileTooBig,
  formOverhead,
  readMediaForm,
  readRawUpload,
  safeName,
  UploadBody,
} from './media-upload.js';
import { dateParam } from './post-dates.js';
import { attachmentLink, withAttachmentLinks } from './post-fields.js';
import { checkListContext, splitListParams } from './post-list.js';
import { coerceIntegers, slugify } from './post-write.js';
import { type Context, withoutLinks } from './render.js';
import { ContextEnum, ForceQuery, IdParams, isTrue, responses } from './schemas.js';
import type { Site } from './site.js';
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

/** A body handed to the route unread (see UploadBody). */
const deferBody = (
  _request: FastifyRequest,
  payload: NodeJS.ReadableStream,
  done: (error: Error | null, body?: unknown) => void,
) => done(null, new UploadBody(payload as Readable));

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
    // Bodies other than JSON and forms are not read before the route has checked the caller (the upload route
    // reads its own, see below); one nobody reads is drained after the answer, within a bound.
    app.removeContentTypeParser('text/plain');
    app.addContentTypeParser('*', deferBody);
    // In place of the site-wide one that reads a form's fields (routes.ts): the upload reads its own body.
    app.removeContentTypeParser('multipart/form-data');
    app.addContentTypeParser('multipart/form-data', deferBody);
    app.addHook('onSend', async (request, reply) => {
      if (request.body instanceof UploadBody && !request.body.done) drainAfterAnswer(request.raw, reply.raw);
    });

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

    // The upload route reads its body itself, whatever its type (a JSON body is data to core too), and only
    // once the caller may upload: a refused upload is answered before any of it is read.
    await app.register(async (context) => {
      const upload = context.withTypeProvider<TypeBoxTypeProvider>();
      upload.removeAllContentTypeParsers();
      upload.addContentTypeParser('*', deferBody);
      upload.post(
        base,
        {
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
          const body = request.body instanceof UploadBody ? request.body : undefined;
          const headers = request.headers;
          const declared =
            headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
          const sent = body !== undefined && declared !== 0;
          const isForm = /^multipart\/form-data\b/i.test(String(headers['content-type'] ?? ''));
          // Everything the headers tell is checked before a byte of the body is read.
          if (!isForm) {
            if (!sent) throw restError(400, 'rest_upload_no_data', 'No data supplied.');
            if (!headers['content-type'])
              throw restError(400, 'rest_upload_no_content_type', 'No Content-Type supplied.');
          }
          const disposition = headers['content-disposition'];
          if (!isForm && !disposition)
            throw restError(400, 'rest_upload_no_content_disposition', 'No Content-Disposition supplied.');
          if (declared !== undefined && declared > files.maxBytes + (isForm ? formOverhead : 0))
            throw fileTooBig(files.maxBytes);
          // The query's `post` and `author` are checked before the body too (core's permission check does).
          await writeFields(request, request.query);
          const spool = await makeSpool();
          // 'close' comes once the answer is sent or the connection is gone, whichever way the request ended.
          reply.raw.once('close', () => void rm(spool, { recursive: true, force: true }));
          let name: string | undefined;
          let upload: { path: string; size: number } | undefined;
          let formFields: Record<string, string> = {};
          if (isForm && body) {
            const form = await readMediaForm(body, headers, spool, files.maxBytes);
            formFields = form.fields;
            if (form.file) {
              name = form.file.name;
              upload = form.file;
            }
          }
          if (!upload) {
            if (isForm && !disposition)
              throw restError(400, 'rest_upload_no_content_disposition', 'No Content-Disposition supplied.');
            name = filenameFromDisposition(String(disposition));
            if (!name)
              throw restError(
                400,
                'rest_upload_invalid_disposition',
                'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
              );
            if (!body || isForm) throw restError(400, 'rest_upload_no_data', 'No data supplied.');
            upload = await readRawUpload(body, spool, files.maxBytes);
          }
          if (!upload.size) throw restError(400, 'rest_upload_no_data', 'No data supplied.');
          const fileName = safeName(name ?? '');
          if (!fileName)
            throw restError(
              400,
              'rest_upload_sideload_error',
              'Sorry, you are not allowed to upload this file type.',
            );
          const checked = await checkUpload(fileName, upload.path);
          if (
            resizable.has(checked.mime) &&
            checked.width &&
            checked.height &&
            checked.width * checked.height > maxImagePixels
          )
            throw restError(
              400,
              'rest_upload_image_too_large',
              `The image is ${checked.width} × ${checked.height} pixels; this site resizes images of up to ${maxImagePixels / 1e6} megapixels.`,
            );
          const fields = await writeFields(request, { ...request.query, ...formFields });
          const now = new Date();
          const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
          const file = await media.uniqueFile(folder, fileName, checked.mime.startsWith('image/'));
          const stored = await storeMediaFiles(objects, file, upload, checked.mime, checked);
          // The default title is the stored name without its extension (`photo-1` for a second photo.png), as core's.
          const storedName = file.slice(file.lastIndexOf('/') + 1);
          const stem = storedName.includes('.')
            ? storedName.slice(0, storedName.lastIndexOf('.'))
            : storedName;
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
    });

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
        await removeAttachmentFiles(store.db, objects, post, request.log);
        return { deleted: true, previous };
      },
    );
  };
}
