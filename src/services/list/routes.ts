import { parse as parseQueryString } from 'node:querystring';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { htmlSecurityHeaders } from '../../platform/http.js';
import { jsonServerOptions, type Query, QueryError, runQuery } from '../../platform/json-query/index.js';
import { publicOrigin } from '../../platform/request.js';
import { homePage } from './home.js';
import {
  AnyObject,
  CollectionQuery,
  Empty,
  ErrorBody,
  IdParams,
  ListItem,
  ListItemChanges,
  ListItemReplacement,
  NewListItem,
  ResourceIdParams,
  ResourceParams,
} from './schemas.js';
import { findById, type Item, type ListStore, WriteFailedError } from './store.js';

export interface RouteOptions {
  store: ListStore;
  delayMs: number;
}

const jsonType = 'application/json; charset=utf-8';
// Responses are indented like json-server's (Express "json spaces" 2).
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const notFoundText = '{}';

const origin = (request: FastifyRequest) => publicOrigin(request);

/** The routes of the list service; `ListStore` does the storing, this file only speaks HTTP. */
export function listRoutes({ store, delayMs }: RouteOptions): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    // HTML forms post urlencoded bodies; json-server accepted them too. Keys that would reach prototypes are dropped.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        const fields: Item = {};
        for (const [key, value] of Object.entries(parseQueryString(body as string))) {
          if (key !== '__proto__' && key !== 'constructor' && key !== 'prototype') fields[key] = value;
        }
        done(null, fields);
      },
    );

    // The spec's delay: a timer per request, so a thousand waiting clients cost a thousand timers, not threads.
    app.addHook('onRequest', async (request) => {
      if (delayMs === 0 || request.method === 'OPTIONS') return;
      if ((request.routeOptions.config as { undelayed?: boolean }).undelayed) return;
      await sleep(delayMs);
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
        clientError(reply, error.status, error.message);
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

    const listItems = (name: string, request: FastifyRequest, reply: FastifyReply) => {
      const collection = store.collection(name);
      if (!collection) return notFound(reply);
      const query = request.query as Query;
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
        return send(reply, 200, pretty(result.items));
      } catch (error) {
        if (error instanceof QueryError) return clientError(reply, 400, error.message);
        throw error;
      }
    };

    const showItem = (name: string, id: string, reply: FastifyReply) => {
      const collection = store.collection(name);
      const item = collection && findById(collection, id);
      return item ? send(reply, 200, pretty(item)) : notFound(reply);
    };

    const createItem = async (name: string, body: Item, request: FastifyRequest, reply: FastifyReply) => {
      const collection = store.collection(name);
      if (!collection) return notFound(reply);
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

    app.get('/', { schema: { hide: true }, config: { undelayed: true } }, async (request, reply) => {
      const html = homePage(store.resources(), delayMs, origin(request));
      return reply.headers(htmlSecurityHeaders).type('text/html; charset=utf-8').send(html);
    });

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
      async (_request, reply) =>
        send(
          reply,
          200,
          cached('\0db', () => store.data),
        ),
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
      { schema: { summary: 'One item', tags, params: IdParams, response: { 200: ListItem, 404: Empty } } },
      async (request, reply) => showItem('list', request.params.id, reply),
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

    registerOtherResources(app, { listItems, showItem, createItem, changeItem, deleteItem, notFound });
  };
}

interface Handlers {
  listItems(name: string, request: FastifyRequest, reply: FastifyReply): FastifyReply;
  showItem(name: string, id: string, reply: FastifyReply): FastifyReply;
  createItem(name: string, body: Item, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  changeItem(
    name: string,
    id: string,
    body: Item,
    replace: boolean,
    reply: FastifyReply,
  ): Promise<FastifyReply>;
  deleteItem(name: string, id: string, reply: FastifyReply): Promise<FastifyReply>;
  notFound(reply: FastifyReply): FastifyReply;
}

/** Every other top-level array of the file gets the same routes, without the `list` item rules. */
function registerOtherResources(fastify: FastifyInstance, handlers: Handlers) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const hide = true;
  app.get(
    '/:resource',
    { schema: { hide, params: ResourceParams, querystring: CollectionQuery } },
    async (req, reply) => handlers.listItems(req.params.resource, req, reply),
  );
  app.get('/:resource/:id', { schema: { hide, params: ResourceIdParams } }, async (req, reply) =>
    handlers.showItem(req.params.resource, req.params.id, reply),
  );
  app.post('/:resource', { schema: { hide, params: ResourceParams, body: AnyObject } }, async (req, reply) =>
    handlers.createItem(req.params.resource, req.body, req, reply),
  );
  app.put(
    '/:resource/:id',
    { schema: { hide, params: ResourceIdParams, body: AnyObject } },
    async (req, reply) => handlers.changeItem(req.params.resource, req.params.id, req.body, true, reply),
  );
  app.patch(
    '/:resource/:id',
    { schema: { hide, params: ResourceIdParams, body: AnyObject } },
    async (req, reply) => handlers.changeItem(req.params.resource, req.params.id, req.body, false, reply),
  );
  app.delete('/:resource/:id', { schema: { hide, params: ResourceIdParams } }, async (req, reply) =>
    handlers.deleteItem(req.params.resource, req.params.id, reply),
  );
  // json-server answers `{}` with 404 for anything it has no route for (nested paths, PUT on a collection...).
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '*',
    schema: { hide },
    handler: async (_req, reply) => handlers.notFound(reply),
  });
}
