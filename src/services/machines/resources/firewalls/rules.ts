import { isIP } from 'node:net';
import { badRequest } from '../../errors.js';
import { tagPattern } from '../tags/rules.js';
import type { FirewallBody, RulesChange, TargetSchema } from './schemas.js';

type Target = typeof TargetSchema.static;
export interface Rule {
  protocol: 'tcp' | 'udp' | 'icmp';
  ports: string;
  sources?: Target;
  destinations?: Target;
}
export interface Rules {
  inbound_rules: Rule[];
  outbound_rules: Rule[];
}

const namePattern = /^[a-zA-Z0-9][a-zA-Z0-9.-]+$/;
const targetKeys = ['addresses', 'droplet_ids', 'load_balancer_uids', 'kubernetes_ids', 'tags'] as const;

/** An address or CIDR, v4 or v6. */
function isAddress(text: string): boolean {
  const [ip, prefix, extra] = text.split('/');
  const version = isIP(ip ?? '');
  if (!version || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** A single port, a range, or "0"/"all" for every port, as the provider takes them. */
function checkPorts(protocol: string, ports: string | undefined): string {
  if (protocol === 'icmp') return '0';
  if (ports === '0' || ports === 'all') return ports;
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(ports ?? '');
  const low = Number(match?.[1]);
  const high = Number(match?.[2] ?? match?.[1]);
  if (!match || low < 1 || high > 65535 || low > high)
    throw badRequest('You must specify a positive value for ports.');
  return ports as string;
}

/** Keeps the target's non-empty lists; at least one is needed, each value of its kind. */
function checkTarget(target: Target | undefined, where: string): Target {
  const kept: Target = {};
  for (const key of targetKeys) {
    const values = target?.[key];
    if (values?.length) Object.assign(kept, { [key]: [...new Set<string | number>(values)] });
  }
  if (!Object.keys(kept).length)
    throw badRequest(`${where} must name at least one address, droplet, tag or load balancer.`);
  for (const address of kept.addresses ?? [])
    if (!isAddress(address))
      throw badRequest(`${JSON.stringify(address)} is not a valid IP address or CIDR.`);
  for (const tag of kept.tags ?? [])
    if (!tagPattern.test(tag)) throw badRequest(`You specified an invalid tag (${JSON.stringify(tag)}).`);
  return kept;
}

function checkRule(rule: Record<string, unknown>, side: 'sources' | 'destinations'): Rule {
  const protocol = rule.protocol;
  if (protocol !== 'tcp' && protocol !== 'udp' && protocol !== 'icmp')
    throw badRequest('protocol must be one of tcp, udp or icmp.');
  const ports = checkPorts(protocol, rule.ports as string | undefined);
  return { protocol, ports, [side]: checkTarget(rule[side] as Target | undefined, side) };
}

/** Both rule lists, checked; at least one rule unless `optional`. */
export function checkRules(body: typeof RulesChange.static, optional = false): Rules {
  const inbound = (body.inbound_rules ?? []).map((r) => checkRule(r, 'sources'));
  const outbound = (body.outbound_rules ?? []).map((r) => checkRule(r, 'destinations'));
  if (!optional && !inbound.length && !outbound.length)
    throw badRequest('At least one inbound or outbound rule is required.');
  return { inbound_rules: inbound, outbound_rules: outbound };
}

export function checkFirewall(body: typeof FirewallBody.static) {
  if (!body.name || body.name.length > 255 || !namePattern.test(body.name))
    throw badRequest(
      'name must begin with a letter or digit, then letters, digits, "." or "-" (2 to 255 characters).',
    );
  return { name: body.name, rules: checkRules(body), ...checkTagsAndDroplets(body) };
}

export function checkTagsAndDroplets(body: { tags?: string[] | null; droplet_ids?: number[] | null }) {
  const tags = [...new Set(body.tags ?? [])];
  for (const tag of tags)
    if (!tagPattern.test(tag)) throw badRequest(`You specified an invalid tag (${JSON.stringify(tag)}).`);
  return { tags, dropletIds: [...new Set(body.droplet_ids ?? [])] };
}

/** The same rule, whatever order its target lists were given in. */
export const ruleKey = (rule: Rule) =>
  JSON.stringify([
    rule.protocol,
    rule.ports,
    targetKeys.map((k) => [...((rule.sources ?? rule.destinations)?.[k] ?? [])].map(String).sort()),
  ]);
