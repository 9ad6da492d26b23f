import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import { notFound } from '../../errors.js';
import { paginated, type TypedApp, type Word } from '../../routing.js';
import { CatalogQuery, errorResponses, IdParams, Meta, PageLinks } from '../../schemas.js';
import { isoSeconds } from '../../time.js';
import { kernels } from '../catalog/data.js';
import type { UserImageRow } from '../images/row.js';
import { listUserImages } from '../images/store.js';
import { envelopes, KernelSchema } from './schemas.js';
import { findMachine } from './store.js';

const SnapshotSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Type.String(),
  regions: Type.Array(Type.String()),
  min_disk_size: Type.Integer(),
  size_gigabytes: Type.Number(),
  type: Type.String(),
});

const presentSnapshot = (image: UserImageRow) => ({
  id: image.id,
  name: image.name,
  created_at: isoSeconds(new Date(image.created_at)),
  regions: [image.region],
  min_disk_size: image.min_disk_size,
  size_gigabytes: Number(image.size_gigabytes),
  type: image.type,
});

/** A machine's kernels, snapshots, backups and neighbors. */
export function machineExtraRoutes(app: TypedApp, db: Database, w: Word) {
  const tags = [w.tag];
  const config = { scopes: ['droplet:read'] } as const;
  const existing = async (id: string) => {
    const machine = await findMachine(db, Number(id));
    if (!machine) throw notFound();
    return machine;
  };

  app.get(
    `/v2/${w.plural}/:id/kernels`,
    {
      config,
      schema: {
        tags,
        summary: `Kernels the ${w.singular} can switch to (change_kernel)`,
        params: IdParams,
        querystring: CatalogQuery,
        response: {
          200: Type.Object({ kernels: Type.Array(KernelSchema), links: PageLinks, meta: Meta }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      await existing(request.params.id);
      const { items, links, meta } = paginated(request, kernels, request.query);
      return { kernels: items, links, meta };
    },
  );

  for (const [kind, type] of [
    ['snapshots', 'snapshot'],
    ['backups', 'backup'],
  ] as const) {
    app.get(
      `/v2/${w.plural}/:id/${kind}`,
      {
        config,
        schema: {
          tags,
          summary: `The ${w.singular}'s ${kind}`,
          params: IdParams,
          querystring: CatalogQuery,
          response: {
            200: Type.Object({ [kind]: Type.Array(SnapshotSchema), links: PageLinks, meta: Meta }),
            ...errorResponses,
          },
        },
      },
      async (request) => {
        const machine = await existing(request.params.id);
        const images = await listUserImages(db, { type, machineId: machine.id });
        const { items, links, meta } = paginated(request, images.map(presentSnapshot), request.query);
        return { [kind]: items, links, meta };
      },
    );
  }

  const { list } = envelopes(w.singular, w.plural);
  app.get(
    `/v2/${w.plural}/:id/neighbors`,
    {
      config,
      schema: {
        tags,
        summary: `${w.title}s on the same physical host (each runs on its own here, so none)`,
        params: IdParams,
        response: { 200: Type.Object({ [w.plural]: list.properties[w.plural] }), ...errorResponses },
      },
    },
    async (request) => {
      await existing(request.params.id);
      return { [w.plural]: [] };
    },
  );
}
