import { Type } from '@sinclair/typebox';
import { apiError, badRequest, notFound, unprocessable } from '../../errors.js';
import type { Resource, ResourceContext } from '../../resource.js';
import { pagedList, type TypedApp } from '../../routing.js';
import { errorResponses, Meta, PageLinks } from '../../schemas.js';
import { ActionSchema } from '../actions/schemas.js';
import { createTag, tagSpellings } from '../tags/store.js';
import { findVolumeSnapshot } from '../volume-snapshots/store.js';
import { checkCreate, presentVolume, VOLUME_LIMIT } from './rules.js';
import { CreateVolume, VolumeParams, VolumeQuery, VolumeSchema } from './schemas.js';
import {
  deleteVolume,
  findVolume,
  findVolumeByName,
  insertVolume,
  listVolumes,
  type VolumeRow,
} from './store.js';

export function volumeRoutes(app: TypedApp, { db, clock }: ResourceContext) {
  const tags = ['volumes'];
  const one = Type.Object({ volume: VolumeSchema });
  const _actionOne = Type.Object({ action: ActionSchema });
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
      const snapshotId = request.body.snapshot_id;
      const source = snapshotId ? await findVolumeSnapshot(db, snapshotId) : undefined;
      if (snapshotId && !source) throw notFound();
      const volumeTags = await tagSpellings(db, checkCreate(request.body, source));
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
          filesystem_type: source?.filesystem_type ?? b.filesystem_type ?? '',
          filesystem_label: source?.filesystem_label ?? b.filesystem_label ?? '',
          tags: volumeTags,
        },
        new Date(clock.now()),
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
    async (request) =>
      pagedList(
        request,
        'volumes',
        (window) =>
          listVolumes(db, {
            name: request.query.name || undefined,
            region: request.query.region || undefined,
            ...window,
          }),
        presentVolume,
      ),
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
}

export const resource: Resource = {
  routes: (app, ctx) => volumeRoutes(app, ctx),
};
