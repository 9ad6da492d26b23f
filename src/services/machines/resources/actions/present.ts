import { isoSeconds, isProvisioned } from '../../time.js';
import { findRegion } from '../catalog/data.js';
import type { ActionRow } from './row.js';

export function presentAction(row: ActionRow, provisionMs: number, now: number) {
  const completed = isProvisioned(row.started_at, provisionMs, now);
  return {
    id: row.id,
    status: completed ? 'completed' : 'in-progress',
    type: row.type,
    started_at: isoSeconds(row.started_at),
    completed_at: completed ? isoSeconds(new Date(row.started_at.getTime() + provisionMs)) : null,
    resource_id: row.resource_id,
    resource_type: row.resource_type,
    region: findRegion(row.region) ?? null,
    region_slug: row.region,
  };
}
