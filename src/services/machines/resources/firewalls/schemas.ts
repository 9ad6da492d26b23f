import { Type } from '@sinclair/typebox';
import { Meta, PageLinks } from '../../schemas.js';

const Strings = Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()]));

/** Where traffic may come from or go to. */
export const TargetSchema = Type.Object({
  addresses: Strings,
  droplet_ids: Type.Optional(Type.Union([Type.Array(Type.Integer()), Type.Null()])),
  load_balancer_uids: Strings,
  kubernetes_ids: Strings,
  tags: Strings,
});

// Bodies are typed loosely: the provider answers a bad rule 400 with a message, which rules.ts words.
const InboundBody = Type.Object({
  protocol: Type.Optional(Type.String()),
  ports: Type.Optional(Type.String()),
  sources: Type.Optional(TargetSchema),
});
const OutboundBody = Type.Object({
  protocol: Type.Optional(Type.String()),
  ports: Type.Optional(Type.String()),
  destinations: Type.Optional(TargetSchema),
});
const RulesBody = {
  inbound_rules: Type.Optional(Type.Union([Type.Array(InboundBody), Type.Null()])),
  outbound_rules: Type.Optional(Type.Union([Type.Array(OutboundBody), Type.Null()])),
};

export const FirewallBody = Type.Object({
  name: Type.Optional(Type.String()),
  droplet_ids: Type.Optional(Type.Union([Type.Array(Type.Integer()), Type.Null()])),
  tags: Strings,
  ...RulesBody,
});
export const RulesChange = Type.Object(RulesBody);
export const DropletsChange = Type.Object({ droplet_ids: Type.Optional(Type.Array(Type.Integer())) });
export const TagsChange = Type.Object({ tags: Strings });

const Protocol = Type.Union([Type.Literal('tcp'), Type.Literal('udp'), Type.Literal('icmp')]);
export const FirewallSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal('waiting'), Type.Literal('succeeded')]),
  created_at: Type.String(),
  pending_changes: Type.Array(
    Type.Object({ droplet_id: Type.Integer(), removing: Type.Boolean(), status: Type.String() }),
  ),
  droplet_ids: Type.Array(Type.Integer()),
  tags: Type.Array(Type.String()),
  inbound_rules: Type.Array(Type.Object({ protocol: Protocol, ports: Type.String(), sources: TargetSchema })),
  outbound_rules: Type.Array(
    Type.Object({ protocol: Protocol, ports: Type.String(), destinations: TargetSchema }),
  ),
});

export const FirewallParams = Type.Object({ firewall_id: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }) });
export const firewallOne = Type.Object({ firewall: FirewallSchema });
export const firewallList = Type.Object({
  firewalls: Type.Array(FirewallSchema),
  links: PageLinks,
  meta: Meta,
});
