import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../../platform/database.js';
import { unprocessable } from '../../errors.js';
import { entityKind, type PolicyFields } from './rules.js';

export interface PolicyRow extends PolicyFields {
  uuid: string;
}

const columns =
  'uuid::text AS uuid, type, description, compare, value, "window", entities, tags, alerts, enabled';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findPolicy(db: Queryable, id: string): Promise<PolicyRow | undefined> {
  if (!uuid.test(id)) return undefined;
  const { rows } = await db.query<PolicyRow>(
    `SELECT ${columns} FROM machines.alert_policies WHERE uuid = $1`,
    [id],
  );
  return rows[0];
}

export async function listPolicies(db: Queryable, limit: number, offset: number) {
  const { rows } = await db.query<PolicyRow>(
    `SELECT ${columns} FROM machines.alert_policies ORDER BY created_at, uuid LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM machines.alert_policies');
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** The droplets or load balancers a policy watches must exist. */
export async function checkEntities(db: Queryable, f: PolicyFields) {
  const kind = entityKind(f.type);
  for (const entity of f.entities) {
    const sql =
      kind === 'droplet'
        ? `SELECT 1 FROM machines.machines WHERE id::text = $1`
        : kind === 'load_balancer'
          ? `SELECT 1 FROM machines.load_balancers WHERE id::text = lower($1)`
          : undefined;
    if (!sql) return;
    const { rows } = await db.query(sql, [entity]);
    if (!rows.length)
      throw unprocessable(
        `${kind === 'droplet' ? 'Droplet' : 'Load balancer'} ${entity} could not be found.`,
      );
  }
}

const values = (f: PolicyFields) => [
  f.type,
  f.description,
  f.compare,
  f.value,
  f.window,
  f.entities,
  f.tags,
  JSON.stringify(f.alerts),
  f.enabled,
];

export async function insertPolicy(db: Queryable, f: PolicyFields, now: Date): Promise<PolicyRow> {
  const { rows } = await db.query<PolicyRow>(
    `INSERT INTO machines.alert_policies
       (uuid, type, description, compare, value, "window", entities, tags, alerts, enabled, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${columns}`,
    [randomUUID(), ...values(f), now],
  );
  return rows[0] as PolicyRow;
}

export async function replacePolicy(db: Queryable, id: string, f: PolicyFields): Promise<PolicyRow> {
  const { rows } = await db.query<PolicyRow>(
    `UPDATE machines.alert_policies SET type = $2, description = $3, compare = $4, value = $5, "window" = $6,
       entities = $7, tags = $8, alerts = $9, enabled = $10 WHERE uuid = $1 RETURNING ${columns}`,
    [id, ...values(f)],
  );
  return rows[0] as PolicyRow;
}

export async function deletePolicy(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM machines.alert_policies WHERE uuid = $1', [id]);
}
