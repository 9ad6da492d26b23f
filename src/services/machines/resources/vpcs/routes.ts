import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import type { Clock } from '../../../../platform/service.js';
import { apiError, notFound, unprocessable } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses } from '../../schemas.js';
import { isoSeconds } from '../../time.js';
import { freeRange, overlaps } from './addresses.js';
import { presentPeering, presentVpc } from './present.js';
import { checkDescription, checkName, checkRange, checkRegion } from './rules.js';
import {
  MembersQuery,
  memberList,
  PeeringCreate,
  PeeringParams,
  PeeringRename,
  peeringList,
  peeringOne,
  VpcCreate,
  VpcParams,
  VpcPatch,
  VpcUpdate,
  vpcList,
  vpcOne,
} from './schemas.js';
import {
  deleteVpc,
  findPeering,
  findVpc,
  insertPeering,
  insertVpc,
  listMembers,
  listPeerings,
  listVpcs,
  memberCount,
  nameTaken,
  peeringConflict,
  renamePeering,
  takenRanges,
  updateVpc,
  vpcLock,
} from './store.js';

const conflict = (message: string) => apiError(409, 'conflict', message);

function vpcRoutes(app: TypedApp, db: Database, provisionMs: number, clock: Clock) {
  const tags = ['vpcs'];
  const load = async (id: string) => {
    const vpc = await findVpc(db, id);
    if (!vpc) throw notFound();
    return vpc;
  };

  app.post(
    '/v2/vpcs',
    {
      config: { scopes: ['vpc:create'] },
      schema: {
        tags,
        summary: 'Create a VPC',
        body: VpcCreate,
        response: { 201: vpcOne, ...errorResponses },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const name = checkName(b.name);
      const region = checkRegion(b.region);
      const description = checkDescription(b.description) ?? '';
      const wanted = b.ip_range === undefined ? undefined : checkRange(b.ip_range);
      const vpc = await db.transaction(async (tx) => {
        await tx.query(vpcLock);
        if (await nameTaken(tx, name)) throw conflict(`A VPC named ${JSON.stringify(name)} already exists.`);
        const taken = await takenRanges(tx);
        if (wanted && taken.some((t) => overlaps(t, wanted)))
          throw unprocessable(`ip_range ${b.ip_range} overlaps another VPC network of the account.`);
        const ipRange = b.ip_range ?? freeRange(taken);
        if (!ipRange) throw unprocessable('No free /20 network is left; give an ip_range.');
        return insertVpc(tx, { name, description, region, ipRange }, new Date(clock.now()));
      });
      reply.code(201);
      return { vpc: presentVpc(vpc) };
    },
  );
  app.get(
    '/v2/vpcs',
    {
      config: { scopes: ['vpc:read'] },
      schema: {
        tags,
        summary: 'List VPCs',
        querystring: CatalogQuery,
        response: { 200: vpcList, ...errorResponses },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { rows, total } = await listVpcs(db, p.perPage, p.offset);
      return {
        vpcs: rows.map(presentVpc),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );
  app.get(
    '/v2/vpcs/:vpc_id',
    {
      config: { scopes: ['vpc:read'] },
      schema: {
        tags,
        summary: 'Read a VPC',
        params: VpcParams,
        response: { 200: vpcOne, ...errorResponses },
      },
    },
    async (request) => ({ vpc: presentVpc(await load(request.params.vpc_id)) }),
  );

  /** PUT and PATCH: `default` may be set (the region's other default loses it), never unset. */
  const update = async (id: string, b: { name?: string; description?: string; default?: boolean }) => {
    const vpc = await load(id);
    const name = b.name === undefined ? undefined : checkName(b.name);
    const description = checkDescription(b.description);
    if (b.default === false && vpc.is_default)
      throw unprocessable('The default VPC cannot be unset; make another VPC of the region the default.');
    await db.transaction(async (tx) => {
      await tx.query(vpcLock);
      if (name && (await nameTaken(tx, name, id)))
        throw conflict(`A VPC named ${JSON.stringify(name)} already exists.`);
      await updateVpc(tx, id, { name, description, makeDefault: b.default === true });
    });
    return { vpc: presentVpc(await load(id)) };
  };
  app.put(
    '/v2/vpcs/:vpc_id',
    {
      config: { scopes: ['vpc:update'] },
      schema: {
        tags,
        summary: 'Replace a VPC’s name, description and default flag',
        params: VpcParams,
        body: VpcUpdate,
        response: { 200: vpcOne, ...errorResponses },
      },
    },
    // PUT replaces: a description left out is emptied.
    async (request) => update(request.params.vpc_id, { description: '', ...request.body }),
  );
  app.patch(
    '/v2/vpcs/:vpc_id',
    {
      config: { scopes: ['vpc:update'] },
      schema: {
        tags,
        summary: 'Change some of a VPC’s name, description and default flag',
        params: VpcParams,
        body: VpcPatch,
        response: { 200: vpcOne, ...errorResponses },
      },
    },
    async (request) => update(request.params.vpc_id, request.body),
  );
  app.delete(
    '/v2/vpcs/:vpc_id',
    {
      config: { scopes: ['vpc:delete'] },
      schema: {
        tags,
        summary: 'Delete a VPC that is not its region’s default and has no members',
        params: VpcParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const vpc = await load(request.params.vpc_id);
      // The document: deleting a default VPC or one with members is a 403.
      if (vpc.is_default) throw apiError(403, 'forbidden', 'Cannot delete the default VPC of a region.');
      if ((await memberCount(db, vpc.id)) > 0)
        throw apiError(403, 'forbidden', 'Cannot delete a VPC that still has members.');
      await deleteVpc(db, vpc.id);
      reply.code(204);
      return null;
    },
  );
  app.get(
    '/v2/vpcs/:vpc_id/members',
    {
      config: { scopes: ['vpc:read'] },
      schema: {
        tags,
        summary: 'List the resources in a VPC (droplets)',
        params: VpcParams,
        querystring: MembersQuery,
        response: { 200: memberList, ...errorResponses },
      },
    },
    async (request) => {
      const vpc = await load(request.params.vpc_id);
      const p = page(request.query);
      // Droplets are the only members here: any other resource type lists none.
      const type = request.query.resource_type;
      const { rows, total } =
        type === undefined || type === 'droplet'
          ? await listMembers(db, vpc.id, p.perPage, p.offset)
          : { rows: [], total: 0 };
      return {
        members: rows.map((m) => ({
          name: m.name,
          urn: `do:droplet:${m.id}`,
          created_at: isoSeconds(m.created_at),
        })),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );

  app.post(
    '/v2/vpcs/:vpc_id/peerings',
    {
      config: { scopes: ['vpc_peering:create'] },
      schema: {
        tags,
        summary: 'Peer a VPC with another',
        params: VpcParams,
        body: PeeringCreate,
        response: { 202: peeringOne, ...errorResponses },
      },
    },
    async (request, reply) => {
      const vpc = await load(request.params.vpc_id);
      const name = checkName(request.body.name, true);
      const other = await findVpc(db, request.body.vpc_id);
      if (!other) throw notFound();
      if (other.id === vpc.id) throw unprocessable('A VPC cannot be peered with itself.');
      const peering = await db.transaction(async (tx) => {
        await tx.query(vpcLock);
        const clash = await peeringConflict(tx, name, vpc.id, other.id);
        if (clash === 'name') throw conflict(`A VPC peering named ${JSON.stringify(name)} already exists.`);
        if (clash === 'pair') throw conflict('These VPCs are already peered.');
        return insertPeering(tx, name, vpc.id, other.id, new Date(clock.now()));
      });
      reply.code(202);
      return { peering: presentPeering(peering, provisionMs, clock.now()) };
    },
  );
  app.get(
    '/v2/vpcs/:vpc_id/peerings',
    {
      config: { scopes: ['vpc_peering:read'] },
      schema: {
        tags,
        summary: 'List a VPC’s peerings',
        params: VpcParams,
        querystring: CatalogQuery,
        response: { 200: peeringList, ...errorResponses },
      },
    },
    async (request) => {
      const vpc = await load(request.params.vpc_id);
      const p = page(request.query);
      const { rows, total } = await listPeerings(db, vpc.id, p.perPage, p.offset);
      return {
        peerings: rows.map((r) => presentPeering(r, provisionMs, clock.now())),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );
  app.patch(
    '/v2/vpcs/:vpc_id/peerings/:vpc_peering_id',
    {
      config: { scopes: ['vpc_peering:update'] },
      schema: {
        tags,
        summary: 'Rename a VPC peering',
        params: PeeringParams,
        body: PeeringRename,
        response: { 200: peeringOne, ...errorResponses },
      },
    },
    async (request) => {
      const { vpc_id, vpc_peering_id } = request.params;
      const found = await findPeering(db, vpc_id, vpc_peering_id);
      if (!found) throw notFound();
      const name = checkName(request.body.name, true);
      await db.transaction(async (tx) => {
        await tx.query(vpcLock);
        const [a, b] = found.vpc_ids as [string, string];
        if ((await peeringConflict(tx, name, a, b, found.id)) === 'name')
          throw conflict(`A VPC peering named ${JSON.stringify(name)} already exists.`);
        await renamePeering(tx, found.id, name);
      });
      return { peering: presentPeering({ ...found, name }, provisionMs, clock.now()) };
    },
  );
}

export const resource: Resource = {
  routes: (app, { db, settings, clock }) => vpcRoutes(app, db, settings.provisionMs, clock),
};
