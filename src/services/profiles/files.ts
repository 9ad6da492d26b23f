import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import type { LocalObjectStore } from '../../platform/objects.js';

/** `GET /files/<url-encoded key>`: the embedded store's objects, typed by their bytes and cacheable. */
export function filesPlugin(objects: LocalObjectStore): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/files/*',
      { schema: { hide: true, params: Type.Object({ '*': Type.String() }) } },
      async (request, reply) => {
        const raw = request.url.slice('/files/'.length).split('?')[0] ?? '';
        let key: string;
        try {
          key = decodeURIComponent(raw);
        } catch {
          return reply.callNotFound();
        }
        const file = await objects.find(key);
        if (!file) return reply.callNotFound();
        const etag = `"${file.size.toString(16)}-${file.modified.getTime().toString(16)}"`;
        reply
          .header('etag', etag)
          .header('last-modified', file.modified.toUTCString())
          // Re-uploading the same file name replaces the object, so caches must revalidate.
          .header('cache-control', 'public, max-age=0, must-revalidate')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox");
        if (request.headers['if-none-match'] === etag) return reply.code(304).send();
        const type = await fileTypeFromFile(file.path);
        reply.type(type?.mime ?? 'application/octet-stream').header('content-length', file.size);
        return reply.send(objects.open(file));
      },
    );
  };
}
