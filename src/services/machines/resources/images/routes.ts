import { Type } from '@sinclair/typebox';
import type { Queryable } from '../../../../platform/database.js';
import type { Clock } from '../../../../platform/service.js';
import { notFound } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { paginated, type TypedApp } from '../../routing.js';
import { errorResponses, Meta, PageLinks } from '../../schemas.js';
import { findImage, type Image, images } from '../catalog/data.js';
import { presentUserImage } from './present.js';
import { ImageSchema, ImagesQuery } from './schemas.js';
import { findUserImage, listUserImages } from './store.js';

/** A catalog image by slug or id, else a snapshot or backup by id. */
export async function resolveImage(
  db: Queryable,
  ref: string | number,
  timing?: { provisionMs: number; now: number },
): Promise<Image | undefined> {
  const catalog = findImage(ref);
  if (catalog) return catalog;
  if (typeof ref === 'string' && !/^\d{1,10}$/.test(ref)) return undefined;
  const own = await findUserImage(db, Number(ref));
  return own ? presentUserImage(own, timing) : undefined;
}

/**
 * `/v2/images`: the public distribution images and the account's snapshots and backups. `type=distribution` lists
 * the former, `type=application` none (there are no one-click apps), `private=true` the latter.
 */
export function imageRoutes(app: TypedApp, db: Queryable, provisionMs: number, clock: Clock) {
  const tags = ['images'];
  app.get(
    '/v2/images',
    {
      config: { scopes: ['image:read'] },
      schema: {
        tags,
        summary: 'Images: distributions, and your snapshots and backups (type, private, tag_name filters)',
        querystring: ImagesQuery,
        response: {
          200: Type.Object({ images: Type.Array(ImageSchema), links: PageLinks, meta: Meta }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { type, tag_name: tag } = request.query;
      const own = (await listUserImages(db, { tag: tag || undefined })).map((row) =>
        presentUserImage(row, { provisionMs, now: clock.now() }),
      );
      let shown: Image[];
      if (request.query.private === true) shown = type === undefined ? own : [];
      else if (type === 'distribution') shown = tag ? [] : images;
      else if (type !== undefined) shown = [];
      else shown = [...(tag ? [] : images), ...own];
      const { items, links, meta } = paginated(request, shown, request.query);
      return { images: items, links, meta };
    },
  );
  app.get(
    '/v2/images/:image_id',
    {
      config: { scopes: ['image:read'] },
      schema: {
        tags,
        summary: 'One image by id, or a distribution image by slug',
        params: Type.Object({ image_id: Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{0,99}$' }) }),
        response: { 200: Type.Object({ image: ImageSchema }), ...errorResponses },
      },
    },
    async (request) => {
      const image = await resolveImage(db, request.params.image_id, { provisionMs, now: clock.now() });
      if (!image) throw notFound();
      return { image };
    },
  );
}

export const resource: Resource = {
  routes: (app, { db, settings, clock }) => imageRoutes(app, db, settings.provisionMs, clock),
};
