import { Type } from '@sinclair/typebox';

export const SizeSchema = Type.Object({
  slug: Type.String(),
  memory: Type.Integer({ description: 'megabytes' }),
  vcpus: Type.Integer(),
  disk: Type.Integer({ description: 'gigabytes' }),
  transfer: Type.Number({ description: 'terabytes per month' }),
  price_monthly: Type.Number(),
  price_hourly: Type.Number(),
  regions: Type.Array(Type.String()),
  available: Type.Boolean(),
  description: Type.String(),
});

export const RegionSchema = Type.Object({
  name: Type.String(),
  slug: Type.String(),
  features: Type.Array(Type.String()),
  available: Type.Boolean(),
  sizes: Type.Array(Type.String()),
});
