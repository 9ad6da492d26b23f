import { Type } from '@sinclair/typebox';
import { notFound, unprocessable } from '../../errors.js';
import type { Resource, ResourceContext } from '../../resource.js';
import { pagedList, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses } from '../../schemas.js';
import { presentAction } from '../actions/present.js';
import { ActionSchema, actionList } from '../actions/schemas.js';
import { listActions, requestTime } from '../actions/store.js';
import { VolumeParams } from '../volumes/schemas.js';
import { findVolume, findVolumeByName } from '../volumes/store.js';
import { startVolumeAction, VolumeActionBody } from './rules.js';

export function volumeActionRoutes(app: TypedApp, { db, settings, clock }: ResourceContext) {
  const tags = ['volumes'];
  const actionOne = Type.Object({ action: ActionSchema });
  const load = async (id: string) => {
    const volume = await findVolume(db, id);
    if (!volume) throw notFound();
    return volume;
  };

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
        requestTime(request),
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
      const result = await startVolumeAction(db, settings, volume, request.body, requestTime(request));
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
      return pagedList(
        request,
        'actions',
        (window) => listActions(db, { volumeId: volume.id, ...window }),
        (a) => presentAction(a, settings.provisionMs, clock.now()),
      );
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
      return { action: presentAction(rows[0], settings.provisionMs, clock.now()) };
    },
  );
}

export const resource: Resource = {
  routes: (app, ctx) => volumeActionRoutes(app, ctx),
};
