import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../../../platform/database.js';
import { unprocessable } from '../../errors.js';
import { isRowId } from '../../store.js';
import { tagSpellings } from '../tags/store.js';
import type { ForwardingRule, LoadBalancerFields } from './rules.js';

export interface LoadBalancerRow {
  id: string;
  n: number;
  name: string;
  region: string;
  tag: string | null;
  forwarding_rules: ForwardingRule[];
  settings: Record<string, unknown>;
  created_at: Date;
  /** Named directly, or carrying its tag in its region. */
  droplet_ids: number[];
}

const columns = `l.id::text AS id, l.n, l.name, l.region, l.tag, l.forwarding_rules, l.settings, l.created_at,
  ARRAY(SELECT d.machine_id FROM machines.load_balancer_droplets d WHERE d.load_balancer_id = l.id
        UNION SELECT m.id FROM machines.machines m WHERE l.tag = ANY (m.tags) AND m.region = l.region
        ORDER BY 1) AS droplet_ids`;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findLoadBalancer(db: Queryable, id: string): Promise<LoadBalancerRow | undefined> {
  if (!uuid.test(id)) return undefined;
  const { rows } = await db.query<LoadBalancerRow>(
    `SELECT ${columns} FROM machines.load_balancers l WHERE l.id = $1`,
    [id],
  );
  return rows[0];
}

export async function listLoadBalancers(db: Queryable, limit: number, offset: number) {
  const { rows } = await db.query<LoadBalancerRow>(
    `SELECT ${columns} FROM machines.load_balancers l ORDER BY l.created_at, l.n LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM machines.load_balancers');
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** Droplets must exist in the load balancer's region; certificates of TLS rules must exist. */
export async function checkReferences(
  db: Queryable,
  region: string,
  dropletIds: number[],
  rules: ForwardingRule[],
) {
  const { rows } = await db.query<{ id: number; region: string }>(
    'SELECT id, region FROM machines.machines WHERE id = ANY ($1::int[])',
    [dropletIds.filter(isRowId)],
  );
  for (const id of dropletIds) {
    const found = rows.find((r) => r.id === id);
    if (!found) throw unprocessable(`Droplet ${id} could not be found.`);
    if (found.region !== region)
      throw unprocessable(
        `Droplet ${id} is in ${found.region}, not in the load balancer's region ${region}.`,
      );
  }
  for (const rule of rules) {
    if (!rule.certificate_id) continue;
    const { rows: certs } = await db.query('SELECT 1 FROM machines.certificates WHERE id::text = lower($1)', [
      rule.certificate_id,
    ]);
    if (!certs.length) throw unprocessable(`Certificate ${rule.certificate_id} could not be found.`);
  }
}

async function write(tx: Queryable, id: string, f: LoadBalancerFields) {
  const tag = f.tag === null ? null : ((await tagSpellings(tx, [f.tag]))[0] ?? f.tag);
  await tx.query(
    `UPDATE machines.load_balancers SET name = $2, region = $3, tag = $4, forwarding_rules = $5, settings = $6
     WHERE id = $1`,
    [id, f.name, f.region, tag, JSON.stringify(f.forwarding_rules), JSON.stringify(f.settings)],
  );
  await tx.query('DELETE FROM machines.load_balancer_droplets WHERE load_balancer_id = $1', [id]);
  await addDroplets(tx, id, f.dropletIds);
}

export async function insertLoadBalancer(
  db: Database,
  f: LoadBalancerFields,
  now: Date,
): Promise<LoadBalancerRow> {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO machines.load_balancers (id, name, region, forwarding_rules, settings, created_at)
       VALUES ($1, $2, $3, '[]', '{}', $4)`,
      [id, f.name, f.region, now],
    );
    await write(tx, id, f);
  });
  return (await findLoadBalancer(db, id)) as LoadBalancerRow;
}

export async function replaceLoadBalancer(db: Database, id: string, f: LoadBalancerFields): Promise<void> {
  await db.transaction((tx) => write(tx, id, f));
}

export async function deleteLoadBalancer(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM machines.load_balancers WHERE id = $1', [id]);
}

export async function addDroplets(db: Queryable, id: string, machineIds: number[]): Promise<void> {
  await db.query(
    `INSERT INTO machines.load_balancer_droplets (load_balancer_id, machine_id) SELECT $1, unnest($2::int[])
     ON CONFLICT DO NOTHING`,
    [id, machineIds],
  );
}

export async function removeDroplets(db: Queryable, id: string, machineIds: number[]): Promise<void> {
  await db.query(
    'DELETE FROM machines.load_balancer_droplets WHERE load_balancer_id = $1 AND machine_id = ANY ($2::int[])',
    [id, machineIds],
  );
}

export async function setRules(db: Queryable, id: string, rules: ForwardingRule[]): Promise<void> {
  await db.query('UPDATE machines.load_balancers SET forwarding_rules = $2 WHERE id = $1', [
    id,
    JSON.stringify(rules),
  ]);
}
