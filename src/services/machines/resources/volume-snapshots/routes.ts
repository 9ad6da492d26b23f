import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { pagedList } from '../../routing.js';
import { CatalogQuery, errorResponses } from '../../schemas.js';
import { snapshotList, snapshotOne } from '../snapshots/schemas.js';
import { deleteSnapshot, findSnapshot, listSnapshots, presentSnapshot } from '../snapshots/store.js';
import { createTag, tagSpellings } from '../tags/store.js';
import { VolumeParams } from '../volumes/schemas.js';
import { findVolume } from '../volumes/store.js';
import { checkCreateSnapshot } from './rules.js';
import { CreateVolumeSnapshot, VolumeSnapshotParams } from './schemas.js';
import { insertVolumeSnapshot } from './store.js';

/** Volume snapshots: taken of a volume, listed per volume, read and deleted by id; a new volume restores one. */
export const resource: Resource = {
  routes(app, { db, clock }) {
    const tags = ['volumes'];
    const loadVolume = async (id: string) => {
      const volume = await findVolume(db, id);
      if (!volume) throw notFound();
      return volume;
    };
    const loadSnapshot = async (id: string) => {
      const snapshot = await findSnapshot(db, id);
      if (snapshot?.resource_type !== 'volume') throw notFound();
      return snapshot;
    };

    app.post(
      '/v2/volumes/:volume_id/snapshots',
      {
        config: { scopes: ['block_storage_snapshot:create'] },
        schema: {
          tags,
          summary: 'Snapshot a volume',
          params: VolumeParams,
          body: CreateVolumeSnapshot,
          response: { 201: snapshotOne, ...errorResponses },
        },
      },
      async (request, reply) => {
        const volume = await loadVolume(request.params.volume_id);
        const { name, tags: given } = checkCreateSnapshot(request.body);
        const snapshotTags = await tagSpellings(db, given);
        const row = await insertVolumeSnapshot(db, volume, name, snapshotTags, new Date(clock.now()));
        for (const tag of snapshotTags) await createTag(db, tag);
        reply.code(201);
        return { snapshot: presentSnapshot(await loadSnapshot(row.id)) };
      },
    );
    app.get(
      '/v2/volumes/:volume_id/snapshots',
      {
        config: { scopes: ['block_storage_snapshot:read'] },
        schema: {
          tags,
          summary: "A volume's snapshots, oldest first",
          params: VolumeParams,
          querystring: CatalogQuery,
          response: { 200: snapshotList, ...errorResponses },
        },
      },
      async (request) => {
        const volume = await loadVolume(request.params.volume_id);
        return pagedList(
          request,
          'snapshots',
          (window) => listSnapshots(db, { volumeId: volume.id, ...window }),
          presentSnapshot,
        );
      },
    );
    app.get(
      '/v2/volumes/snapshots/:snapshot_id',
      {
        config: { scopes: ['block_storage_snapshot:read'] },
        schema: {
          tags,
          summary: 'A volume snapshot',
          params: VolumeSnapshotParams,
          response: { 200: snapshotOne, ...errorResponses },
        },
      },
      async (request) => ({ snapshot: presentSnapshot(await loadSnapshot(request.params.snapshot_id)) }),
    );
    app.delete(
      '/v2/volumes/snapshots/:snapshot_id',
      {
        config: { scopes: ['block_storage_snapshot:delete'] },
        schema: {
          tags,
          summary: 'Delete a volume snapshot',
          params: VolumeSnapshotParams,
          response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
        },
      },
      async (request, reply) => {
        await deleteSnapshot(db, await loadSnapshot(request.params.snapshot_id));
        return reply.code(204).send(null);
      },
    );
  },
};
