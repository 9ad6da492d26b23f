import { Type } from '@sinclair/typebox';
import type { Database } from '../../platform/database.js';
import { apiError, badRequest, notFound, unprocessable } from './errors.js';
import { VOLUME_LIMIT } from './account.js';
import { findRegion } from './catalog.js';
import { insertAction, listActions } from './actions-store.js';
import { presentAction, isoSeconds } from './present.js';
import { page, pageLinks, type TypedApp } from './routing.js';
import {
  ActionSchema,
  actionList,
  CatalogQuery,
  errorResponses,
  Meta,
  PageLinks,
  RegionSchema,
} from './schemas.js';
import type { MachinesSettings } from './settings.js';
import { tagPattern } from './tags.js';
import { createTag } from './tags-store.js';
import { findMachine } from './store.js';
import {
  deleteVolume,
  findVolume,
  findVolumeByName,
  insertVolume,
  listVolumes,
  type VolumeRow,
  volumeBusy,
} from './volumes-store.js';

const VolumeSchema = Type.Object({
  id: Type.String(),
  droplet_ids: Type.Array(Type.Integer()),
  name: Type.String(),
  description: Type.String(),
  size_gigabytes: Type.Integer(),
  created_at: Type.String(),
  tags: Type.Array(Type.String()),
  region: RegionSchema,
  filesystem_type: Type.String(),
  filesystem_label: Type.String(),
});
const VolumeParams = Type.Object({ volume_id: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }) });
const VolumeQuery = Type.Object({
  ...CatalogQuery.properties,
  name: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
  region: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
});
const CreateVolume = Type.Object({
  name: Type.Optional(Type.String()),
  size_gigabytes: Type.Optional(Type.Integer()),
  region: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  filesystem_type: Type.Optional(Type.String()),
  filesystem_label: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
});
const VolumeActionBody = Type.Object({
  type: Type.String(),
  droplet_id: Type.Optional(Type.Integer()),
  region: Type.Optional(Type.String()),
  size_gigabytes: Type.Optional(Type.Integer()),
  volume_name: Type.Optional(Type.String()),
});
const volumeName = /^[a-z][a-z0-9-]{0,63}$/;
const MAX_GB = 16_384;

const presentVolume = (v: VolumeRow) => ({
  id: v.id,
  droplet_ids: v.machine_id === null ? [] : [v.machine_id],
  name: v.name,
  description: v.description,
  size_gigabytes: v.size_gigabytes,
  created_at: isoSeconds(v.created_at),
  tags: v.tags,
  region: findRegion(v.region),
  filesystem_type: v.filesystem_type,
  filesystem_label: v.filesystem_label,
});

function checkCreate(body: typeof CreateVolume.static) {
  if (!body.name || !volumeName.test(body.name))
    throw unprocessable('name must be lowercase letters, numbers and "-", start with a letter, at most 64.');
  if (body.size_gigabytes === undefined || body.size_gigabytes < 1 || body.size_gigabytes > MAX_GB)
    throw unprocessable(`size_gigabytes must be between 1 and ${MAX_GB}.`);
  if (!body.region || !findRegion(body.region))
    throw unprocessable('You specified an invalid region for volume creation.');
  if (body.filesystem_type && body.filesystem_type !== 'ext4' && body.filesystem_type !== 'xfs')
    throw unprocessable('filesystem_type must be ext4 or xfs.');
  const tags = [...new Set(body.tags ?? [])];
  for (const tag of tags)
    if (!tagPattern.test(tag)) throw unprocessable(`You specified an invalid tag (${JSON.stringify(tag)}).`);
  return tags;
}

/** Checks an attach, detach or resize against the volume as it is and records it; it takes effect on completion. */
async function startVolumeAction(
  db: Database,
  settings: MachinesSettings,
  volume: VolumeRow,
  body: typeof VolumeActionBody.static,
) {
  const now = new Date();
  if (await volumeBusy(db, volume.id, new Date(now.getTime() - settings.provisionMs)))
    throw unprocessable('The volume already has a pending action.');
  const params: Record<string, unknown> = { volume_id: volume.id };
  let type: string;
  if (body.type === 'attach' || body.type === 'detach') {
    if (body.droplet_id === undefined) throw unprocessable('droplet_id is required.');
    const machine = await findMachine(db, body.droplet_id);
    if (!machine) throw unprocessable(`Droplet ${body.droplet_id} could not be found.`);
    if (body.type === 'attach') {
      if (volume.machine_id !== null) throw unprocessable('The volume is already attached to a droplet.');
      if (machine.region !== volume.region)
        throw unprocessable('The volume and the droplet must be in the same region.');
    } else if (volume.machine_id !== body.droplet_id) {
      throw unprocessable(`The volume is not attached to droplet ${body.droplet_id}.`);
    }
    params.droplet_id = body.droplet_id;
    type = `${body.type}_volume`;
  } else if (body.type === 'resize') {
    if (
      body.size_gigabytes === undefined ||
      body.size_gigabytes <= volume.size_gigabytes ||
      body.size_gigabytes > MAX_GB
    )
      throw unprocessable(
        `size_gigabytes must be larger than ${volume.size_gigabytes} and at most ${MAX_GB}.`,
      );
    params.size_gigabytes = body.size_gigabytes;
    type = 'resize_volume';
  } else {
    throw unprocessable('The action type must be attach, detach or resize.');
  }
  const action = await insertAction(db, {
    type,
    resourceId: null,
    resourceType: 'volume',
    region: volume.region,
    params,
    startedAt: now,
  });
  return { action: presentAction(action, settings.provisionMs) };
}

/** `/v2/volumes`: block storage, attached to machines through actions (or at machine creation). */
export function volumeRoutes(app: TypedApp, db: Database, settings: MachinesSettings) {
  const tags = ['volumes'];
  const one = Type.Object({ volume: VolumeSchema });
  const actionOne = Type.Object({ action: ActionSchema });
  const read = { scope: 'machine:read' } as const;
  const write = { scope: 'machine:create' } as const;
  const remove = { scope: 'machine:delete' } as const;
  const deleted = { 204: Type.Null({ description: 'Deleted' }), ...errorResponses };
  const load = async (id: string) => {
    const volume = await findVolume(db, id);
    if (!volume) throw notFound();
    return volume;
  };

  app.post(
    '/v2/volumes',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a volume',
        body: CreateVolume,
        response: { 201: one, ...errorResponses },
      },
    },
    async (request, reply) => {
      const volumeTags = checkCreate(request.body);
      const { total } = await listVolumes(db, { limit: 1, offset: 0 });
      if (total >= VOLUME_LIMIT)
        throw unprocessable(`creating this volume will exceed your volume limit of ${VOLUME_LIMIT}`);
      const b = request.body;
      const volume = await insertVolume(
        db,
        {
          name: b.name as string,
          region: b.region as string,
          size_gigabytes: b.size_gigabytes as number,
          description: b.description ?? '',
          filesystem_type: b.filesystem_type ?? '',
          filesystem_label: b.filesystem_label ?? '',
          tags: volumeTags,
        },
        new Date(),
      );
      if (!volume) throw apiError(409, 'conflict', `A volume named ${b.name} already exists in ${b.region}.`);
      for (const tag of volumeTags) await createTag(db, tag);
      reply.code(201);
      return { volume: presentVolume(volume) };
    },
  );

  app.get(
    '/v2/volumes',
    {
      config: read,
      schema: {
        tags,
        summary: 'List volumes (name and region filters)',
        querystring: VolumeQuery,
        response: {
          200: Type.Object({ volumes: Type.Array(VolumeSchema), links: PageLinks, meta: Meta }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { rows, total } = await listVolumes(db, {
        name: request.query.name || undefined,
        region: request.query.region || undefined,
        limit: p.perPage,
        offset: p.offset,
      });
      return {
        volumes: rows.map(presentVolume),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );

  app.get(
    '/v2/volumes/:volume_id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Read a volume',
        params: VolumeParams,
        response: { 200: one, ...errorResponses },
      },
    },
    async (request) => ({ volume: presentVolume(await load(request.params.volume_id)) }),
  );

  const removeVolume = async (volume: VolumeRow) => {
    if (volume.machine_id !== null)
      throw apiError(409, 'conflict', 'The volume is attached to a droplet; detach it first.');
    await deleteVolume(db, volume.id);
  };
  app.delete(
    '/v2/volumes/:volume_id',
    {
      config: remove,
      schema: { tags, summary: 'Delete a detached volume', params: VolumeParams, response: deleted },
    },
    async (request, reply) => {
      await removeVolume(await load(request.params.volume_id));
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/v2/volumes',
    {
      config: remove,
      schema: {
        tags,
        summary: 'Delete a detached volume by name and region',
        querystring: VolumeQuery,
        response: deleted,
      },
    },
    async (request, reply) => {
      const { name, region } = request.query;
      if (!name || !region) throw badRequest('name and region are required to delete a volume by name');
      const volume = await findVolumeByName(db, name, region);
      if (!volume) throw notFound();
      await removeVolume(volume);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v2/volumes/:volume_id/actions',
    {
      config: write,
      schema: {
        tags,
        summary: 'Attach, detach or resize a volume',
        params: VolumeParams,
        body: VolumeActionBody,
        response: { 202: actionOne, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await startVolumeAction(
        db,
        settings,
        await load(request.params.volume_id),
        request.body,
      );
      reply.code(202);
      return result;
    },
  );
  app.post(
    '/v2/volumes/actions',
    {
      config: write,
      schema: {
        tags,
        summary: 'Attach or detach a volume named by volume_name and region',
        body: VolumeActionBody,
        response: { 202: actionOne, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { volume_name: name, region } = request.body;
      if (!name) throw unprocessable('volume_name is required.');
      const volume = await findVolumeByName(db, name, region || undefined);
      if (!volume) throw notFound();
      const result = await startVolumeAction(db, settings, volume, request.body);
      reply.code(202);
      return result;
    },
  );
  app.get(
    '/v2/volumes/:volume_id/actions',
    {
      config: read,
      schema: {
        tags,
        summary: "A volume's actions, newest first",
        params: VolumeParams,
        querystring: CatalogQuery,
        response: { 200: actionList, ...errorResponses },
      },
    },
    async (request) => {
      const volume = await load(request.params.volume_id);
      const p = page(request.query);
      const { rows, total } = await listActions(db, {
        volumeId: volume.id,
        limit: p.perPage,
        offset: p.offset,
      });
      return {
        actions: rows.map((a) => presentAction(a, settings.provisionMs)),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );
  app.get(
    '/v2/volumes/:volume_id/actions/:action_id',
    {
      config: read,
      schema: {
        tags,
        summary: "One of a volume's actions",
        params: Type.Object({
          ...VolumeParams.properties,
          action_id: Type.String({ pattern: '^[0-9]{1,10}$' }),
        }),
        response: { 200: actionOne, ...errorResponses },
      },
    },
    async (request) => {
      const volume = await load(request.params.volume_id);
      const { rows } = await db.query<Parameters<typeof presentAction>[0]>(
        `SELECT id, type, resource_id, resource_type, region, started_at, params FROM machines.actions
         WHERE id = $1 AND params->>'volume_id' = $2`,
        [Number(request.params.action_id), volume.id],
      );
      if (!rows[0]) throw notFound();
      return { action: presentAction(rows[0], settings.provisionMs) };
    },
  );
}
