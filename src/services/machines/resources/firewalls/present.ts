import { isoSeconds, isProvisioned } from '../../time.js';
import type { FirewallRow } from './store.js';

/** A firewall is `waiting` while its last change is applied (the provisioning time), then `succeeded`. */
export function presentFirewall(row: FirewallRow, provisionMs: number, now: number) {
  const applied = isProvisioned(new Date(row.changed_at), provisionMs, now);
  return {
    id: row.id,
    name: row.name,
    status: applied ? ('succeeded' as const) : ('waiting' as const),
    created_at: isoSeconds(new Date(row.created_at)),
    pending_changes: applied
      ? []
      : row.droplet_ids.map((id) => ({ droplet_id: id, removing: false, status: 'waiting' })),
    droplet_ids: row.droplet_ids,
    tags: row.tags,
    inbound_rules: row.inbound_rules,
    outbound_rules: row.outbound_rules,
  };
}
