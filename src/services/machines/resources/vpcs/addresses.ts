import { regionIndex } from '../catalog/data.js';

/** IPv4 arithmetic for VPC ranges and private addresses. */
export const toInt = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
export const toIp = (n: number) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

const quad = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export interface Range {
  base: number;
  prefix: number;
  size: number;
}

/** `a.b.c.d/n` as its first address and size; undefined when it is not a CIDR or has host bits set. */
export function parseCidr(text: string): Range | undefined {
  const [ip, bits, extra] = text.split('/');
  if (extra !== undefined || !ip || !quad.test(ip) || !bits || !/^\d{1,2}$/.test(bits)) return undefined;
  const prefix = Number(bits);
  if (prefix > 32) return undefined;
  const size = 2 ** (32 - prefix);
  const base = toInt(ip);
  return base % size === 0 ? { base, prefix, size } : undefined;
}

export const overlaps = (a: Range, b: Range) => a.base < b.base + b.size && b.base < a.base + a.size;

/** RFC 1918's private ranges, the only ones a VPC may use. */
const privateRanges = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'].map((c) => parseCidr(c) as Range);
export const isPrivate = (r: Range) =>
  privateRanges.some((p) => r.base >= p.base && r.base + r.size <= p.base + p.size);

/** The range of a region's default VPC: `10.<100+region>.0.0/16`, where machines' private addresses always were. */
export const defaultRange = (region: string) => `10.${100 + regionIndex(region)}.0.0/16`;

/** A free /20 in 10.0.0.0/8 below the default ranges (10.100 and up), for a VPC created without `ip_range`. */
export function freeRange(taken: Range[]): string | undefined {
  for (let n = toInt('10.10.0.0'); n < toInt('10.100.0.0'); n += 4096) {
    const candidate = { base: n, prefix: 20, size: 4096 };
    if (!taken.some((t) => overlaps(t, candidate))) return `${toIp(n)}/20`;
  }
  return undefined;
}

/** The lowest host address of the range not in `used`: the first is the network, the second its gateway. */
export function freeAddress(range: Range, used: Set<string>): string | undefined {
  for (let n = range.base + 2; n < range.base + range.size - 1; n++) {
    const ip = toIp(n);
    if (!used.has(ip)) return ip;
  }
  return undefined;
}

export const netmask = (prefix: number) => toIp(prefix === 0 ? 0 : 2 ** 32 - 2 ** (32 - prefix));
