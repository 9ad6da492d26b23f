import { Type } from '@sinclair/typebox';
import { Meta, PageLinks, PageQuery } from '../../schemas.js';

/** A droplet snapshot (integer id, as text) or a volume snapshot (UUID), as `/v2/snapshots` shows both. */
export const SnapshotSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created_at: Type.String(),
  regions: Type.Array(Type.String()),
  min_disk_size: Type.Integer(),
  size_gigabytes: Type.Number(),
  resource_id: Type.String(),
  resource_type: Type.Union([Type.Literal('droplet'), Type.Literal('volume')]),
  tags: Type.Array(Type.String()),
});

export const SnapshotParams = Type.Object({
  snapshot_id: Type.String({
    pattern: '^([0-9]{1,10}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$',
  }),
});

export const SnapshotsQuery = Type.Object({
  ...PageQuery,
  resource_type: Type.Optional(Type.Union([Type.Literal('droplet'), Type.Literal('volume')])),
});

export const snapshotOne = Type.Object({ snapshot: SnapshotSchema });
export const snapshotList = Type.Object({
  snapshots: Type.Array(SnapshotSchema),
  links: PageLinks,
  meta: Meta,
});
