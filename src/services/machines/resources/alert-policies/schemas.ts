import { Type } from '@sinclair/typebox';
import { Meta, PageLinks } from '../../schemas.js';

export const PolicySchema = Type.Object({
  uuid: Type.String(),
  type: Type.String(),
  description: Type.String(),
  compare: Type.String(),
  value: Type.Number(),
  window: Type.String(),
  entities: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  alerts: Type.Object({
    email: Type.Array(Type.String()),
    slack: Type.Array(Type.Object({ channel: Type.String(), url: Type.String() })),
  }),
  enabled: Type.Boolean(),
});
// Loosely typed so that a wrong value is answered in the provider's words (rules.ts).
const Loose = Type.Optional(Type.Unknown());
export const PolicyBody = Type.Object({
  type: Loose,
  description: Loose,
  compare: Loose,
  value: Loose,
  window: Loose,
  entities: Loose,
  tags: Loose,
  alerts: Loose,
  enabled: Loose,
});
export const PolicyParams = Type.Object({ alert_uuid: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }) });
export const policyOne = Type.Object({ policy: PolicySchema });
export const policyList = Type.Object({ policies: Type.Array(PolicySchema), links: PageLinks, meta: Meta });
