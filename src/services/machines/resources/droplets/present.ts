import { isoSeconds, isProvisioned } from '../../time.js';
import { nextWindow } from '../backup-policies/window.js';
import { findImage, findKernel, findRegion, findSize, regionIndex } from '../catalog/data.js';
import { presentUserImage } from '../images/present.js';
import { netmask, parseCidr, toIp } from '../vpcs/addresses.js';
import type { MachineRow } from './store.js';

interface NetworkInterface {
  ip_address: string;
  netmask: string | number;
  gateway: string;
  type: 'public' | 'private';
}

/** Stable, made-up addresses from the machine id: public ones in 198.18.0.0/15 (reserved for testing). */
function networksFor(row: MachineRow): { v4: NetworkInterface[]; v6: NetworkInterface[] } {
  const r = regionIndex(row.region);
  const n = row.id % 65_024;
  const publicThird = Math.floor(n / 254);
  const host = (n % 254) + 1;
  const range = row.vpc_range ? parseCidr(row.vpc_range) : undefined;
  const v4: NetworkInterface[] = [
    // The address the VPC gave out, its range's mask, and the range's first host as the gateway.
    range && row.private_ip
      ? {
          ip_address: row.private_ip,
          netmask: netmask(range.prefix),
          gateway: toIp(range.base + 1),
          type: 'private',
        }
      : {
          ip_address: `10.${100 + r}.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`,
          netmask: '255.255.0.0',
          gateway: `10.${100 + r}.0.1`,
          type: 'private',
        },
    {
      ip_address: `198.${18 + (publicThird >> 8)}.${publicThird & 255}.${host}`,
      netmask: '255.255.255.0',
      gateway: `198.${18 + (publicThird >> 8)}.${publicThird & 255}.1`,
      type: 'public',
    },
    ...(row.reserved_ip
      ? [
          {
            ip_address: row.reserved_ip,
            netmask: '255.255.255.0',
            gateway: '203.0.113.1',
            type: 'public' as const,
          },
        ]
      : []),
  ];
  const v6: NetworkInterface[] = row.ipv6
    ? [
        {
          // The id's 32 bits as two groups: a group holds at most four hex digits.
          ip_address: `2001:db8:${(r + 1).toString(16)}::${(row.id >>> 16).toString(16)}:${(row.id & 0xffff).toString(16)}`,
          netmask: 64,
          gateway: `2001:db8:${(r + 1).toString(16)}::1`,
          type: 'public',
        },
      ]
    : [];
  return { v4, v6 };
}

/** The image a machine was built from after it was deleted: the document's `deleted` status. */
const deletedImage = (id: number) => ({
  id,
  name: 'deleted image',
  distribution: 'Unknown',
  slug: null,
  public: false,
  regions: [],
  created_at: '1970-01-01T00:00:00Z',
  min_disk_size: 0,
  type: 'snapshot',
  size_gigabytes: 0,
  description: '',
  tags: [],
  status: 'deleted',
  error_message: '',
});

/** The machine object of the API; `withVpc` is false for the create response, as the provider does. */
export function presentMachine(row: MachineRow, provisionMs: number, now: number, withVpc = true) {
  const active = isProvisioned(row.created_at, provisionMs, now);
  const size = findSize(row.size);
  const region = findRegion(row.region);
  const image = row.user_image
    ? presentUserImage(row.user_image)
    : (findImage(row.image_id) ?? deletedImage(row.image_id));
  if (!size || !region || !image) throw new Error(`machine ${row.id} refers to a value not in the catalog`);
  return {
    id: row.id,
    name: row.name,
    memory: size.memory,
    vcpus: size.vcpus,
    disk: row.disk ?? size.disk,
    locked: false,
    status: !active ? 'new' : row.power === 'off' ? 'off' : 'active',
    kernel: row.kernel_id === null ? null : (findKernel(row.kernel_id) ?? null),
    created_at: isoSeconds(row.created_at),
    features: row.features,
    backup_ids: row.backup_ids,
    snapshot_ids: row.snapshot_ids,
    volume_ids: row.volume_ids,
    next_backup_window: !row.features.includes('backups')
      ? null
      : row.backup_policy
        ? nextWindow(row.backup_policy, new Date(now))
        : nextBackupWindow(new Date(now)),
    image,
    size,
    size_slug: size.slug,
    networks: active ? networksFor(row) : { v4: [], v6: [] },
    region,
    tags: row.tags,
    ...(withVpc ? { vpc_uuid: row.vpc_uuid } : {}),
  };
}

/** Backups run in the 4-hour window that starts at the next midnight UTC. */
function nextBackupWindow(now: Date) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return { start: isoSeconds(start), end: isoSeconds(new Date(start.getTime() + 4 * 3600_000)) };
}
