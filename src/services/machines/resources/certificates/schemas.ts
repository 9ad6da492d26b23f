import { Type } from '@sinclair/typebox';
import { Meta, PageLinks, PageQuery } from '../../schemas.js';

export const CertificateSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  not_after: Type.String(),
  sha1_fingerprint: Type.String(),
  created_at: Type.String(),
  dns_names: Type.Array(Type.String()),
  state: Type.Union([Type.Literal('pending'), Type.Literal('verified'), Type.Literal('error')]),
  type: Type.Union([Type.Literal('custom'), Type.Literal('lets_encrypt')]),
});
// Typed loosely: a missing or wrong field is answered in the provider's words (rules.ts).
export const CertificateBody = Type.Object({
  name: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  dns_names: Type.Optional(Type.Array(Type.String())),
  private_key: Type.Optional(Type.String()),
  leaf_certificate: Type.Optional(Type.String()),
  certificate_chain: Type.Optional(Type.String()),
});
export const CertificateParams = Type.Object({
  certificate_id: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }),
});
export const CertificatesQuery = Type.Object({
  ...PageQuery,
  name: Type.Optional(Type.String({ pattern: '^[^\\u0000]*$' })),
});
export const certificateOne = Type.Object({ certificate: CertificateSchema });
export const certificateList = Type.Object({
  certificates: Type.Array(CertificateSchema),
  links: PageLinks,
  meta: Meta,
});
