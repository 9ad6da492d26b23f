import { Type } from '@sinclair/typebox';
import type { Database } from '../../platform/database.js';
import { VOLUME_LIMIT } from './account.js';
import { listActions } from './actions-store.js';
import { apiError, badRequest, notFound, unprocessable } from './errors.js';
import { presentAction } from './present.js';
import { page, pageLinks, type TypedApp } from './routing.js';
import { ActionSchema, actionList, CatalogQuery, errorResponses, Meta, PageLinks } from './schemas.js';
import type { MachinesSettings } from './settings.js';
import { createTag } from './tags-store.js';
import {
  CreateVolume,
  checkCreate,
  presentVolume,
  startVolumeAction,
  VolumeActionBody,
  VolumeParams,
  VolumeQuery,
  VolumeSchema,
} from './volume-rules.js';
import {
  deleteVolume,
  findVolume,
  findVolumeByName,
  insertVolume,
  listVolumes,
  type VolumeRow,
} from './volumes-store.js';

export function volumeRoutes(app: TypedApp, db: Database, settings: MachinesSettings) {
  const tags = ['volumes'];
  const one = Type.Object({ volume: VolumeSchema });
  const actionOne = Type.Object({ action: ActionSchema });
  const deleted = { 204: Type.Null({ description: 'Deleted' }), ...errorResponses };
  const load = async (id: string) => {
    const volume = await findVolume(db, id);
    if (!volume) throw notFound();
    return volume;
  };

  app.post(
    '/v2/volumes',
    {
      config: { scopes: ['block_storage:create'] },
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
      config: { scopes: ['block_storage:read'] },
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
      config: { scopes: ['block_storage:read'] },
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
      config: { scopes: ['block_storage:delete'] },
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
      config: { scopes: ['block_storage:delete'] },
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
      config: { scopes: ['block_storage_action:create'] },
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
      config: { scopes: ['block_storage_action:create'] },
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
      config: { scopes: ['block_storage_action:read'] },
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
      config: { scopes: ['block_storage_action:read'] },
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
