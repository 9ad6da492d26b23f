import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import { apiError, badRequest, notFound } from '../../errors.js';
import type { Resource, ResourceContext } from '../../resource.js';
import { pagedList, type TypedApp, words } from '../../routing.js';
import { CatalogQuery, errorResponses, IdParams } from '../../schemas.js';
import { findMachine } from '../droplets/store.js';
import { tagSpellings } from '../tags/store.js';
import { presentFirewall } from './present.js';
import { checkFirewall, checkRules, checkTagsAndDroplets, ruleKey } from './rules.js';
import {
  DropletsChange,
  FirewallBody,
  FirewallParams,
  firewallList,
  firewallOne,
  RulesChange,
  TagsChange,
} from './schemas.js';
import {
  addDroplets,
  changeTags,
  deleteFirewall,
  type FirewallFields,
  type FirewallRow,
  findFirewall,
  insertFirewall,
  listFirewalls,
  missingReferences,
  nameTaken,
  removeDroplets,
  replaceFirewall,
  setRules,
} from './store.js';

const done = { 204: Type.Null({ description: 'Done' }), ...errorResponses };

/** Droplets and tags a firewall names must exist; its name must be free. */
async function checkReferences(db: Database, f: Partial<FirewallFields>, id?: string) {
  if (f.tags) f.tags = await tagSpellings(db, f.tags);
  const missing = await missingReferences(db, f.dropletIds ?? [], f.tags ?? []);
  if (missing.droplets.length) throw badRequest(`Droplet ${missing.droplets[0]} could not be found.`);
  if (missing.tags.length) throw badRequest(`Tag ${JSON.stringify(missing.tags[0])} does not exist.`);
  if (f.name && (await nameTaken(db, f.name, id))) throw apiError(409, 'conflict', 'duplicate name');
}

function firewallRoutes(app: TypedApp, { db, settings, clock }: ResourceContext) {
  const tags = ['firewalls'];
  const load = async (id: string) => {
    const firewall = await findFirewall(db, id);
    if (!firewall) throw notFound();
    return firewall;
  };
  const present = (row: FirewallRow) => presentFirewall(row, settings.provisionMs, clock.now());
  const show = async (id: string) => ({ firewall: present(await load(id)) });

  app.post(
    '/v2/firewalls',
    {
      config: { scopes: ['firewall:create'] },
      schema: {
        tags,
        summary: 'Create a firewall',
        body: FirewallBody,
        response: { 202: firewallOne, ...errorResponses },
      },
    },
    async (request, reply) => {
      const wanted = checkFirewall(request.body);
      await checkReferences(db, wanted);
      const firewall = await insertFirewall(db, wanted, new Date(clock.now()));
      reply.code(202);
      return { firewall: presentFirewall(firewall, settings.provisionMs, clock.now()) };
    },
  );
  app.get(
    '/v2/firewalls',
    {
      config: { scopes: ['firewall:read'] },
      schema: {
        tags,
        summary: 'List firewalls',
        querystring: CatalogQuery,
        response: { 200: firewallList, ...errorResponses },
      },
    },
    async (request) => pagedList(request, 'firewalls', (window) => listFirewalls(db, window), present),
  );
  app.get(
    '/v2/firewalls/:firewall_id',
    {
      config: { scopes: ['firewall:read'] },
      schema: {
        tags,
        summary: 'Read a firewall',
        params: FirewallParams,
        response: { 200: firewallOne, ...errorResponses },
      },
    },
    async (request) => show(request.params.firewall_id),
  );
  app.put(
    '/v2/firewalls/:firewall_id',
    {
      config: { scopes: ['firewall:update'] },
      schema: {
        tags,
        summary: 'Replace a firewall: name, rules, droplets and tags',
        params: FirewallParams,
        body: FirewallBody,
        response: { 200: firewallOne, ...errorResponses },
      },
    },
    async (request) => {
      const firewall = await load(request.params.firewall_id);
      const wanted = checkFirewall(request.body);
      await checkReferences(db, wanted, firewall.id);
      await replaceFirewall(db, firewall.id, wanted, new Date(clock.now()));
      return show(firewall.id);
    },
  );
  app.delete(
    '/v2/firewalls/:firewall_id',
    {
      config: { scopes: ['firewall:delete'] },
      schema: { tags, summary: 'Delete a firewall', params: FirewallParams, response: done },
    },
    async (request, reply) => {
      await deleteFirewall(db, (await load(request.params.firewall_id)).id);
      return reply.code(204).send(null);
    },
  );

  for (const add of [true, false]) {
    const method = add ? 'post' : 'delete';
    const verb = add ? 'Add' : 'Remove';
    app[method](
      '/v2/firewalls/:firewall_id/droplets',
      {
        config: { scopes: ['firewall:update'] },
        schema: {
          tags,
          summary: `${verb} droplets`,
          params: FirewallParams,
          body: DropletsChange,
          response: done,
        },
      },
      async (request, reply) => {
        const firewall = await load(request.params.firewall_id);
        const { dropletIds } = checkTagsAndDroplets(request.body);
        if (!dropletIds.length) throw badRequest('droplet_ids must name at least one droplet.');
        if (add) await checkReferences(db, { dropletIds });
        await (add ? addDroplets : removeDroplets)(db, firewall.id, dropletIds, new Date(clock.now()));
        return reply.code(204).send(null);
      },
    );
    app[method](
      '/v2/firewalls/:firewall_id/tags',
      {
        config: { scopes: ['firewall:update'] },
        schema: { tags, summary: `${verb} tags`, params: FirewallParams, body: TagsChange, response: done },
      },
      async (request, reply) => {
        const firewall = await load(request.params.firewall_id);
        const { tags: names } = checkTagsAndDroplets(request.body);
        if (!names.length) throw badRequest('tags must name at least one tag.');
        if (add) await checkReferences(db, { tags: names });
        await changeTags(db, firewall.id, names, add, new Date(clock.now()));
        return reply.code(204).send(null);
      },
    );
    app[method](
      '/v2/firewalls/:firewall_id/rules',
      {
        config: { scopes: ['firewall:update'] },
        schema: { tags, summary: `${verb} rules`, params: FirewallParams, body: RulesChange, response: done },
      },
      async (request, reply) => {
        const firewall = await load(request.params.firewall_id);
        const change = checkRules(request.body);
        const merge = (current: typeof change.inbound_rules, given: typeof change.inbound_rules) => {
          const keys = new Set(given.map(ruleKey));
          const rest = current.filter((r) => !keys.has(ruleKey(r)));
          return add ? [...rest, ...given] : rest;
        };
        await setRules(
          db,
          firewall.id,
          merge(firewall.inbound_rules, change.inbound_rules),
          merge(firewall.outbound_rules, change.outbound_rules),
          new Date(clock.now()),
        );
        return reply.code(204).send(null);
      },
    );
  }

  for (const w of words) {
    app.get(
      `/v2/${w.plural}/:id/firewalls`,
      {
        config: { scopes: ['firewall:read'] },
        schema: {
          tags: [w.tag],
          summary: `Firewalls that apply to a ${w.singular} (directly or by one of its tags)`,
          params: IdParams,
          querystring: CatalogQuery,
          response: { 200: firewallList, ...errorResponses },
        },
      },
      async (request) => {
        const machine = await findMachine(db, Number(request.params.id));
        if (!machine) throw notFound();
        return pagedList(
          request,
          'firewalls',
          (window) => listFirewalls(db, { machineId: machine.id, ...window }),
          present,
        );
      },
    );
  }
}

/** `/v2/firewalls`: rules applied to droplets named directly or by tag. */
export const resource: Resource = {
  routes: (app, ctx) => firewallRoutes(app, ctx),
};
