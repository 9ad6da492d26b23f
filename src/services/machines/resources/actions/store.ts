import type { Database, Queryable } from '../../../../platform/database.js';
import { applyEffect } from '../droplet-actions/effects.js';
import { type ActionRow, actionColumns } from './row.js';

export interface NewAction {
  type: string;
  resourceId: number | null;
  resourceType: string;
  region: string;
  params?: Record<string, unknown>;
  startedAt: Date;
}

/** An action whose effect is applied once it completes on the provisioning clock (see settleActions). */
export async function insertAction(db: Queryable, action: NewAction): Promise<ActionRow> {
  const { rows } = await db.query<ActionRow>(
    `INSERT INTO machines.actions (type, resource_id, resource_type, region, params, started_at, applied)
     VALUES ($1, $2, $3, $4, $5, $6, false) RETURNING ${actionColumns}`,
    [
      action.type,
      action.resourceId,
      action.resourceType,
      action.region,
      JSON.stringify(action.params ?? {}),
      action.startedAt,
    ],
  );
  return rows[0] as ActionRow;
}

export interface ActionFilter {
  machineId?: number;
  volumeId?: string;
  reservedIp?: string;
  imageId?: number;
  limit: number;
  offset: number;
}

/** Newest first, as the provider lists them. */
export async function listActions(
  db: Queryable,
  filter: ActionFilter,
): Promise<{ rows: ActionRow[]; total: number }> {
  const params: unknown[] = [];
  let where = '';
  if (filter.machineId !== undefined) {
    params.push(filter.machineId);
    where = `WHERE resource_id = $1 AND resource_type IN ('machine', 'droplet')`;
  } else if (filter.volumeId !== undefined) {
    params.push(filter.volumeId);
    where = `WHERE params->>'volume_id' = $1`;
  } else if (filter.reservedIp !== undefined) {
    params.push(filter.reservedIp);
    where = `WHERE resource_type = 'reserved_ip' AND params->>'ip' = $1`;
  } else if (filter.imageId !== undefined) {
    params.push(filter.imageId);
    where = `WHERE resource_type = 'image' AND resource_id = $1`;
  }
  const { rows } = await db.query<ActionRow>(
    `SELECT ${actionColumns} FROM machines.actions ${where} ORDER BY id DESC
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, filter.limit, filter.offset],
  );
  const count = await db.query<{ n: string }>(`SELECT count(*) AS n FROM machines.actions ${where}`, params);
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** Whether a machine has an action (its create included) that has not completed by `cutoff`. */
export async function hasPendingAction(db: Queryable, machineId: number, cutoff: Date): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM machines.actions
     WHERE resource_id = $1 AND resource_type IN ('machine', 'droplet') AND started_at > $2 LIMIT 1`,
    [machineId, cutoff],
  );
  return rows.length > 0;
}

/**
 * Writes the effects of every action that has completed by `cutoff` and is not yet applied, oldest first. Nothing
 * runs in the background: every request settles first, so every process and restart sees the same state. The row
 * locks make a second process wait and then find them applied.
 */
/** Each request's one reading of the clock, taken when its completed actions were applied (see settleForRequest). */
const requestTimes = new WeakMap<object, number>();

/**
 * Applies what completed by now and keeps that "now" for the request: its checks ("a pending action?") use the
 * same instant, or an action completing between two readings would be neither applied nor pending.
 */
export async function settleForRequest(
  request: object,
  db: Database,
  provisionMs: number,
  now: number,
  /** False when the guard's statement already found nothing due at `now`. */
  due = true,
): Promise<void> {
  requestTimes.set(request, now);
  if (due) await settleActions(db, provisionMs, now);
}

/** The instant `request` settled at (now, for a request that did not). */
export const requestTime = (request: object) => new Date(requestTimes.get(request) ?? Date.now());

export async function settleActions(db: Database, provisionMs: number, now: number): Promise<void> {
  const cutoff = new Date(now - provisionMs);
  const due = await db.query(
    'SELECT 1 FROM machines.actions WHERE NOT applied AND started_at <= $1 LIMIT 1',
    [cutoff],
  );
  if (due.rows.length === 0) return;
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<ActionRow>(
      `SELECT ${actionColumns} FROM machines.actions WHERE NOT applied AND started_at <= $1 ORDER BY id FOR UPDATE`,
      [cutoff],
    );
    for (const action of rows) {
      await applyEffect(tx, action, new Date(action.started_at.getTime() + provisionMs));
      await tx.query('UPDATE machines.actions SET applied = true WHERE id = $1', [action.id]);
    }
  });
}
