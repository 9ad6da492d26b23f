import { Type } from '@sinclair/typebox';
import { Meta, PageLinks, PageQuery } from '../../schemas.js';

const Grant = Type.Object({ bucket: Type.String(), permission: Type.String() });
export const KeySchema = Type.Object({
  name: Type.String(),
  grants: Type.Array(Grant),
  access_key: Type.String(),
  created_at: Type.String(),
});
export const NewKeySchema = Type.Composite([KeySchema, Type.Object({ secret_key: Type.String() })]);
// Loosely typed so that a wrong value is answered in the provider's words (rules.ts).
export const KeyBody = Type.Object({
  name: Type.Optional(Type.Unknown()),
  grants: Type.Optional(Type.Unknown()),
});
export const KeyParams = Type.Object({
  access_key: Type.String({ maxLength: 64, pattern: '^[^\\u0000]*$' }),
});
export const KeysQuery = Type.Object({
  ...PageQuery,
  sort: Type.Optional(Type.Union([Type.Literal('created_at'), Type.Literal('name')])),
  sort_direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  // PostgreSQL text cannot carry NUL: refused as a bad parameter rather than a 500.
  name: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
  bucket: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
  permission: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
});
export const keyOne = Type.Object({ key: KeySchema });
export const newKeyOne = Type.Object({ key: NewKeySchema });
export const keyList = Type.Object({ keys: Type.Array(KeySchema), links: PageLinks, meta: Meta });
