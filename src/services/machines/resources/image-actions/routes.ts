import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import type { Clock } from '../../../../platform/service.js';
import { notFound, unprocessable } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses } from '../../schemas.js';
import type { MachinesSettings } from '../../settings.js';
import { presentAction } from '../actions/present.js';
import { findAction } from '../actions/row.js';
import { ActionSchema, actionList } from '../actions/schemas.js';
import { insertAction, listActions } from '../actions/store.js';
import { findRegion } from '../catalog/data.js';
import { presentUserImage } from '../images/present.js';
import { convertImage, findUserImage, transferImage } from '../images/store.js';
import { ImageParams } from '../images/writes.js';

const ActionBody = Type.Object({ type: Type.String(), region: Type.Optional(Type.String()) });
const ActionParams = Type.Object({
  image_id: Type.String({ pattern: '^[0-9]{1,10}$' }),
  action_id: Type.String({ pattern: '^[0-9]{1,10}$' }),
});

/**
 * Image actions on the account's images: `transfer` copies it to another region, `convert` makes a backup a
 * snapshot. The change is made at once; the action is in progress for the provisioning time.
 */
function imageActionRoutes(app: TypedApp, db: Database, settings: MachinesSettings, clock: Clock) {
  const tags = ['images'];
  const own = async (id: string) => {
    const row = await findUserImage(db, Number(id));
    if (!row) throw notFound();
    return row;
  };
  app.post(
    '/v2/images/:image_id/actions',
    {
      config: { scopes: ['image:update'] },
      schema: {
        tags,
        summary: 'Transfer an image to a region, or convert a backup to a snapshot',
        params: ImageParams,
        body: ActionBody,
        response: { 201: Type.Object({ action: ActionSchema }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const row = await own(request.params.image_id);
      const { type, region } = request.body;
      if (
        presentUserImage(row, { provisionMs: settings.provisionMs, now: clock.now() }).status !== 'available'
      )
        throw unprocessable('The image is not available yet.');
      let actionRegion = row.region;
      if (type === 'transfer') {
        if (region === undefined || !findRegion(region))
          throw unprocessable(`region ${JSON.stringify(region ?? '')} is not a valid region.`);
        if (region === row.region || (row.transferred ?? []).includes(region))
          throw unprocessable(`The image is already available in ${region}.`);
        await transferImage(db, row.id, region);
        actionRegion = region;
      } else if (type === 'convert') {
        if (row.type !== 'backup') throw unprocessable('Only a backup can be converted to a snapshot.');
        await convertImage(db, row.id);
      } else throw unprocessable('type must be transfer or convert.');
      const action = await insertAction(db, {
        type,
        resourceId: row.id,
        resourceType: 'image',
        region: actionRegion,
        startedAt: new Date(clock.now()),
      });
      reply.code(201);
      return { action: presentAction(action, settings.provisionMs, clock.now()) };
    },
  );
  app.get(
    '/v2/images/:image_id/actions',
    {
      config: { scopes: ['image:read'] },
      schema: {
        tags,
        summary: 'An image’s actions, newest first',
        params: ImageParams,
        querystring: CatalogQuery,
        response: { 200: actionList, ...errorResponses },
      },
    },
    async (request) => {
      const row = await own(request.params.image_id);
      const p = page(request.query);
      const { rows, total } = await listActions(db, { imageId: row.id, limit: p.perPage, offset: p.offset });
      return {
        actions: rows.map((a) => presentAction(a, settings.provisionMs, clock.now())),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );
  app.get(
    '/v2/images/:image_id/actions/:action_id',
    {
      config: { scopes: ['image:read'] },
      schema: {
        tags,
        summary: 'One action of an image',
        params: ActionParams,
        response: { 200: Type.Object({ action: ActionSchema }), ...errorResponses },
      },
    },
    async (request) => {
      const row = await own(request.params.image_id);
      const action = await findAction(db, Number(request.params.action_id));
      if (action?.resource_type !== 'image' || action.resource_id !== row.id) throw notFound();
      return { action: presentAction(action, settings.provisionMs, clock.now()) };
    },
  );
}

export const resource: Resource = {
  routes: (app, { db, settings, clock }) => imageActionRoutes(app, db, settings, clock),
};
