import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import type { Clock } from '../../../../platform/service.js';
import { notFound, unprocessable } from '../../errors.js';
import type { Resource } from '../../resource.js';
import type { TypedApp } from '../../routing.js';
import { errorResponses } from '../../schemas.js';
import type { MachinesSettings } from '../../settings.js';
import { findRegion } from '../catalog/data.js';
import { tagPattern } from '../tags/rules.js';
import { createTag, tagSpellings } from '../tags/store.js';
import { presentUserImage } from './present.js';
import { ImageSchema } from './schemas.js';
import { deleteUserImage, findUserImage, insertCustomImage, updateUserImage } from './store.js';

/** The document's distributions; any other is accepted and kept as `Unknown`, as it says. */
const distributions = [
  'Arch Linux',
  'CentOS',
  'CoreOS',
  'Debian',
  'Fedora',
  'Fedora Atomic',
  'FreeBSD',
  'Gentoo',
  'openSUSE',
  'RancherOS',
  'Rocky Linux',
  'Ubuntu',
  'Unknown',
];
const distribution = (d: string | undefined) =>
  d === undefined ? undefined : distributions.includes(d) ? d : 'Unknown';

const CustomBody = Type.Object({
  name: Type.String(),
  url: Type.String(),
  region: Type.String(),
  distribution: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Array(Type.String())),
});
const UpdateBody = Type.Object({
  name: Type.Optional(Type.String()),
  distribution: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});
export const ImageParams = Type.Object({ image_id: Type.String({ pattern: '^[0-9]{1,10}$' }) });
const imageOne = Type.Object({ image: ImageSchema });

function checkName(name: string | undefined) {
  if (name !== undefined && (name.trim() === '' || name.length > 255))
    throw unprocessable('name must be 1 to 255 characters.');
}
function checkDescription(description: string | undefined) {
  if (description !== undefined && description.length > 1024)
    throw unprocessable('description may be at most 1024 characters.');
}

/**
 * Custom images (imported from a URL: nothing is downloaded here; the image is `NEW` for the provisioning time,
 * then `available`), and renaming or deleting the account's own images (snapshots, backups, custom images).
 */
function imageWriteRoutes(app: TypedApp, db: Database, settings: MachinesSettings, clock: Clock) {
  const timing = () => ({ provisionMs: settings.provisionMs, now: clock.now() });
  const tags = ['images'];
  const own = async (id: string) => {
    const row = await findUserImage(db, Number(id));
    if (!row) throw notFound();
    return row;
  };
  app.post(
    '/v2/images',
    {
      config: { scopes: ['image:create'] },
      schema: {
        tags,
        summary: 'Import a custom image from a URL',
        body: CustomBody,
        response: { 202: imageOne, ...errorResponses },
      },
    },
    async (request, reply) => {
      const b = request.body;
      checkName(b.name);
      checkDescription(b.description);
      if (!/^https?:\/\/[^\s/]+\/\S*$/.test(b.url))
        throw unprocessable('url must be an http or https URL of the image file.');
      if (!findRegion(b.region))
        throw unprocessable(`region ${JSON.stringify(b.region)} is not a valid region.`);
      for (const tag of b.tags ?? [])
        if (!tagPattern.test(tag)) throw unprocessable(`tag ${JSON.stringify(tag)} is not valid.`);
      const imageTags = await tagSpellings(db, [...new Set(b.tags ?? [])]);
      const row = await insertCustomImage(
        db,
        {
          name: b.name,
          url: b.url,
          region: b.region,
          distribution: distribution(b.distribution) ?? 'Unknown',
          description: b.description ?? '',
          tags: imageTags,
        },
        new Date(clock.now()),
      );
      for (const tag of imageTags) await createTag(db, tag);
      reply.code(202);
      return { image: presentUserImage(row, timing()) };
    },
  );
  app.put(
    '/v2/images/:image_id',
    {
      config: { scopes: ['image:update'] },
      schema: {
        tags,
        summary: 'Rename an image of the account, or change its distribution or description',
        params: ImageParams,
        body: UpdateBody,
        response: { 200: imageOne, ...errorResponses },
      },
    },
    async (request) => {
      const row = await own(request.params.image_id);
      const b = request.body;
      checkName(b.name);
      checkDescription(b.description);
      await updateUserImage(db, row.id, { ...b, distribution: distribution(b.distribution) });
      return { image: presentUserImage(await own(request.params.image_id), timing()) };
    },
  );
  app.delete(
    '/v2/images/:image_id',
    {
      config: { scopes: ['image:delete'] },
      schema: {
        tags,
        summary: 'Delete an image of the account (public images cannot be)',
        params: ImageParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteUserImage(db, (await own(request.params.image_id)).id);
      reply.code(204);
      return null;
    },
  );
}

export const imageWrites: Resource = {
  routes: (app, { db, settings, clock }) => imageWriteRoutes(app, db, settings, clock),
};
