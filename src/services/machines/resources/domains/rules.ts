import { isIP } from 'node:net';
import { unprocessable } from '../../errors.js';
import type { RecordBody } from './schemas.js';

export const recordTypes = ['A', 'AAAA', 'CAA', 'CNAME', 'MX', 'NS', 'SOA', 'SRV', 'TXT'] as const;
export type RecordType = (typeof recordTypes)[number];

export interface RecordFields {
  type: RecordType;
  name: string;
  data: string;
  priority: number | null;
  port: number | null;
  ttl: number;
  weight: number | null;
  flags: number | null;
  tag: string | null;
}

const label = '[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?';
const domainPattern = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const namePattern = new RegExp(`^(\\*|(\\*\\.)?${label}(\\.${label})*)$`);
const hostPattern = new RegExp(`^${label}(\\.${label})*$`);
export const DEFAULT_TTL = 1800;
export const nameServers = ['ns1.digitalocean.com', 'ns2.digitalocean.com', 'ns3.digitalocean.com'];

/** A domain name as the provider takes it: lowercased, two labels at least, a letter-led top-level label. */
export function checkDomainName(name: string | undefined): string {
  const lower = (name ?? '').toLowerCase().replace(/\.$/, '');
  if (!domainPattern.test(lower)) throw unprocessable('name is not a valid domain name.');
  return lower;
}

/** The `ip_address` given with a new domain becomes its apex A (or AAAA) record. */
export function checkIpAddress(
  ip: string | null | undefined,
): { type: 'A' | 'AAAA'; data: string } | undefined {
  if (ip === undefined || ip === null || ip === '') return undefined;
  const version = isIP(ip);
  if (!version) throw unprocessable('ip_address is not a valid IP address.');
  return { type: version === 4 ? 'A' : 'AAAA', data: ip };
}

const inRange = (value: number | null | undefined, low: number, high: number, field: string) => {
  if (value === undefined || value === null)
    throw unprocessable(`${field} is required for this record type.`);
  if (value < low || value > high) throw unprocessable(`${field} must be between ${low} and ${high}.`);
  return value;
};

/** A host name in `data`: "@" (the domain itself) or a fully qualified name ending in a dot, kept without it. */
function hostData(data: string): string {
  if (data === '@') return data;
  if (!data.endsWith('.')) throw unprocessable('Data needs to end with a dot (.)');
  const host = data.slice(0, -1).toLowerCase();
  if (!hostPattern.test(host)) throw unprocessable('Data must be a valid hostname.');
  return host;
}

function checkData(type: RecordType, data: string): string {
  if (data === '') throw unprocessable('Data is required.');
  switch (type) {
    case 'A':
      if (isIP(data) !== 4) throw unprocessable('Data must be a valid IPv4 address.');
      return data;
    case 'AAAA':
      if (isIP(data) !== 6) throw unprocessable('Data must be a valid IPv6 address.');
      return data;
    case 'CNAME':
    case 'MX':
    case 'NS':
    case 'SRV':
      return hostData(data);
    case 'TXT':
      if (data.length > 4096) throw unprocessable('Data must be at most 4096 characters.');
      return data;
    default:
      if (data.length > 255) throw unprocessable('Data must be at most 255 characters.');
      return data;
  }
}

/**
 * One record, created or edited: `current` holds the stored record an edit starts from (its type cannot change, and
 * an SOA record's only editable field is its TTL). Fields that do not belong to the type are null, as shown.
 */
export function checkRecord(body: typeof RecordBody.static, current?: RecordFields): RecordFields {
  const type = (body.type ?? current?.type) as RecordType | undefined;
  if (!type || !(recordTypes as readonly string[]).includes(type))
    throw unprocessable(`type must be one of ${recordTypes.join(', ')}.`);
  if (current && type !== current.type) throw unprocessable('The type of a record cannot be changed.');
  if (type === 'SOA' && !current) throw unprocessable('SOA records cannot be created.');
  const ttl = body.ttl ?? current?.ttl ?? DEFAULT_TTL;
  if (ttl < 30 || ttl > 2_147_483_647) throw unprocessable('TTL must be at least 30 seconds.');
  if (type === 'SOA' && current) return { ...current, ttl };

  const rawName = (body.name ?? current?.name ?? (type === 'MX' ? '@' : '')).toLowerCase();
  if (!rawName) throw unprocessable('Name is required.');
  if (rawName !== '@' && (rawName.length > 253 || !namePattern.test(rawName)))
    throw unprocessable('Name must be "@" or a valid hostname.');
  const given = <K extends 'priority' | 'port' | 'weight' | 'flags'>(k: K) =>
    body[k] === undefined ? current?.[k] : body[k];
  const fields: RecordFields = {
    type,
    name: rawName,
    // A stored value was checked when it was given (host names are kept without their final dot).
    data: body.data === undefined && current ? current.data : checkData(type, body.data ?? ''),
    priority: null,
    port: null,
    ttl,
    weight: null,
    flags: null,
    tag: null,
  };
  if (type === 'MX' || type === 'SRV') fields.priority = inRange(given('priority'), 0, 65535, 'Priority');
  if (type === 'SRV') {
    fields.port = inRange(given('port'), 1, 65535, 'Port');
    fields.weight = inRange(given('weight'), 0, 65535, 'Weight');
  }
  if (type === 'CAA') {
    fields.flags = inRange(given('flags'), 0, 255, 'Flags');
    const tag = body.tag === undefined ? current?.tag : body.tag;
    if (tag !== 'issue' && tag !== 'issuewild' && tag !== 'iodef')
      throw unprocessable('Tag must be one of issue, issuewild or iodef.');
    fields.tag = tag;
  }
  if (type === 'CNAME' && fields.name === '@')
    throw unprocessable('CNAME records cannot be created at the root of a domain ("@").');
  return fields;
}
