import { Type } from '@sinclair/typebox';

export const ErrorSchema = Type.Object(
  { id: Type.String(), message: Type.String(), request_id: Type.String() },
  { $id: 'MachinesError' },
);

const errorRef = Type.Ref('MachinesError');
export const errorResponses = {
  400: errorRef,
  401: errorRef,
  403: errorRef,
  404: errorRef,
  422: errorRef,
  429: errorRef,
};

export const PageLinks = Type.Object({
  pages: Type.Optional(
    Type.Object({
      first: Type.Optional(Type.String()),
      prev: Type.Optional(Type.String()),
      next: Type.Optional(Type.String()),
      last: Type.Optional(Type.String()),
    }),
  ),
});

export const Meta = Type.Object({ total: Type.Integer() });

export const PageQuery = {
  // Bounded so the row offset stays a valid bigint (page=1e308 was a 500).
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 1 })),
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, default: 20, description: 'at most 200; larger is capped' }),
  ),
};

// A tag never contains NUL, and PostgreSQL text cannot carry one: refused as a bad parameter (was a 500).
export const TagName = Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' }));
export const CatalogQuery = Type.Object(PageQuery);
export const IdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,10}$' }) });
