import { Type } from '@sinclair/typebox';
import { Meta, PageLinks, PageQuery } from '../../schemas.js';

const Nullable = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.String>>(t: T) =>
  Type.Union([t, Type.Null()]);

export const DomainSchema = Type.Object({
  name: Type.String(),
  ttl: Nullable(Type.Integer()),
  zone_file: Nullable(Type.String()),
});
export const DomainBody = Type.Object({
  name: Type.Optional(Type.String()),
  ip_address: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export const DomainParams = Type.Object({
  domain_name: Type.String({ maxLength: 253, pattern: '^[^\\u0000]*$' }),
});
export const domainOne = Type.Object({ domain: DomainSchema });
export const domainList = Type.Object({ domains: Type.Array(DomainSchema), links: PageLinks, meta: Meta });

export const RecordSchema = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  name: Type.String(),
  data: Type.String(),
  priority: Nullable(Type.Integer()),
  port: Nullable(Type.Integer()),
  ttl: Type.Integer(),
  weight: Nullable(Type.Integer()),
  flags: Nullable(Type.Integer()),
  tag: Nullable(Type.String()),
});
// Loosely typed so that a wrong value is answered in the provider's words (rules.ts), not the validator's.
const maybeInt = Type.Optional(Type.Union([Type.Integer(), Type.Null()]));
export const RecordBody = Type.Object({
  type: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  data: Type.Optional(Type.String()),
  priority: maybeInt,
  port: maybeInt,
  ttl: maybeInt,
  weight: maybeInt,
  flags: maybeInt,
  tag: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export const RecordParams = Type.Object({
  domain_name: Type.String({ maxLength: 253, pattern: '^[^\\u0000]*$' }),
  domain_record_id: Type.String({ pattern: '^[0-9]{1,10}$' }),
});
export const RecordsQuery = Type.Object({
  ...PageQuery,
  // PostgreSQL text cannot carry NUL: refused as a bad parameter rather than a 500.
  name: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
  type: Type.Optional(
    Type.Union(['A', 'AAAA', 'CAA', 'CNAME', 'MX', 'NS', 'SOA', 'SRV', 'TXT'].map((t) => Type.Literal(t))),
  ),
});
export const recordOne = Type.Object({ domain_record: RecordSchema });
export const recordList = Type.Object({
  domain_records: Type.Array(RecordSchema),
  links: PageLinks,
  meta: Meta,
});
