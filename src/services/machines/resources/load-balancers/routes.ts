import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import type { Clock } from '../../../../platform/service.js';
import { notFound, unprocessable } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses } from '../../schemas.js';
import type { MachinesSettings } from '../../settings.js';
import { presentLoadBalancer } from './present.js';
import { checkDropletIds, checkLoadBalancer, checkRules, sameRule, uniqueEntries } from './rules.js';
import {
  DropletsChange,
  LoadBalancerBody,
  LoadBalancerParams,
  loadBalancerList,
  loadBalancerOne,
  RulesChange,
} from './schemas.js';
import {
  addDroplets,
  checkReferences,
  deleteLoadBalancer,
  findLoadBalancer,
  insertLoadBalancer,
  listLoadBalancers,
  removeDroplets,
  replaceLoadBalancer,
  setRules,
} from './store.js';

const done = { 204: Type.Null({ description: 'Done' }), ...errorResponses };

function loadBalancerRoutes(app: TypedApp, db: Database, settings: MachinesSettings, clock: Clock) {
  const tags = ['load balancers'];
  const load = async (id: string) => {
    const row = await findLoadBalancer(db, id);
    if (!row) throw notFound();
    return row;
  };
  const show = async (id: string) => ({
    load_balancer: presentLoadBalancer(await load(id), settings.provisionMs, clock.now()),
  });

  app.post(
    '/v2/load_balancers',
    {
      config: { scopes: ['load_balancer:create'] },
      schema: {
        tags,
        summary: 'Create a load balancer (droplet_ids or tag); new, then active with an ip',
        body: LoadBalancerBody,
        response: { 202: loadBalancerOne, ...errorResponses },
      },
    },
    async (request, reply) => {
      const wanted = checkLoadBalancer(request.body);
      await checkReferences(db, wanted.region, wanted.dropletIds, wanted.forwarding_rules);
      const row = await insertLoadBalancer(db, wanted, new Date(clock.now()));
      reply.code(202);
      return { load_balancer: presentLoadBalancer(row, settings.provisionMs, clock.now()) };
    },
  );
  app.get(
    '/v2/load_balancers',
    {
      config: { scopes: ['load_balancer:read'] },
      schema: {
        tags,
        summary: 'List load balancers, oldest first',
        querystring: CatalogQuery,
        response: { 200: loadBalancerList, ...errorResponses },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { rows, total } = await listLoadBalancers(db, p.perPage, p.offset);
      return {
        load_balancers: rows.map((r) => presentLoadBalancer(r, settings.provisionMs, clock.now())),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );
  app.get(
    '/v2/load_balancers/:lb_id',
    {
      config: { scopes: ['load_balancer:read'] },
      schema: {
        tags,
        summary: 'Read a load balancer',
        params: LoadBalancerParams,
        response: { 200: loadBalancerOne, ...errorResponses },
      },
    },
    async (request) => show(request.params.lb_id),
  );
  app.put(
    '/v2/load_balancers/:lb_id',
    {
      config: { scopes: ['load_balancer:update'] },
      schema: {
        tags,
        summary: 'Replace a load balancer’s settings, rules and droplets (its region stays)',
        params: LoadBalancerParams,
        body: LoadBalancerBody,
        response: { 200: loadBalancerOne, ...errorResponses },
      },
    },
    async (request) => {
      const row = await load(request.params.lb_id);
      const wanted = checkLoadBalancer({ region: row.region, ...request.body });
      if (wanted.region !== row.region)
        throw unprocessable('The region of a load balancer cannot be changed.');
      await checkReferences(db, wanted.region, wanted.dropletIds, wanted.forwarding_rules);
      await replaceLoadBalancer(db, row.id, wanted);
      return show(row.id);
    },
  );
  app.delete(
    '/v2/load_balancers/:lb_id',
    {
      config: { scopes: ['load_balancer:delete'] },
      schema: { tags, summary: 'Delete a load balancer', params: LoadBalancerParams, response: done },
    },
    async (request, reply) => {
      await deleteLoadBalancer(db, (await load(request.params.lb_id)).id);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/v2/load_balancers/:lb_id/cache',
    {
      config: { scopes: ['load_balancer:delete'] },
      schema: {
        tags,
        summary: 'Purge the CDN cache (nothing is cached here: 204 for any load balancer)',
        params: LoadBalancerParams,
        response: done,
      },
    },
    async (request, reply) => {
      await load(request.params.lb_id);
      return reply.code(204).send(null);
    },
  );

  for (const add of [true, false]) {
    const method = add ? 'post' : 'delete';
    app[method](
      '/v2/load_balancers/:lb_id/droplets',
      {
        config: { scopes: ['load_balancer:update'] },
        schema: {
          tags,
          summary: `${add ? 'Add' : 'Remove'} droplets (not for a load balancer that follows a tag)`,
          params: LoadBalancerParams,
          body: DropletsChange,
          response: done,
        },
      },
      async (request, reply) => {
        const row = await load(request.params.lb_id);
        const ids = checkDropletIds(request.body?.droplet_ids);
        if (!ids.length) throw unprocessable('droplet_ids must name at least one droplet.');
        if (row.tag !== null)
          throw unprocessable(`This load balancer follows the tag ${row.tag}; tag droplets instead.`);
        if (add) await checkReferences(db, row.region, ids, []);
        await (add ? addDroplets : removeDroplets)(db, row.id, ids);
        return reply.code(204).send(null);
      },
    );
    app[method](
      '/v2/load_balancers/:lb_id/forwarding_rules',
      {
        config: { scopes: ['load_balancer:update'] },
        schema: {
          tags,
          summary: `${add ? 'Add' : 'Remove'} forwarding rules`,
          params: LoadBalancerParams,
          body: RulesChange,
          response: done,
        },
      },
      async (request, reply) => {
        const row = await load(request.params.lb_id);
        const given = checkRules(request.body?.forwarding_rules, true);
        const kept = row.forwarding_rules.filter((r) => !given.some((g) => sameRule(r, g)));
        const rules = add ? [...kept, ...given] : kept;
        if (!rules.length) throw unprocessable('A load balancer keeps at least one forwarding rule.');
        uniqueEntries(rules);
        if (add) await checkReferences(db, row.region, [], given);
        await setRules(db, row.id, rules);
        return reply.code(204).send(null);
      },
    );
  }
}

/** `/v2/load_balancers`: regional load balancers over droplets named directly or by tag. */
export const resource: Resource = {
  routes: (app, { db, settings, clock }) => loadBalancerRoutes(app, db, settings, clock),
};
