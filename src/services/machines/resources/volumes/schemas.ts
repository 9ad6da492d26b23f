import { Type } from '@sinclair/typebox';
import { CatalogQuery } from '../../schemas.js';
import { RegionSchema } from '../catalog/schemas.js';

export const VolumeSchema = Type.Object({
  id: Type.String(),
  droplet_ids: Type.Array(Type.Integer()),
  name: Type.String(),
  description: Type.String(),
  size_gigabytes: Type.Integer(),
  created_at: Type.String(),
  tags: Type.Array(Type.String()),
  region: RegionSchema,
  filesystem_type: Type.String(),
  filesystem_label: Type.String(),
});
export const VolumeParams = Type.Object({ volume_id: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }) });
export const VolumeQuery = Type.Object({
  ...CatalogQuery.properties,
  name: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
  region: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
});
export const CreateVolume = Type.Object({
  name: Type.Optional(Type.String()),
  size_gigabytes: Type.Optional(Type.Integer()),
  region: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  filesystem_type: Type.Optional(Type.String()),
  filesystem_label: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  snapshot_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
