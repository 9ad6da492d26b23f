import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastPath } from '../../platform/fast-path.js';
import { htmlSecurityHeaders } from '../../platform/http.js';
import { parseJsonOr } from '../../platform/json-body.js';
import { publicOrigin } from '../../platform/request.js';
import {
  answerHead,
  type Body,
  bodyOf,
  encodingFor,
  jsonType,
  precompute,
  sendBody,
  toJson,
  varyOf,
} from './bodies.js';
import { type Catalog, nestedRoutes } from './catalog.js';
import { imageSizes, type ResourceName, resourceNames } from './dataset.js';
import { solidPng } from './images.js';
import { listItems, type Query, withRelations } from './query.js';
import * as schemas from './schemas.js';

export interface RouteOptions {
  catalog: Catalog;
  /** Fixed origin for photo URLs (POSTS_PUBLIC_URL), else taken from each request. */
  publicUrl?: string;
  /** Used when a request's Host header is missing or malformed. */
  fallbackOrigin: string;
}

const emptyObject = '{}';

function notFound(reply: FastifyReply) {
  return reply.code(404).header('content-type', jsonType).send(emptyObject);
}

/** Writes answer with JSON but are never cached. */
function sendWritten(reply: FastifyReply, value: unknown) {
  return reply.code(200).header('content-type', jsonType).send(toJson(value));
}

/** The request body as an object: anything else (arrays, strings, unparsable text) counts as `{}`. */
function bodyObject(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

function parseJsonLeniently(text: string): unknown {
  return text.trim() === '' ? {} : parseJsonOr(text, {});
}

/**
 * The fixed JSON answers (a resource, an item, a nested list; no query, no photos) written straight to the
 * socket: the same bytes and headers as the routes below send for them, without Fastify's per-request work.
 * Conditional requests (If-None-Match) are left to the routes, and so is a large answer in an encoding not
 * compressed yet: the route compresses it off the event loop, and the fast path serves it from then on.
 */
export function postsFastPath(catalog: Catalog): FastPath {
  return (req, res, id, head) => {
    const url = req.url;
    if (url === undefined || req.headers['if-none-match'] !== undefined) return false;
    const body = catalog.shared(url);
    if (!body || body.type !== jsonType) return false;
    const encoding = encodingFor(body, req.headers);
    const payload = catalog.encodedNow(url, body, encoding);
    if (!payload) return false;
    res.writeHead(200, head.list(req, id, varyOf(body), answerHead(body, encoding, payload)));
    res.end(encoding === 'identity' ? (body.text ?? payload) : payload);
    return true;
  };
}

export function postsRoutes(options: RouteOptions) {
  const { catalog } = options;
  const fixed = options.publicUrl;

  const originOf = (request: FastifyRequest) => fixed ?? publicOrigin(request, options.fallbackOrigin);

  /** Sends the fixed answer at `path`, if it has one; undefined when the route must compute it. */
  const sendFixed = (request: FastifyRequest, reply: FastifyReply, url: string) => {
    if (url.includes('?')) return undefined;
    // Paths match in any case (`/POSTS/1`); they share the answer of the lower-case one.
    const path = url.toLowerCase();
    const origin = originOf(request);
    const body = catalog.answer(path, origin);
    if (!body) return undefined;
    const key = catalog.keyOf(path, origin);
    return sendBody(request, reply, body, (b, encoding) => catalog.encoded(key, b, encoding));
  };

  const images = new Map<string, Body>();
  /** The list headers of a queried answer kept in the catalog's cache (by its body, so they leave with it). */
  const listHeads = new WeakMap<Body, { totalCount?: number; link?: string }>();

  /**
   * A query's answer (`/posts?_page=2`, `/comments?postId=1`, `/posts/1?_embed=comments`), computed once per
   * origin and URL: the data never changes. Kept in the catalog's byte budget beside the fixed answers.
   */
  const sendQueried = (
    request: FastifyRequest,
    reply: FastifyReply,
    compute: () => { text: string; totalCount?: number; link?: string },
  ) => {
    const key = `?${originOf(request)}${request.url}`;
    let body = catalog.cache.get(key);
    if (!body) {
      const { text, ...heads } = compute();
      body = bodyOf(text);
      listHeads.set(body, heads);
      catalog.cache.add(key, body);
    }
    const heads = listHeads.get(body);
    if (heads?.totalCount !== undefined) reply.header('x-total-count', String(heads.totalCount));
    if (heads?.link !== undefined) reply.header('link', heads.link);
    return sendBody(request, reply, body, (b, encoding) => catalog.encoded(key, b, encoding));
  };

  return async function routes(parent: FastifyInstance) {
    const app = parent.withTypeProvider<TypeBoxTypeProvider>();

    // No validation and no 400s: a write body that is not a JSON object is an empty one. As on JSONPlaceholder
    // (json-server's body-parser), only `application/json` is read as JSON: text/plain, other types and a body
    // with no Content-Type count as `{}` (still read, so the size limit holds).
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, parseJsonLeniently(body as string));
    });
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));

    for (const schema of Object.values(schemas.itemSchemas)) app.addSchema(schema);

    app.get('/', { schema: { hide: true } }, async (request, reply) =>
      sendFixed(request, reply.headers(htmlSecurityHeaders), '/'),
    );

    app.get(
      '/db',
      {
        schema: {
          summary: 'The whole dataset in one object',
          tags: ['dataset'],
          response: { 200: Type.Record(Type.String(), Type.Array(Type.Unknown())) },
        },
      },
      async (request, reply) => {
        await sendFixed(request, reply, '/db');
        return reply;
      },
    );

    for (const name of resourceNames) registerResource(name);
    for (const route of nestedRoutes) registerNested(route.parent, route.child, route.foreignKey);

    app.get(
      '/images/:size/:file',
      {
        schema: {
          summary: 'A placeholder image (the photos link here)',
          tags: ['photos'],
          params: schemas.ImageParams,
          produces: ['image/png'],
          response: { 200: Type.String({ format: 'binary' }), 404: schemas.Empty },
        },
      },
      async (request, reply) => {
        const { size, file } = request.params;
        const match = /^([0-9a-f]{6})\.png$/i.exec(file);
        const pixels = Number(size);
        if (!match || (pixels !== imageSizes.full && pixels !== imageSizes.thumbnail)) return notFound(reply);
        const key = `${pixels}/${(match[1] as string).toLowerCase()}`;
        let body = images.get(key);
        if (!body) {
          body = precompute(solidPng(pixels, match[1] as string), 'image/png');
          // Any colour may be asked for, so the cache is bounded (each entry is about 200 bytes).
          if (images.size >= 20_000) images.clear();
          images.set(key, body);
        }
        return sendBody(request, reply, body);
      },
    );

    function registerResource(name: ResourceName) {
      const item = Type.Ref(schemas.itemSchemas[name]);
      const tags = [name];
      const dataFor = (request: FastifyRequest) => catalog.data(originOf(request));

      app.get(
        `/${name}`,
        {
          schema: {
            summary: `List ${name}`,
            tags,
            querystring: schemas.ListQuery,
            response: { 200: Type.Array(item) },
          },
        },
        async (request, reply) =>
          sendFixed(request, reply, request.url) ?? sendList(request, reply, name, request.query as Query),
      );

      app.get(
        `/${name}/:id`,
        {
          schema: {
            summary: `One of the ${name}`,
            tags,
            params: schemas.IdParams,
            querystring: schemas.RelationQuery,
            response: { 200: item, 404: schemas.Empty },
          },
        },
        async (request, reply) => {
          const fixed = sendFixed(request, reply, request.url);
          if (fixed) return fixed;
          const db = dataFor(request);
          const found = db.byId[name].get(request.params.id);
          if (!found) return notFound(reply);
          return sendQueried(request, reply, () => ({
            text: toJson(withRelations(db, name, [found], request.query as Query)[0]),
          }));
        },
      );

      const writeSchema = (summary: string) => ({
        summary,
        tags,
        params: schemas.IdParams,
        body: schemas.WriteBody,
        response: { 200: item, 404: schemas.Empty },
      });

      app.post(
        `/${name}`,
        {
          schema: {
            summary: `Pretend to create one of the ${name} (200, nothing is kept)`,
            tags,
            body: schemas.WriteBody,
            response: { 200: schemas.Written },
          },
        },
        async (request, reply) => {
          const id = catalog.base[name].length + 1;
          return sendWritten(reply, { ...bodyObject(request), id });
        },
      );

      app.put(
        `/${name}/:id`,
        { schema: writeSchema('Pretend to replace it (nothing is kept)') },
        async (request, reply) => {
          const found = dataFor(request).byId[name].get(request.params.id);
          if (!found) return notFound(reply);
          return sendWritten(reply, { ...bodyObject(request), id: found.id });
        },
      );

      app.patch(
        `/${name}/:id`,
        { schema: writeSchema('Pretend to update some fields (nothing is kept)') },
        async (request, reply) => {
          const found = dataFor(request).byId[name].get(request.params.id);
          if (!found) return notFound(reply);
          return sendWritten(reply, { ...found, ...bodyObject(request), id: found.id });
        },
      );

      app.delete(
        `/${name}/:id`,
        {
          schema: {
            summary: 'Pretend to delete it (nothing is kept)',
            tags,
            params: schemas.IdParams,
            response: { 200: schemas.Empty, 404: schemas.Empty },
          },
        },
        async (request, reply) => {
          const found = catalog.base[name].some((entry) => String(entry.id) === request.params.id);
          if (!found) return notFound(reply);
          return sendWritten(reply, {});
        },
      );
    }

    function registerNested(parentName: ResourceName, child: ResourceName, foreignKey: string) {
      app.get(
        `/${parentName}/:id/${child}`,
        {
          schema: {
            summary: `The ${child} of one of the ${parentName} (\`[]\` for an unknown one)`,
            tags: [parentName],
            params: schemas.IdParams,
            querystring: schemas.ListQuery,
            response: { 200: Type.Array(Type.Ref(schemas.itemSchemas[child])) },
          },
        },
        async (request, reply) => {
          const fixed = sendFixed(request, reply, request.url);
          if (fixed) return fixed;
          const query = { ...(request.query as Query), [foreignKey]: request.params.id };
          return sendList(request, reply, child, query);
        },
      );
    }

    async function sendList(request: FastifyRequest, reply: FastifyReply, name: ResourceName, query: Query) {
      return sendQueried(request, reply, () => {
        const origin = originOf(request);
        const result = listItems(catalog.data(origin), name, query, `${origin}${request.url}`);
        return { text: toJson(result.items), totalCount: result.totalCount, link: result.link };
      });
    }
  };
}
