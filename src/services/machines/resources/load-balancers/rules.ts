import { unprocessable } from '../../errors.js';
import { defaultVpcUuid, findRegion, regions } from '../catalog/data.js';
import { tagPattern } from '../tags/rules.js';

export interface ForwardingRule {
  entry_protocol: string;
  entry_port: number;
  target_protocol: string;
  target_port: number;
  certificate_id?: string;
  tls_passthrough?: boolean;
}

export interface LoadBalancerFields {
  name: string;
  region: string;
  tag: string | null;
  dropletIds: number[];
  forwarding_rules: ForwardingRule[];
  /** Everything else the provider shows, with its defaults filled in. */
  settings: Record<string, unknown>;
}

type Body = Record<string, unknown>;
const namePattern = /^[a-zA-Z0-9][a-zA-Z0-9.-]{0,254}$/;
const entryProtocols = ['http', 'https', 'http2', 'http3', 'tcp', 'udp'];
const targetProtocols = ['http', 'https', 'http2', 'tcp', 'udp'];
const tlsEntries = new Set(['https', 'http2', 'http3']);

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

function int(value: unknown, field: string, low: number, high: number, fallback?: number): number {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw unprocessable(`${field} is required.`);
    return fallback;
  }
  if (!isInt(value) || value < low || value > high)
    throw unprocessable(`${field} must be an integer between ${low} and ${high}.`);
  return value;
}

function oneOf(value: unknown, field: string, allowed: readonly string[], fallback?: string): string {
  if ((value === undefined || value === null) && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value))
    throw unprocessable(`${field} must be one of ${allowed.join(', ')}.`);
  return value;
}

function bool(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw unprocessable(`${field} must be true or false.`);
  return value;
}

const asObject = (value: unknown, field: string): Body => {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw unprocessable(`${field} must be an object.`);
  return value as Body;
};

/** One forwarding rule; TLS entries need a certificate or passthrough (the certificate is looked up by the store). */
export function checkRule(raw: unknown, at: string): ForwardingRule {
  const r = asObject(raw, at);
  const rule: ForwardingRule = {
    entry_protocol: oneOf(r.entry_protocol, `${at}.entry_protocol`, entryProtocols),
    entry_port: int(r.entry_port, `${at}.entry_port`, 1, 65535),
    target_protocol: oneOf(r.target_protocol, `${at}.target_protocol`, targetProtocols),
    target_port: int(r.target_port, `${at}.target_port`, 1, 65535),
  };
  const passthrough = bool(r.tls_passthrough, `${at}.tls_passthrough`);
  const certificate =
    r.certificate_id === undefined || r.certificate_id === '' ? undefined : r.certificate_id;
  if (
    (rule.entry_protocol === 'tcp') !== (rule.target_protocol === 'tcp') ||
    (rule.entry_protocol === 'udp') !== (rule.target_protocol === 'udp')
  )
    throw unprocessable(`${at}: tcp and udp entries forward to the same protocol.`);
  if (tlsEntries.has(rule.entry_protocol)) {
    if (passthrough && certificate !== undefined)
      throw unprocessable(`${at}: certificate_id and tls_passthrough cannot both be set.`);
    if (!passthrough && certificate === undefined)
      throw unprocessable(
        `${at}: an ${rule.entry_protocol} entry needs a certificate_id or tls_passthrough.`,
      );
    if (passthrough && rule.target_protocol !== 'https')
      throw unprocessable(`${at}: tls_passthrough forwards to https only.`);
  } else if (passthrough || certificate !== undefined) {
    throw unprocessable(`${at}: certificate_id and tls_passthrough are for https, http2 and http3 entries.`);
  }
  if (certificate !== undefined) {
    if (typeof certificate !== 'string') throw unprocessable(`${at}.certificate_id must be a string.`);
    rule.certificate_id = certificate;
  }
  if (passthrough) rule.tls_passthrough = true;
  return rule;
}

export function checkRules(raw: unknown, atLeastOne: boolean): ForwardingRule[] {
  if (raw === undefined || raw === null) raw = [];
  if (!Array.isArray(raw)) throw unprocessable('forwarding_rules must be a list.');
  if (atLeastOne && !raw.length) throw unprocessable('forwarding_rules must have at least one rule.');
  return raw.map((r, i) => checkRule(r, `forwarding_rules[${i}]`));
}

/** Two rules are the same when they forward the same entry to the same target. */
export const sameRule = (a: ForwardingRule, b: ForwardingRule) =>
  a.entry_protocol === b.entry_protocol &&
  a.entry_port === b.entry_port &&
  a.target_protocol === b.target_protocol &&
  a.target_port === b.target_port;

export function uniqueEntries(rules: ForwardingRule[]) {
  const ports = rules.map((r) => `${r.entry_protocol === 'udp' ? 'udp' : 'tcp'}:${r.entry_port}`);
  const twice = ports.find((p, i) => ports.indexOf(p) !== i);
  if (twice)
    throw unprocessable(`entry port ${twice.split(':')[1]} is used by more than one forwarding rule.`);
}

export function checkDropletIds(raw: unknown): number[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || !raw.every((v) => isInt(v) && v > 0))
    throw unprocessable('droplet_ids must be a list of droplet ids.');
  return [...new Set(raw as number[])];
}

function checkHealthCheck(raw: unknown) {
  const h = asObject(raw, 'health_check');
  const protocol = oneOf(h.protocol, 'health_check.protocol', ['http', 'https', 'tcp'], 'http');
  const path = h.path ?? '/';
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw unprocessable('health_check.path must begin with "/".');
  return {
    protocol,
    port: int(h.port, 'health_check.port', 1, 65535, 80),
    path: protocol === 'tcp' ? '' : path,
    check_interval_seconds: int(h.check_interval_seconds, 'health_check.check_interval_seconds', 3, 300, 10),
    response_timeout_seconds: int(
      h.response_timeout_seconds,
      'health_check.response_timeout_seconds',
      3,
      300,
      5,
    ),
    unhealthy_threshold: int(h.unhealthy_threshold, 'health_check.unhealthy_threshold', 2, 10, 5),
    healthy_threshold: int(h.healthy_threshold, 'health_check.healthy_threshold', 2, 10, 3),
  };
}

function checkSticky(raw: unknown) {
  const s = asObject(raw, 'sticky_sessions');
  const type = oneOf(s.type, 'sticky_sessions.type', ['none', 'cookies'], 'none');
  if (type === 'none') return { type };
  if (typeof s.cookie_name !== 'string' || !/^[A-Za-z0-9_-]{1,40}$/.test(s.cookie_name))
    throw unprocessable(
      'sticky_sessions.cookie_name is required for cookies (letters, digits, "_" and "-").',
    );
  return {
    type,
    cookie_name: s.cookie_name,
    cookie_ttl_seconds: int(s.cookie_ttl_seconds, 'sticky_sessions.cookie_ttl_seconds', 1, 86400 * 365),
  };
}

function checkFirewall(raw: unknown) {
  const f = asObject(raw, 'firewall');
  const list = (v: unknown, field: string): string[] => {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && /^(ip|cidr):\S+$/.test(x)))
      throw unprocessable(`${field} must list "ip:1.2.3.4" or "cidr:1.2.0.0/16" entries.`);
    return v as string[];
  };
  return { deny: list(f.deny, 'firewall.deny'), allow: list(f.allow, 'firewall.allow') };
}

/** A region slug, or a city prefix ("nyc") for the first of its regions, as droplets take them. */
function checkRegion(raw: unknown): string {
  const given = typeof raw === 'string' ? raw : '';
  const region = findRegion(given) ?? (given ? regions.find((r) => r.slug.startsWith(given)) : undefined);
  if (!region) throw unprocessable('region is required and must be a region slug, e.g. nyc3.');
  return region.slug;
}

/** A whole load balancer (create and PUT), with the provider's defaults. */
export function checkLoadBalancer(body: Body): LoadBalancerFields {
  const name = body.name;
  if (typeof name !== 'string' || !namePattern.test(name))
    throw unprocessable('name must begin with a letter or digit, then letters, digits, "." or "-".');
  const region = checkRegion(body.region);
  const type = oneOf(body.type, 'type', ['REGIONAL'], 'REGIONAL');
  const forwarding_rules = checkRules(body.forwarding_rules, true);
  uniqueEntries(forwarding_rules);
  const dropletIds = checkDropletIds(body.droplet_ids);
  let tag: string | null = null;
  if (body.tag !== undefined && body.tag !== null && body.tag !== '') {
    if (typeof body.tag !== 'string' || !tagPattern.test(body.tag))
      throw unprocessable('tag is not a valid tag name.');
    if (dropletIds.length) throw unprocessable('Specify either droplet_ids or tag, not both.');
    tag = body.tag;
  }
  if (
    body.vpc_uuid !== undefined &&
    body.vpc_uuid !== null &&
    (typeof body.vpc_uuid !== 'string' ||
      !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(body.vpc_uuid))
  )
    throw unprocessable('vpc_uuid must be a VPC id.');
  const settings = {
    size_unit: int(body.size_unit, 'size_unit', 1, 100, 1),
    size: oneOf(body.size, 'size', ['lb-small', 'lb-medium', 'lb-large'], 'lb-small'),
    algorithm: oneOf(body.algorithm, 'algorithm', ['round_robin', 'least_connections'], 'round_robin'),
    health_check: checkHealthCheck(body.health_check),
    sticky_sessions: checkSticky(body.sticky_sessions),
    redirect_http_to_https: bool(body.redirect_http_to_https, 'redirect_http_to_https'),
    enable_proxy_protocol: bool(body.enable_proxy_protocol, 'enable_proxy_protocol'),
    enable_backend_keepalive: bool(body.enable_backend_keepalive, 'enable_backend_keepalive'),
    http_idle_timeout_seconds: int(body.http_idle_timeout_seconds, 'http_idle_timeout_seconds', 30, 600, 60),
    vpc_uuid: (body.vpc_uuid as string | undefined) ?? defaultVpcUuid(region),
    disable_lets_encrypt_dns_records: bool(
      body.disable_lets_encrypt_dns_records,
      'disable_lets_encrypt_dns_records',
    ),
    firewall: checkFirewall(body.firewall),
    network: oneOf(body.network, 'network', ['EXTERNAL', 'INTERNAL'], 'EXTERNAL'),
    network_stack: oneOf(body.network_stack, 'network_stack', ['IPV4', 'DUALSTACK'], 'IPV4'),
    type,
    tls_cipher_policy: oneOf(body.tls_cipher_policy, 'tls_cipher_policy', ['DEFAULT', 'STRONG'], 'DEFAULT'),
  };
  return { name, region, tag, dropletIds, forwarding_rules, settings };
}
