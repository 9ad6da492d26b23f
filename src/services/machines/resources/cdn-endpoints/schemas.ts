import { Type } from '@sinclair/typebox';
import { Meta, PageLinks } from '../../schemas.js';

export const EndpointSchema = Type.Object({
  id: Type.String(),
  origin: Type.String(),
  endpoint: Type.String(),
  ttl: Type.Integer(),
  certificate_id: Type.Optional(Type.String()),
  custom_domain: Type.Optional(Type.String()),
  created_at: Type.String(),
});
// Loosely typed so that a wrong value is answered in the provider's words (rules.ts).
const Loose = Type.Optional(Type.Unknown());
export const EndpointBody = Type.Object({
  origin: Loose,
  ttl: Loose,
  certificate_id: Loose,
  custom_domain: Loose,
});
export const PurgeBody = Type.Object({ files: Loose });
export const EndpointParams = Type.Object({ cdn_id: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }) });
export const endpointOne = Type.Object({ endpoint: EndpointSchema });
export const endpointList = Type.Object({
  endpoints: Type.Array(EndpointSchema),
  links: PageLinks,
  meta: Meta,
});
