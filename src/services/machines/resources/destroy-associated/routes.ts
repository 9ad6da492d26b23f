import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import type { Clock } from '../../../../platform/service.js';
import { apiError, notFound, unprocessable } from '../../errors.js';
import type { Resource } from '../../resource.js';
import type { TypedApp } from '../../routing.js';
import { errorResponses, IdParams } from '../../schemas.js';
import type { MachinesSettings } from '../../settings.js';
import { isoSeconds, isProvisioned } from '../../time.js';
import { findMachine } from '../droplets/store.js';
import {
  type AssociatedSet,
  associatedOf,
  destroyWith,
  findDestroyRequest,
  type Kind,
  kinds,
} from './store.js';

const Associated = Type.Array(Type.Object({ id: Type.String(), name: Type.String(), cost: Type.String() }));
const Destroyed = Type.Object({
  id: Type.String(),
  name: Type.String(),
  destroyed_at: Type.Optional(Type.String()),
});
const SelectiveBody = Type.Object({
  reserved_ips: Type.Optional(Type.Array(Type.String())),
  floating_ips: Type.Optional(Type.Array(Type.String())),
  snapshots: Type.Optional(Type.Array(Type.String())),
  volumes: Type.Optional(Type.Array(Type.String())),
  volume_snapshots: Type.Optional(Type.Array(Type.String())),
});
// 202 with no body, as the document's `accepted` response (an undefined payload is sent empty).
const accepted = { 202: Type.Unknown({ description: 'Accepted: no body' }), ...errorResponses };
// Every destroy (droplet:delete) also needs the delete scopes of what it may take with it, as the document says.
const destroyScopes = [
  'droplet:delete',
  'block_storage:delete',
  'block_storage_snapshot:delete',
  'image:delete',
  'reserved_ip:delete',
] as const;

/**
 * Destroying a droplet with its associated resources: its reserved IP (also listed as `floating_ips`, the
 * provider's older name), snapshots, attached volumes and their snapshots. Everything chosen is deleted at once;
 * the request's status shows it destroyed once the provisioning time has passed.
 */
function destroyRoutes(app: TypedApp, db: Database, settings: MachinesSettings, clock: Clock) {
  const tags = ['droplets (original word)'];
  const base = '/v2/droplets/:id/destroy_with_associated_resources';
  const load = async (id: string) => {
    const machine = await findMachine(db, Number(id));
    if (!machine) throw notFound();
    return machine;
  };
  const present = (set: AssociatedSet) => ({ ...set, floating_ips: set.reserved_ips });

  app.get(
    base,
    {
      config: { scopes: ['droplet:read'] },
      schema: {
        tags,
        summary: 'What destroying the droplet may take with it, and what each costs a month when kept',
        params: IdParams,
        response: {
          200: Type.Object(Object.fromEntries([...kinds, 'floating_ips'].map((k) => [k, Associated]))),
          ...errorResponses,
        },
      },
    },
    async (request) => present(await associatedOf(db, (await load(request.params.id)).id)),
  );
  app.delete(
    `${base}/selective`,
    {
      config: { scopes: destroyScopes },
      schema: {
        tags,
        summary: 'Destroy the droplet and the associated resources named',
        params: IdParams,
        body: Type.Optional(SelectiveBody),
        response: accepted,
      },
    },
    async (request, reply) => {
      const machine = await load(request.params.id);
      const associated = await associatedOf(db, machine.id);
      const body = request.body ?? {};
      const wanted: Record<Kind, string[]> = {
        reserved_ips: [...(body.reserved_ips ?? []), ...(body.floating_ips ?? [])],
        snapshots: body.snapshots ?? [],
        volumes: body.volumes ?? [],
        volume_snapshots: body.volume_snapshots ?? [],
      };
      const chosen = {} as AssociatedSet;
      for (const kind of kinds) {
        for (const id of wanted[kind]) {
          if (!associated[kind].some((r) => r.id === id))
            throw unprocessable(
              `${kind}: ${JSON.stringify(id)} is not associated with droplet ${machine.id}.`,
            );
        }
        chosen[kind] = associated[kind].filter((r) => wanted[kind].includes(r.id));
      }
      await destroyWith(db, machine, chosen, new Date(clock.now()));
      return reply.code(202).send();
    },
  );
  app.delete(
    `${base}/dangerous`,
    {
      config: { scopes: destroyScopes },
      schema: {
        tags,
        summary: 'Destroy the droplet and every associated resource (X-Dangerous: true)',
        params: IdParams,
        response: accepted,
      },
    },
    async (request, reply) => {
      const machine = await load(request.params.id);
      if (String(request.headers['x-dangerous']).toLowerCase() !== 'true')
        throw apiError(
          412,
          'precondition_failed',
          'Destroying a droplet with all its associated resources needs the header X-Dangerous: true.',
        );
      await destroyWith(db, machine, await associatedOf(db, machine.id), new Date(clock.now()));
      return reply.code(202).send();
    },
  );

  const requestOf = async (id: string) => {
    const found = await findDestroyRequest(db, Number(id));
    if (!found) throw notFound();
    return found;
  };
  app.get(
    `${base}/status`,
    {
      config: { scopes: ['droplet:delete'] },
      schema: {
        tags,
        summary: 'The status of a destroy with associated resources',
        params: IdParams,
        response: {
          200: Type.Object({
            droplet: Destroyed,
            resources: Type.Object(
              Object.fromEntries([...kinds, 'floating_ips'].map((k) => [k, Type.Array(Destroyed)])),
            ),
            completed_at: Type.Optional(Type.String()),
            failures: Type.Integer(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const found = await requestOf(request.params.id);
      const done = isProvisioned(new Date(found.started_at), settings.provisionMs, clock.now());
      const at = done
        ? { destroyed_at: isoSeconds(new Date(new Date(found.started_at).getTime() + settings.provisionMs)) }
        : {};
      const resources = Object.fromEntries(
        kinds.map((k) => [k, found.resources[k].map((r) => ({ ...r, ...at }))]),
      );
      return {
        droplet: { id: String(found.machine_id), name: found.machine_name, ...at },
        resources: { ...resources, floating_ips: resources.reserved_ips },
        ...(done ? { completed_at: at.destroyed_at } : {}),
        failures: 0,
      };
    },
  );
  app.post(
    `${base}/retry`,
    {
      config: { scopes: destroyScopes, bodiless: true },
      schema: {
        tags,
        summary: 'Retry the resources a destroy failed to destroy (none fail here)',
        params: IdParams,
        response: accepted,
      },
    },
    async (request, reply) => {
      const found = await requestOf(request.params.id);
      // The document: a retry while the destroy is in progress is a 409.
      if (!isProvisioned(new Date(found.started_at), settings.provisionMs, clock.now()))
        throw apiError(409, 'conflict', 'A destroy of this droplet is in progress.');
      return reply.code(202).send();
    },
  );
}

export const resource: Resource = {
  routes: (app, { db, settings, clock }) => destroyRoutes(app, db, settings, clock),
};
