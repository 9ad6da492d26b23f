import { Type } from '@sinclair/typebox';
import { Meta, PageLinks } from '../../schemas.js';

const ForwardingRule = Type.Object({
  entry_protocol: Type.String(),
  entry_port: Type.Integer(),
  target_protocol: Type.String(),
  target_port: Type.Integer(),
  certificate_id: Type.Optional(Type.String()),
  tls_passthrough: Type.Optional(Type.Boolean()),
});
const HealthCheck = Type.Object({
  protocol: Type.String(),
  port: Type.Integer(),
  path: Type.String(),
  check_interval_seconds: Type.Integer(),
  response_timeout_seconds: Type.Integer(),
  unhealthy_threshold: Type.Integer(),
  healthy_threshold: Type.Integer(),
});
const StickySessions = Type.Object({
  type: Type.String(),
  cookie_name: Type.Optional(Type.String()),
  cookie_ttl_seconds: Type.Optional(Type.Integer()),
});
const Firewall = Type.Object({ deny: Type.Array(Type.String()), allow: Type.Array(Type.String()) });

export const LoadBalancerSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  ip: Type.String(),
  size_unit: Type.Integer(),
  size: Type.String(),
  algorithm: Type.String(),
  status: Type.Union([Type.Literal('new'), Type.Literal('active'), Type.Literal('errored')]),
  created_at: Type.String(),
  forwarding_rules: Type.Array(ForwardingRule),
  health_check: HealthCheck,
  sticky_sessions: StickySessions,
  redirect_http_to_https: Type.Boolean(),
  enable_proxy_protocol: Type.Boolean(),
  enable_backend_keepalive: Type.Boolean(),
  http_idle_timeout_seconds: Type.Integer(),
  vpc_uuid: Type.String(),
  disable_lets_encrypt_dns_records: Type.Boolean(),
  firewall: Firewall,
  network: Type.String(),
  network_stack: Type.String(),
  type: Type.String(),
  tls_cipher_policy: Type.String(),
  region: Type.Object({
    name: Type.String(),
    slug: Type.String(),
    features: Type.Array(Type.String()),
    available: Type.Boolean(),
    sizes: Type.Array(Type.String()),
  }),
  droplet_ids: Type.Array(Type.Integer()),
  tag: Type.Optional(Type.String()),
});

// Bodies are typed loosely: a wrong value is answered in the provider's words (rules.ts), not the validator's.
const Loose = Type.Optional(Type.Unknown());
export const LoadBalancerBody = Type.Object({
  name: Loose,
  region: Loose,
  size_unit: Loose,
  size: Loose,
  algorithm: Loose,
  forwarding_rules: Loose,
  health_check: Loose,
  sticky_sessions: Loose,
  redirect_http_to_https: Loose,
  enable_proxy_protocol: Loose,
  enable_backend_keepalive: Loose,
  http_idle_timeout_seconds: Loose,
  vpc_uuid: Loose,
  disable_lets_encrypt_dns_records: Loose,
  firewall: Loose,
  network: Loose,
  network_stack: Loose,
  type: Loose,
  tls_cipher_policy: Loose,
  droplet_ids: Loose,
  tag: Loose,
  project_id: Loose,
});
export const DropletsChange = Type.Object({ droplet_ids: Loose });
export const RulesChange = Type.Object({ forwarding_rules: Loose });
export const LoadBalancerParams = Type.Object({ lb_id: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }) });
export const loadBalancerOne = Type.Object({ load_balancer: LoadBalancerSchema });
export const loadBalancerList = Type.Object({
  load_balancers: Type.Array(LoadBalancerSchema),
  links: PageLinks,
  meta: Meta,
});
