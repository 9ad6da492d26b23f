import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks } from '../../routing.js';
import { CatalogQuery, errorResponses } from '../../schemas.js';
import { presentEndpoint } from './present.js';
import { checkEndpoint, checkFiles } from './rules.js';
import { EndpointBody, EndpointParams, endpointList, endpointOne, PurgeBody } from './schemas.js';
import {
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  markPurged,
  updateEndpoint,
} from './store.js';

const done = { 204: Type.Null({ description: 'Done' }), ...errorResponses };

/** `/v2/cdn/endpoints`: CDN endpoints in front of Spaces buckets. */
export const resource: Resource = {
  routes(app, { db, clock }) {
    const tags = ['cdn endpoints'];
    const load = async (id: string) => {
      const row = await findEndpoint(db, id);
      if (!row) throw notFound();
      return row;
    };
    app.post(
      '/v2/cdn/endpoints',
      {
        config: { scopes: ['cdn:create'] },
        schema: {
          tags,
          summary: 'Create a CDN endpoint for a Spaces origin',
          body: EndpointBody,
          response: { 201: endpointOne, ...errorResponses },
        },
      },
      async (request, reply) => {
        const row = await insertEndpoint(db, checkEndpoint(request.body), new Date(clock.now()));
        reply.code(201);
        return { endpoint: presentEndpoint(row) };
      },
    );
    app.get(
      '/v2/cdn/endpoints',
      {
        config: { scopes: ['cdn:read'] },
        schema: {
          tags,
          summary: 'List CDN endpoints, oldest first',
          querystring: CatalogQuery,
          response: { 200: endpointList, ...errorResponses },
        },
      },
      async (request) => {
        const p = page(request.query);
        const { rows, total } = await listEndpoints(db, p.perPage, p.offset);
        return {
          endpoints: rows.map(presentEndpoint),
          links: pageLinks(request, total, p.page, p.perPage),
          meta: { total },
        };
      },
    );
    app.get(
      '/v2/cdn/endpoints/:cdn_id',
      {
        config: { scopes: ['cdn:read'] },
        schema: {
          tags,
          summary: 'Read a CDN endpoint',
          params: EndpointParams,
          response: { 200: endpointOne, ...errorResponses },
        },
      },
      async (request) => ({ endpoint: presentEndpoint(await load(request.params.cdn_id)) }),
    );
    app.put(
      '/v2/cdn/endpoints/:cdn_id',
      {
        config: { scopes: ['cdn:update'] },
        schema: {
          tags,
          summary: 'Change ttl, certificate_id and custom_domain (the fields given)',
          params: EndpointParams,
          body: EndpointBody,
          response: { 200: endpointOne, ...errorResponses },
        },
      },
      async (request) => {
        const row = await load(request.params.cdn_id);
        return {
          endpoint: presentEndpoint(await updateEndpoint(db, row.id, checkEndpoint(request.body ?? {}, row))),
        };
      },
    );
    app.delete(
      '/v2/cdn/endpoints/:cdn_id',
      {
        config: { scopes: ['cdn:delete'] },
        schema: { tags, summary: 'Delete a CDN endpoint', params: EndpointParams, response: done },
      },
      async (request, reply) => {
        await deleteEndpoint(db, (await load(request.params.cdn_id)).id);
        return reply.code(204).send(null);
      },
    );
    app.delete(
      '/v2/cdn/endpoints/:cdn_id/cache',
      {
        config: { scopes: ['cdn:delete'] },
        schema: {
          tags,
          summary: 'Purge cached files',
          params: EndpointParams,
          body: PurgeBody,
          response: done,
        },
      },
      async (request, reply) => {
        const row = await load(request.params.cdn_id);
        checkFiles(request.body?.files);
        await markPurged(db, row.id, new Date(clock.now()));
        return reply.code(204).send(null);
      },
    );
  },
};
