import { createHash } from 'node:crypto';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { acceptForms, refuseOtherTypes } from '../../platform/body-types.js';
import { htmlSecurityHeaders } from '../../platform/http.js';
import { all, jsonServerOptions, type Query, QueryError, runQuery } from '../../platform/json-query/index.js';
import { publicOrigin } from '../../platform/request.js';
import { homePage } from './home.js';
import { publicFile } from './public-files.js';
import { foreignKeyOf, maxRelations, relate } from './relations.js';
import {
  AnyObject,
  CollectionQuery,
  Empty,
  ErrorBody,
  IdParams,
  ItemQuery,
  ListItem,
  ListItemChanges,
  ListItemReplacement,
  NestedParams,
  NewListItem,
  ResourceIdParams,
  ResourceParams,
} from './schemas.js';
import { findById, type Item, type ListStore, WriteFailedError } from './store.js';

export interface RouteOptions {
  store: ListStore;
  /** LIST_DELAY_MS as configured, shown on the home page. */
  delay: string;
  /** The routes file's rules, shown at `/__rules` (json-server's), when LIST_ROUTES is set. */
  routes?: Record<string, string>;
  /** A folder whose files are served ahead of the API (json-server's `public/`), when it exists. */
  publicDir?: string;
  /** LIST_JSONP: `?callback=fn` wraps JSON answers in a call, as json-server's `res.jsonp`. */
  jsonp?: boolean;
}

/** `/__rules` answers before any rewriting, as json-server's rewriter router did. */
export const isRulesPath = (url: string) => /^\/__rules\/?(?:\?|$)/i.test(url);

const jsonType = 'application/json; charset=utf-8';
// Responses are indented like json-server's (Express "json spaces" 2).
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const notFoundText = '{}';

const origin = (request: FastifyRequest) => publicOrigin(request);

const noCacheHeaders = { 'cache-control': 'no-cache', pragma: 'no-cache', expires: '-1' };

// The last body's tag: a client polling an unchanged resource gets the same (cached) text again.
let lastBody = '';
let lastTag = 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
/** The `etag` package's weak tag, as Express sets it: byte length in hex, then 27 characters of base64 SHA-1. */
export function weakEtag(body: string) {
  if (body === lastBody) return lastTag;
  const hash = createHash('sha1').update(body, 'utf8').digest('base64').slice(0, 27);
  lastBody = body;
  lastTag = `W/"${Buffer.byteLength(body, 'utf8').toString(16)}-${hash}"`;
  return lastTag;
}

/** Express's `res.jsonp` callback: the first `callback` parameter, when it is not empty. */
function jsonpCallback(request: FastifyRequest): string | undefined {
  const value = (request.query as Query | undefined)?.callback;
  const callback = Array.isArray(value) ? value[0] : value;
  return typeof callback === 'string' && callback !== '' ? callback : undefined;
}

/**
 * Express's `res.jsonp` body: the callback's name kept to `[]\w$.` characters, the `/**\/` guard against Rosetta
 * Flash, and U+2028/U+2029 escaped (valid in JSON, not in older JavaScript).
 */
function jsonpBody(callback: string, json: string) {
  const name = callback.replace(/[^[\]\w$.]/g, '');
  const body = json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `/**/ typeof ${name} === 'function' && ${name}(${body});`;
}

/** The `fresh` package's rule (Express's `req.fresh`) for a response that has an ETag and no Last-Modified. */
function isFresh(request: FastifyRequest, tag: string) {
  const noneMatch = request.headers['if-none-match'];
  const modifiedSince = request.headers['if-modified-since'];
  if (!noneMatch && !modifiedSince) return false;
  const cacheControl = request.headers['cache-control'];
  if (cacheControl && /(?:^|,)\s*?no-cache\s*?(?:,|$)/.test(cacheControl)) return false;
  if (modifiedSince) return false; // no Last-Modified to compare it with
  if (noneMatch === '*') return true;
  return (noneMatch ?? '')
    .split(',')
    .map((token) => token.trim())
    .some((token) => token === tag || `W/${token}` === tag || token === `W/${tag}`);
}

/** The routes of the list service; `ListStore` does the storing, this file only speaks HTTP. */
export function listRoutes({ store, delay, routes, publicDir, jsonp }: RouteOptions): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    // json-server served static files ahead of its API (express.static first): a file at the path wins, for GET and HEAD.
    if (publicDir) {
      await app.register(fastifyStatic, { root: publicDir, serve: false });
      app.addHook('onRequest', async (request, reply) => {
        if (request.method !== 'GET' && request.method !== 'HEAD') return;
        const file = await publicFile(publicDir, request.url);
        if (file !== undefined) return reply.sendFile(file);
      });
    }

    // HTML forms post urlencoded bodies, read flat as json-server's Express read them; other types are 415 (json-server
    // ignored them: a text/plain POST stored an empty item), as documented.
    acceptForms(app, { brackets: false });
    refuseOtherTypes(app, 'application/json (or an urlencoded form)');

    // Express's caching headers as json-server sent them: no-cache trio, a weak ETag of the body, 304 on a match.
    app.addHook('onSend', async (request, reply, payload) => {
      if (
        typeof payload !== 'string' ||
        !String(reply.getHeader('content-type')).startsWith('application/json')
      )
        return payload;
      reply.headers(noCacheHeaders);
      let body = payload;
      // json-server rendered every answer with Express's res.jsonp, which marks it nosniff (`/__rules` used res.json).
      const rendered = request.routeOptions.url !== '/__rules';
      if (rendered) reply.header('x-content-type-options', 'nosniff');
      const callback = jsonp && rendered ? jsonpCallback(request) : undefined;
      if (callback !== undefined) {
        body = jsonpBody(callback, payload);
        reply.type('text/javascript; charset=utf-8');
      }
      const tag = weakEtag(body);
      reply.header('etag', tag);
      const status = reply.statusCode;
      const conditional = request.method === 'GET' || request.method === 'HEAD';
      if (conditional && ((status >= 200 && status < 300) || status === 304) && isFresh(request, tag)) {
        reply.code(304).removeHeader('content-type');
        return null;
      }
      return body;
    });

    const send = (reply: FastifyReply, status: number, text: string) =>
      reply.status(status).type(jsonType).send(text);
    const notFound = (reply: FastifyReply) => send(reply, 404, notFoundText);
    const clientError = (reply: FastifyReply, status: number, error: string) =>
      send(reply, status, JSON.stringify({ error }));

    /** Waits for the change to be durable; a failed save answers 507/503 and leaves nothing of the change behind. */
    const saved = async (pending: Promise<void>, reply: FastifyReply) => {
      try {
        await pending;
        return true;
      } catch (error) {
        if (!(error instanceof WriteFailedError)) throw error;
        clientError(reply, error.statusCode, error.message);
        return false;
      }
    };

    const cache = new Map<string, { version: number; text: string }>();
    const cached = (key: string, value: () => unknown) => {
      const hit = cache.get(key);
      if (hit && hit.version === store.version) return hit.text;
      const text = pretty(value());
      cache.set(key, { version: store.version, text });
      return text;
    };

    /** `_embed` and `_expand` on copies of the items, so the stored ones are left as they are. */
    const related = (name: string, items: unknown[], query: Query) => {
      const embeds = all(query._embed);
      const expands = all(query._expand);
      if (embeds.length === 0 && expands.length === 0) return items;
      for (const [param, names] of [
        ['_embed', embeds],
        ['_expand', expands],
      ] as const) {
        if (new Set(names).size > maxRelations)
          throw new QueryError(
            `${param}: at most ${maxRelations} different names, got ${new Set(names).size}`,
          );
      }
      return relate(store.data, name, items, embeds, expands);
    };

    const listItems = (
      name: string,
      request: FastifyRequest,
      reply: FastifyReply,
      query = request.query as Query,
    ) => {
      const collection = store.collection(name);
      if (!collection) return showSingular(name, reply);
      if (Object.keys(query).length === 0)
        return send(
          reply,
          200,
          cached(name, () => collection),
        );
      try {
        const result = runQuery(collection, query, `${origin(request)}${request.url}`, jsonServerOptions);
        if (result.totalCount !== undefined) reply.header('x-total-count', String(result.totalCount));
        if (result.link !== undefined) reply.header('link', result.link);
        return send(reply, 200, pretty(related(name, result.items, query)));
      } catch (error) {
        if (error instanceof QueryError) return clientError(reply, 400, error.message);
        throw error;
      }
    };

    const showItem = (name: string, id: string, request: FastifyRequest, reply: FastifyReply) => {
      const collection = store.collection(name);
      const item = collection && findById(collection, id);
      if (!item) return notFound(reply);
      return send(reply, 200, pretty(related(name, [item], request.query as Query)[0]));
    };

    // A top-level object is a singular resource (json-server's): GET shows it, POST and PUT replace it, PATCH merges.
    const showSingular = (name: string, reply: FastifyReply) => {
      const object = store.object(name);
      return object ? send(reply, 200, pretty(object)) : notFound(reply);
    };

    const changeSingular = async (
      name: string,
      body: Item,
      method: string,
      request: FastifyRequest,
      reply: FastifyReply,
    ) => {
      const object = store.object(name);
      if (!object) return notFound(reply);
      const pending = method === 'PATCH' ? store.mergeObject(object, body) : store.setObject(name, body);
      const text = pretty(store.object(name));
      if (!(await saved(pending, reply))) return reply;
      if (method !== 'POST') return send(reply, 200, text);
      reply.header('location', `${origin(request)}${request.url.split('?')[0]}`);
      return send(reply, 201, text);
    };

    const createItem = async (name: string, body: Item, request: FastifyRequest, reply: FastifyReply) => {
      const collection = store.collection(name);
      if (!collection) return changeSingular(name, body, 'POST', request, reply);
      if (body.id && typeof body.id !== 'string' && typeof body.id !== 'number') {
        return clientError(reply, 400, 'body/id must be a string or a number');
      }
      // Past 2^53 ids stop being exact, and the next generated id (largest + 1) would collide for ever.
      if (typeof body.id === 'number' && Math.abs(body.id) > Number.MAX_SAFE_INTEGER) {
        return clientError(reply, 400, 'body/id must be at most 9007199254740991 (2^53 - 1)');
      }
      const result = store.insert(collection, body);
      if ('conflict' in result) return clientError(reply, 409, `${name}: ${result.conflict}`);
      // Rendered now: a later change to the same item must not leak into this response.
      const text = pretty(result.item);
      if (!(await saved(result.saved, reply))) return reply;
      const path = request.url.split('?')[0].replace(/\/$/, '');
      reply.header('location', `${origin(request)}${path}/${encodeURIComponent(String(result.item.id))}`);
      return send(reply, 201, text);
    };

    const changeItem = async (
      name: string,
      id: string,
      body: Item,
      replace: boolean,
      reply: FastifyReply,
    ) => {
      const collection = store.collection(name);
      const item = collection && findById(collection, id);
      if (!item) return notFound(reply);
      const pending = replace ? store.replace(item, body) : store.merge(item, body);
      const text = pretty(item);
      if (!(await saved(pending, reply))) return reply;
      return send(reply, 200, text);
    };

    const deleteItem = async (name: string, id: string, reply: FastifyReply) => {
      const collection = store.collection(name);
      const item = collection && findById(collection, id);
      if (!item) return notFound(reply);
      if (!(await saved(store.remove(collection, item), reply))) return reply;
      return send(reply, 200, '{}');
    };

    // The spec's delay is the harness's (LIST_DELAY_MS); the home page is not delayed.
    app.get('/', { schema: { hide: true }, config: { faults: false } }, async (request, reply) => {
      const html = homePage(store.resources(), delay, origin(request));
      return reply.headers(htmlSecurityHeaders).type('text/html; charset=utf-8').send(html);
    });

    if (routes) {
      app.get('/__rules', { schema: { hide: true }, config: { faults: false } }, async (_request, reply) =>
        send(reply, 200, pretty(routes)),
      );
    }

    app.get(
      '/db',
      {
        schema: {
          summary: 'The whole data file',
          tags: ['data'],
          response: {
            200: Type.Object(
              {},
              { additionalProperties: true, description: 'Every resource, as the file holds it.' },
            ),
          },
        },
      },
      async (_request, reply) => showDatabase(reply),
    );

    const tags = ['list'];
    const errors = { 400: ErrorBody, 503: ErrorBody, 507: ErrorBody };
    app.get(
      '/list',
      {
        schema: {
          summary: 'The list, optionally searched, filtered, sorted and paginated',
          tags,
          querystring: CollectionQuery,
          response: { 200: Type.Array(ListItem), 400: ErrorBody },
        },
      },
      async (request, reply) => listItems('list', request, reply),
    );
    app.get(
      '/list/:id',
      {
        schema: {
          summary: 'One item',
          tags,
          params: IdParams,
          querystring: ItemQuery,
          response: { 200: ListItem, 404: Empty },
        },
      },
      async (request, reply) => showItem('list', request.params.id, request, reply),
    );
    app.post(
      '/list',
      {
        schema: {
          summary: 'Add an item (saved to the file before the answer)',
          tags,
          body: NewListItem,
          response: { 201: ListItem, ...errors, 409: ErrorBody },
        },
      },
      async (request, reply) => createItem('list', request.body, request, reply),
    );
    app.put(
      '/list/:id',
      {
        schema: {
          summary: 'Replace an item (the id is kept)',
          tags,
          params: IdParams,
          body: ListItemReplacement,
          response: { 200: ListItem, ...errors, 404: Empty },
        },
      },
      async (request, reply) => changeItem('list', request.params.id, request.body, true, reply),
    );
    app.patch(
      '/list/:id',
      {
        schema: {
          summary: 'Change some fields of an item (the id is kept)',
          tags,
          params: IdParams,
          body: ListItemChanges,
          response: { 200: ListItem, ...errors, 404: Empty },
        },
      },
      async (request, reply) => changeItem('list', request.params.id, request.body, false, reply),
    );
    app.delete(
      '/list/:id',
      {
        schema: {
          summary: 'Delete an item',
          tags,
          params: IdParams,
          response: { 200: Empty, 503: ErrorBody, 404: Empty },
        },
      },
      async (request, reply) => deleteItem('list', request.params.id, reply),
    );

    const showDatabase = (reply: FastifyReply) =>
      send(
        reply,
        200,
        cached('\0db', () => store.data),
      );
    const routable = (name: string) =>
      store.collection(name) !== undefined || store.object(name) !== undefined;
    const resolve = (name: string) => {
      if (routable(name)) return name;
      const lower = name.toLowerCase();
      return Object.keys(store.data).find((key) => key.toLowerCase() === lower && routable(key)) ?? name;
    };
    registerOtherResources(app, {
      listItems,
      showItem,
      createItem,
      changeItem,
      deleteItem,
      changeSingular,
      notFound,
      resolve,
      showDatabase,
    });
  };
}

interface Handlers {
  listItems(name: string, request: FastifyRequest, reply: FastifyReply, query?: Query): FastifyReply;
  showItem(name: string, id: string, request: FastifyRequest, reply: FastifyReply): FastifyReply;
  createItem(name: string, body: Item, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  changeItem(
    name: string,
    id: string,
    body: Item,
    replace: boolean,
    reply: FastifyReply,
  ): Promise<FastifyReply>;
  deleteItem(name: string, id: string, reply: FastifyReply): Promise<FastifyReply>;
  changeSingular(
    name: string,
    body: Item,
    method: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply>;
  notFound(reply: FastifyReply): FastifyReply;
  /** The resource a path names, whatever its case. */
  resolve(name: string): string;
  showDatabase(reply: FastifyReply): FastifyReply;
}

/** Like Fastify's own schema error: `body/item must be string`, rendered by the service's error shape. */
function validationError(validate: ((data: unknown) => boolean) & { errors?: unknown }) {
  const errors = (validate.errors ?? []) as { instancePath?: string; message?: string }[];
  const message = errors.map((e) => `body${e.instancePath ?? ''} ${e.message}`).join(', ');
  return Object.assign(new Error(message), {
    statusCode: 400,
    code: 'FST_ERR_VALIDATION',
    validation: errors,
    validationContext: 'body',
  });
}

/**
 * Every other top-level array of the file gets the same routes, without the `list` item rules. Express matched
 * paths whatever their case, so `/LIST` and `/Shops/bk` land here too and find their resource by a
 * case-insensitive name (the exact name first, else the file's first match); `/LIST` keeps the `list` rules.
 */
function registerOtherResources(fastify: FastifyInstance, handlers: Handlers) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const hide = true;
  const listBodies = { POST: NewListItem, PUT: ListItemReplacement, PATCH: ListItemChanges } as const;
  const bodyOf = (request: FastifyRequest, name: string) => {
    const schema = name === 'list' && listBodies[request.method as keyof typeof listBodies];
    if (schema) {
      const validate = request.compileValidationSchema(schema, 'body');
      if (!validate(request.body)) throw validationError(validate);
    }
    return request.body as Item;
  };
  app.get(
    '/:resource',
    { schema: { hide, params: ResourceParams, querystring: CollectionQuery } },
    async (req, reply) =>
      req.params.resource.toLowerCase() === 'db'
        ? handlers.showDatabase(reply)
        : handlers.listItems(handlers.resolve(req.params.resource), req, reply),
  );
  app.get('/:resource/:id', { schema: { hide, params: ResourceIdParams } }, async (req, reply) =>
    handlers.showItem(handlers.resolve(req.params.resource), req.params.id, req, reply),
  );
  app.post(
    '/:resource',
    { schema: { hide, params: ResourceParams, body: AnyObject } },
    async (req, reply) => {
      const name = handlers.resolve(req.params.resource);
      return handlers.createItem(name, bodyOf(req, name), req, reply);
    },
  );
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/:resource',
      schema: { hide, params: ResourceParams, body: AnyObject },
      handler: async (req, reply) =>
        handlers.changeSingular(handlers.resolve(req.params.resource), req.body, method, req, reply),
    });
  }
  app.put(
    '/:resource/:id',
    { schema: { hide, params: ResourceIdParams, body: AnyObject } },
    async (req, reply) => {
      const name = handlers.resolve(req.params.resource);
      return handlers.changeItem(name, req.params.id, bodyOf(req, name), true, reply);
    },
  );
  app.patch(
    '/:resource/:id',
    { schema: { hide, params: ResourceIdParams, body: AnyObject } },
    async (req, reply) => {
      const name = handlers.resolve(req.params.resource);
      return handlers.changeItem(name, req.params.id, bodyOf(req, name), false, reply);
    },
  );
  app.delete('/:resource/:id', { schema: { hide, params: ResourceIdParams } }, async (req, reply) =>
    handlers.deleteItem(handlers.resolve(req.params.resource), req.params.id, reply),
  );
  // Nested routes, as json-server's: `/posts/1/comments` is `/comments?postId=1` (the parent's name as written,
  // the id as text); a POST there stores the body with `postId: "1"`. The parent need not exist.
  app.get(
    '/:resource/:id/:nested',
    { schema: { hide, params: NestedParams, querystring: CollectionQuery } },
    async (req, reply) => {
      const query = { ...(req.query as Query), [foreignKeyOf(req.params.resource)]: req.params.id };
      return handlers.listItems(handlers.resolve(req.params.nested), req, reply, query);
    },
  );
  app.post(
    '/:resource/:id/:nested',
    { schema: { hide, params: NestedParams, body: AnyObject } },
    async (req, reply) => {
      const name = handlers.resolve(req.params.nested);
      req.body = { ...(req.body as Item), [foreignKeyOf(req.params.resource)]: req.params.id };
      return handlers.createItem(name, bodyOf(req, name), req, reply);
    },
  );
  // json-server answers `{}` with 404 for anything it has no route for (nested paths, PUT on a collection...).
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '*',
    schema: { hide },
    handler: async (_req, reply) => handlers.notFound(reply),
  });
}
