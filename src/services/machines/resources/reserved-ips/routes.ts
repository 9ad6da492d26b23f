import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import { publicOrigin } from '../../../../platform/request.js';
import type { Clock } from '../../../../platform/service.js';
import { notFound, unprocessable } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses, Meta, PageLinks } from '../../schemas.js';
import type { MachinesSettings } from '../../settings.js';
import { presentAction } from '../actions/present.js';
import { findAction } from '../actions/row.js';
import { ActionLink, ActionSchema, actionList } from '../actions/schemas.js';
import { insertAction, listActions } from '../actions/store.js';
import { findRegion } from '../catalog/data.js';
import { RegionSchema } from '../catalog/schemas.js';
import { presentMachine } from '../droplets/present.js';
import { MachineSchema } from '../droplets/schemas.js';
import { findMachine, type MachineRow } from '../droplets/store.js';
import { assignResources, findProject } from '../projects/store.js';
import {
  findReservedIp,
  LimitReached,
  listReservedIps,
  RESERVED_IP_LIMIT,
  type ReservedIpRow,
  releaseIp,
  reservedIpOf,
  reserveIp,
  setAssignment,
} from './store.js';

const ReservedIp = Type.Object({
  ip: Type.String(),
  region: RegionSchema,
  droplet: Type.Union([MachineSchema, Type.Null()]),
  locked: Type.Boolean(),
  project_id: Type.Optional(Type.String()),
});
const CreateBody = Type.Object({
  droplet_id: Type.Optional(Type.Integer()),
  region: Type.Optional(Type.String()),
  project_id: Type.Optional(Type.String()),
});
const ActionBody = Type.Object({ type: Type.String(), droplet_id: Type.Optional(Type.Integer()) });
// An IPv4 address (anything else, a NUL included, is a 404 before the database sees it).
const ipPattern = '^[0-9]{1,3}(\\.[0-9]{1,3}){3}$';
const IpParams = Type.Object({ reserved_ip: Type.String({ pattern: ipPattern }) });
const ActionParams = Type.Object({
  reserved_ip: Type.String({ pattern: ipPattern }),
  action_id: Type.String({ pattern: '^[0-9]{1,10}$' }),
});

function reservedIpRoutes(app: TypedApp, db: Database, settings: MachinesSettings, clock: Clock) {
  const tags = ['reserved IPs'];
  const load = async (ip: string) => {
    const row = await findReservedIp(db, ip);
    if (!row) throw notFound();
    return row;
  };
  /** Locked while its last action is in progress, as the provider's. */
  const present = async (row: ReservedIpRow) => {
    const machine = row.machine_id === null ? undefined : await findMachine(db, row.machine_id);
    const { rows } = await listActions(db, { reservedIp: row.ip, limit: 1, offset: 0 });
    const last = rows[0];
    return {
      ip: row.ip,
      region: findRegion(row.region) as NonNullable<ReturnType<typeof findRegion>>,
      droplet: machine ? presentMachine(machine, settings.provisionMs, clock.now()) : null,
      locked: last ? presentAction(last, settings.provisionMs, clock.now()).status === 'in-progress' : false,
      ...(row.project_id ? { project_id: row.project_id } : {}),
    };
  };
  const loadMachine = async (id: number | undefined) => {
    const machine = id === undefined ? undefined : await findMachine(db, id);
    if (!machine) throw unprocessable(`Droplet ${id} could not be found.`);
    return machine;
  };
  /** Assigning checks the region and that the droplet has no other reserved IP; the IP moves from any other. */
  const assign = async (row: ReservedIpRow, machine: MachineRow) => {
    if (machine.region !== row.region)
      throw unprocessable(`The reserved IP is in ${row.region} and the droplet in ${machine.region}.`);
    const held = await reservedIpOf(db, machine.id);
    if (held && held.ip !== row.ip) throw unprocessable(`Droplet ${machine.id} already has a reserved IP.`);
    await setAssignment(db, row.ip, machine.id);
    return record('assign_ip', row);
  };
  const record = async (type: string, row: ReservedIpRow) =>
    insertAction(db, {
      type,
      resourceId: null,
      resourceType: 'reserved_ip',
      region: row.region,
      params: { ip: row.ip },
      startedAt: new Date(clock.now()),
    });

  app.post(
    '/v2/reserved_ips',
    {
      config: { scopes: ['reserved_ip:create'] },
      schema: {
        tags,
        summary: 'Reserve an IP, in a region or assigned to a droplet',
        body: CreateBody,
        response: {
          202: Type.Object({
            reserved_ip: ReservedIp,
            links: Type.Object({
              droplets: Type.Optional(Type.Array(ActionLink)),
              actions: Type.Optional(Type.Array(ActionLink)),
            }),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { droplet_id, region, project_id } = request.body;
      if ((droplet_id === undefined) === (region === undefined))
        throw unprocessable('Give either droplet_id or region.');
      if (region !== undefined && !findRegion(region))
        throw unprocessable(`region ${JSON.stringify(region)} is not a valid region.`);
      const project = project_id === undefined ? undefined : await findProject(db, project_id);
      if (project_id !== undefined && !project)
        throw unprocessable(`Project ${project_id} could not be found.`);
      const machine = droplet_id === undefined ? undefined : await loadMachine(droplet_id);
      if (machine && (await reservedIpOf(db, machine.id)))
        throw unprocessable(`Droplet ${machine.id} already has a reserved IP.`);
      let ip: string;
      try {
        ip = await reserveIp(db, machine?.region ?? (region as string), null, new Date(clock.now()));
      } catch (error) {
        if (error instanceof LimitReached)
          throw unprocessable(`The account has reached its limit of ${RESERVED_IP_LIMIT} reserved IPs.`);
        throw error;
      }
      if (project) await assignResources(db, project.id, [`do:floatingip:${ip}`], new Date(clock.now()));
      const base = publicOrigin(request);
      let links = {};
      if (machine) {
        const action = await assign(await load(ip), machine);
        links = {
          droplets: [{ id: machine.id, rel: 'droplet', href: `${base}/v2/droplets/${machine.id}` }],
          actions: [{ id: action.id, rel: 'assign_ip', href: `${base}/v2/actions/${action.id}` }],
        };
      }
      reply.code(202);
      return { reserved_ip: await present(await load(ip)), links };
    },
  );
  app.get(
    '/v2/reserved_ips',
    {
      config: { scopes: ['reserved_ip:read'] },
      schema: {
        tags,
        summary: 'List reserved IPs',
        querystring: CatalogQuery,
        response: {
          200: Type.Object({ reserved_ips: Type.Array(ReservedIp), links: PageLinks, meta: Meta }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { rows, total } = await listReservedIps(db, p.perPage, p.offset);
      const shown = [];
      for (const row of rows) shown.push(await present(row));
      return { reserved_ips: shown, links: pageLinks(request, total, p.page, p.perPage), meta: { total } };
    },
  );
  app.get(
    '/v2/reserved_ips/:reserved_ip',
    {
      config: { scopes: ['reserved_ip:read'] },
      schema: {
        tags,
        summary: 'Read a reserved IP',
        params: IpParams,
        response: { 200: Type.Object({ reserved_ip: ReservedIp }), ...errorResponses },
      },
    },
    async (request) => ({ reserved_ip: await present(await load(request.params.reserved_ip)) }),
  );
  app.delete(
    '/v2/reserved_ips/:reserved_ip',
    {
      config: { scopes: ['reserved_ip:delete'] },
      schema: {
        tags,
        summary: 'Release a reserved IP (unassigning it)',
        params: IpParams,
        response: { 204: Type.Null({ description: 'Released' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await releaseIp(db, (await load(request.params.reserved_ip)).ip);
      reply.code(204);
      return null;
    },
  );

  app.post(
    '/v2/reserved_ips/:reserved_ip/actions',
    {
      config: { scopes: ['reserved_ip:update'] },
      schema: {
        tags,
        summary: 'Assign a reserved IP to a droplet, or unassign it',
        params: IpParams,
        body: ActionBody,
        response: { 201: Type.Object({ action: ActionSchema }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const row = await load(request.params.reserved_ip);
      const { type, droplet_id } = request.body;
      let action: Awaited<ReturnType<typeof record>>;
      if (type === 'assign') action = await assign(row, await loadMachine(droplet_id));
      else if (type === 'unassign') {
        if (row.machine_id === null) throw unprocessable('The reserved IP is not assigned to a droplet.');
        await setAssignment(db, row.ip, null);
        action = await record('unassign_ip', row);
      } else throw unprocessable('type must be assign or unassign.');
      reply.code(201);
      return { action: presentAction(action, settings.provisionMs, clock.now()) };
    },
  );
  app.get(
    '/v2/reserved_ips/:reserved_ip/actions',
    {
      config: { scopes: ['reserved_ip:read'] },
      schema: {
        tags,
        summary: 'List a reserved IP’s actions, newest first',
        params: IpParams,
        querystring: CatalogQuery,
        response: { 200: actionList, ...errorResponses },
      },
    },
    async (request) => {
      const row = await load(request.params.reserved_ip);
      const p = page(request.query);
      const { rows, total } = await listActions(db, {
        reservedIp: row.ip,
        limit: p.perPage,
        offset: p.offset,
      });
      return {
        actions: rows.map((a) => presentAction(a, settings.provisionMs, clock.now())),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );
  app.get(
    '/v2/reserved_ips/:reserved_ip/actions/:action_id',
    {
      config: { scopes: ['reserved_ip:read'] },
      schema: {
        tags,
        summary: 'Read one action of a reserved IP',
        params: ActionParams,
        response: { 200: Type.Object({ action: ActionSchema }), ...errorResponses },
      },
    },
    async (request) => {
      const row = await load(request.params.reserved_ip);
      const action = await findAction(db, Number(request.params.action_id));
      if (action?.resource_type !== 'reserved_ip' || action.params.ip !== row.ip) throw notFound();
      return { action: presentAction(action, settings.provisionMs, clock.now()) };
    },
  );
}

export const resource: Resource = {
  routes: (app, { db, settings, clock }) => reservedIpRoutes(app, db, settings, clock),
};
