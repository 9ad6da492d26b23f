import { unprocessable } from '../../errors.js';
import { tagPattern } from '../tags/rules.js';

export interface PolicyFields {
  type: string;
  description: string;
  compare: string;
  value: number;
  window: string;
  entities: string[];
  tags: string[];
  alerts: { email: string[]; slack: { channel: string; url: string }[] };
  enabled: boolean;
}

const dropletMetrics = [
  'load_1',
  'load_5',
  'load_15',
  'memory_utilization_percent',
  'disk_utilization_percent',
  'cpu',
  'disk_read',
  'disk_write',
  'public_outbound_bandwidth',
  'public_inbound_bandwidth',
  'private_outbound_bandwidth',
  'private_inbound_bandwidth',
].map((m) => `v1/insights/droplet/${m}`);
const lbMetrics = [
  'avg_cpu_utilization_percent',
  'connection_utilization_percent',
  'droplet_health',
  'tls_connections_per_second_utilization_percent',
  'increase_in_http_error_rate_percentage_5xx',
  'increase_in_http_error_rate_percentage_4xx',
  'increase_in_http_error_rate_count_5xx',
  'increase_in_http_error_rate_count_4xx',
  'high_http_request_response_time',
  'high_http_request_response_time_50p',
  'high_http_request_response_time_95p',
  'high_http_request_response_time_99p',
].map((m) => `v1/insights/lbaas/${m}`);
const otherMetrics = [
  ...['load_15_alerts', 'memory_utilization_alerts', 'disk_utilization_alerts', 'cpu_alerts'].map(
    (m) => `v1/dbaas/alerts/${m}`,
  ),
  ...[
    'current_instances',
    'target_instances',
    'current_cpu_utilization',
    'target_cpu_utilization',
    'current_memory_utilization',
    'target_memory_utilization',
    'scale_up',
    'scale_down',
  ].map((m) => `v1/droplet/autoscale_alerts/${m}`),
];
const types = [...dropletMetrics, ...lbMetrics, ...otherMetrics];
const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What `entities` names for a type: droplet ids, load balancer ids, or (other products) anything. */
export const entityKind = (type: string) =>
  type.startsWith('v1/insights/droplet/')
    ? 'droplet'
    : type.startsWith('v1/insights/lbaas/')
      ? 'load_balancer'
      : 'other';

const strings = (v: unknown, field: string): string[] => {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw unprocessable(`${field} must be a list of strings.`);
  return [...new Set(v as string[])];
};

/** The whole policy (create and PUT); every field is required, as the provider's schema says. */
export function checkPolicy(b: Record<string, unknown>): PolicyFields {
  if (typeof b.type !== 'string' || !types.includes(b.type))
    throw unprocessable('type is not a known alert type.');
  if (typeof b.description !== 'string' || !b.description.trim() || b.description.length > 255)
    throw unprocessable('description is required (at most 255 characters).');
  if (b.compare !== 'GreaterThan' && b.compare !== 'LessThan')
    throw unprocessable('compare must be GreaterThan or LessThan.');
  if (typeof b.value !== 'number' || !Number.isFinite(b.value))
    throw unprocessable('value must be a number.');
  if (typeof b.window !== 'string' || !['5m', '10m', '30m', '1h'].includes(b.window))
    throw unprocessable('window must be one of 5m, 10m, 30m, 1h.');
  if (typeof b.enabled !== 'boolean') throw unprocessable('enabled must be true or false.');
  const entities = strings(b.entities, 'entities');
  const tags = strings(b.tags, 'tags');
  for (const t of tags)
    if (!tagPattern.test(t)) throw unprocessable(`${JSON.stringify(t)} is not a valid tag name.`);
  const alerts = (b.alerts ?? {}) as Record<string, unknown>;
  if (typeof alerts !== 'object' || !Array.isArray(alerts.email) || !Array.isArray(alerts.slack))
    throw unprocessable('alerts must have an email list and a slack list.');
  const emails = strings(alerts.email, 'alerts.email');
  for (const e of emails) if (!email.test(e)) throw unprocessable(`${e} is not a valid email address.`);
  const slack = (alerts.slack as unknown[]).map((s) => {
    const { channel, url } = (s ?? {}) as Record<string, unknown>;
    if (typeof channel !== 'string' || !channel || typeof url !== 'string' || !/^https:\/\/\S+$/.test(url))
      throw unprocessable('each alerts.slack entry needs a channel and an https url.');
    return { channel, url };
  });
  if (!emails.length && !slack.length)
    throw unprocessable('alerts must name at least one email address or Slack channel.');
  return {
    type: b.type,
    description: b.description,
    compare: b.compare,
    value: b.value,
    window: b.window,
    entities,
    tags,
    alerts: { email: emails, slack },
    enabled: b.enabled,
  };
}
