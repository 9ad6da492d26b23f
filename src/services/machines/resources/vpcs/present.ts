import { isoSeconds, isProvisioned } from '../../time.js';
import type { PeeringRow, VpcRow } from './store.js';

export const presentVpc = (v: VpcRow) => ({
  id: v.id,
  urn: `do:vpc:${v.id}`,
  name: v.name,
  description: v.description,
  region: v.region,
  ip_range: v.ip_range,
  default: v.is_default,
  created_at: isoSeconds(new Date(v.created_at)),
});

/** A peering is `PROVISIONING` for the provisioning time, then `ACTIVE`, as the provider's. */
export const presentPeering = (p: PeeringRow, provisionMs: number, now: number) => ({
  id: p.id,
  name: p.name,
  vpc_ids: p.vpc_ids,
  status: isProvisioned(new Date(p.created_at), provisionMs, now) ? 'ACTIVE' : 'PROVISIONING',
  created_at: isoSeconds(new Date(p.created_at)),
});
