import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { pagedList } from '../../routing.js';
import { errorResponses } from '../../schemas.js';
import { SnapshotParams, SnapshotsQuery, snapshotList, snapshotOne } from './schemas.js';
import { deleteSnapshot, findSnapshot, listSnapshots, presentSnapshot } from './store.js';

/** `/v2/snapshots`: the droplet snapshots (the machines' snapshot images) and the volume snapshots together. */
export const resource: Resource = {
  routes(app, { db }) {
    const tags = ['snapshots'];
    app.get(
      '/v2/snapshots',
      {
        config: { scopes: ['snapshot:read'] },
        schema: {
          tags,
          summary: 'Droplet and volume snapshots, oldest first (resource_type filter)',
          querystring: SnapshotsQuery,
          response: { 200: snapshotList, ...errorResponses },
        },
      },
      async (request) =>
        pagedList(
          request,
          'snapshots',
          (window) => listSnapshots(db, { type: request.query.resource_type, ...window }),
          presentSnapshot,
        ),
    );
    app.get(
      '/v2/snapshots/:snapshot_id',
      {
        config: { scopes: ['snapshot:read', 'block_storage_snapshot:read'] },
        schema: {
          tags,
          summary: 'A snapshot by id (an integer for droplets, a UUID for volumes)',
          params: SnapshotParams,
          response: { 200: snapshotOne, ...errorResponses },
        },
      },
      async (request) => {
        const snapshot = await findSnapshot(db, request.params.snapshot_id);
        if (!snapshot) throw notFound();
        return { snapshot: presentSnapshot(snapshot) };
      },
    );
    app.delete(
      '/v2/snapshots/:snapshot_id',
      {
        config: { scopes: ['image:delete', 'snapshot:delete'] },
        schema: {
          tags,
          summary: 'Delete a snapshot',
          params: SnapshotParams,
          response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
        },
      },
      async (request, reply) => {
        const snapshot = await findSnapshot(db, request.params.snapshot_id);
        if (!snapshot) throw notFound();
        await deleteSnapshot(db, snapshot);
        return reply.code(204).send(null);
      },
    );
  },
};
