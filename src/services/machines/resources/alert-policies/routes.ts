import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks } from '../../routing.js';
import { CatalogQuery, errorResponses } from '../../schemas.js';
import { checkPolicy } from './rules.js';
import { PolicyBody, PolicyParams, policyList, policyOne } from './schemas.js';
import {
  checkEntities,
  deletePolicy,
  findPolicy,
  insertPolicy,
  listPolicies,
  replacePolicy,
} from './store.js';

/** `/v2/monitoring/alerts`: alert policies on droplet and load balancer metrics. */
export const resource: Resource = {
  routes(app, { db, clock }) {
    const tags = ['monitoring'];
    const load = async (id: string) => {
      const row = await findPolicy(db, id);
      if (!row) throw notFound();
      return row;
    };
    app.post(
      '/v2/monitoring/alerts',
      {
        config: { scopes: ['monitoring:create'] },
        schema: {
          tags,
          summary: 'Create an alert policy (answered 200, as the provider does)',
          body: PolicyBody,
          response: { 200: policyOne, ...errorResponses },
        },
      },
      async (request) => {
        const wanted = checkPolicy(request.body);
        await checkEntities(db, wanted);
        return { policy: await insertPolicy(db, wanted, new Date(clock.now())) };
      },
    );
    app.get(
      '/v2/monitoring/alerts',
      {
        config: { scopes: ['monitoring:read'] },
        schema: {
          tags,
          summary: 'List alert policies, oldest first',
          querystring: CatalogQuery,
          response: { 200: policyList, ...errorResponses },
        },
      },
      async (request) => {
        const p = page(request.query);
        const { rows, total } = await listPolicies(db, p.perPage, p.offset);
        return { policies: rows, links: pageLinks(request, total, p.page, p.perPage), meta: { total } };
      },
    );
    app.get(
      '/v2/monitoring/alerts/:alert_uuid',
      {
        config: { scopes: ['monitoring:read'] },
        schema: {
          tags,
          summary: 'Read an alert policy',
          params: PolicyParams,
          response: { 200: policyOne, ...errorResponses },
        },
      },
      async (request) => ({ policy: await load(request.params.alert_uuid) }),
    );
    app.put(
      '/v2/monitoring/alerts/:alert_uuid',
      {
        config: { scopes: ['monitoring:update'] },
        schema: {
          tags,
          summary: 'Replace an alert policy',
          params: PolicyParams,
          body: PolicyBody,
          response: { 200: policyOne, ...errorResponses },
        },
      },
      async (request) => {
        const row = await load(request.params.alert_uuid);
        const wanted = checkPolicy(request.body);
        await checkEntities(db, wanted);
        return { policy: await replacePolicy(db, row.uuid, wanted) };
      },
    );
    app.delete(
      '/v2/monitoring/alerts/:alert_uuid',
      {
        config: { scopes: ['monitoring:delete'] },
        schema: {
          tags,
          summary: 'Delete an alert policy',
          params: PolicyParams,
          response: { 204: Type.Null({ description: 'Done' }), ...errorResponses },
        },
      },
      async (request, reply) => {
        await deletePolicy(db, (await load(request.params.alert_uuid)).uuid);
        return reply.code(204).send(null);
      },
    );
  },
};
