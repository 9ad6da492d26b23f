import { isoSeconds, isProvisioned } from '../../time.js';
import { findRegion } from '../catalog/data.js';
import type { LoadBalancerRow } from './store.js';

/** Made-up public addresses from the documentation ranges (RFC 5737), one per load balancer. */
export function addressOf(n: number): string {
  const k = (n - 1) % 508;
  return k < 254 ? `198.51.100.${k + 1}` : `203.0.113.${k - 253}`;
}

/** `new` with no address for the provisioning time, then `active` with its address, as the provider shows it. */
export function presentLoadBalancer(row: LoadBalancerRow, provisionMs: number, now: number) {
  const active = isProvisioned(new Date(row.created_at), provisionMs, now);
  const region = findRegion(row.region);
  return {
    id: row.id,
    name: row.name,
    ip: active ? addressOf(row.n) : '',
    ...(row.settings as Record<string, never>),
    status: active ? ('active' as const) : ('new' as const),
    created_at: isoSeconds(new Date(row.created_at)),
    forwarding_rules: row.forwarding_rules,
    region: region
      ? {
          name: region.name,
          slug: region.slug,
          features: region.features,
          available: region.available,
          sizes: region.sizes,
        }
      : { name: row.region, slug: row.region, features: [], available: false, sizes: [] },
    droplet_ids: row.droplet_ids,
    ...(row.tag === null ? {} : { tag: row.tag }),
  };
}
