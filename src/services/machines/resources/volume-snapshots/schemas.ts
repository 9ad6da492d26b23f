import { Type } from '@sinclair/typebox';

export const CreateVolumeSnapshot = Type.Object({
  name: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
});

export const VolumeSnapshotParams = Type.Object({
  snapshot_id: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }),
});
