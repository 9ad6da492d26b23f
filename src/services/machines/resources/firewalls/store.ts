import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../../../platform/database.js';
import { isRowId } from '../../store.js';
import type { Rule, Rules } from './rules.js';

export interface FirewallRow extends Rules {
  id: string;
  name: string;
  tags: string[];
  created_at: Date;
  changed_at: Date;
  /** Named directly or through a tag, as the provider shows them. */
  droplet_ids: number[];
}

export interface FirewallFields {
  name: string;
  rules: Rules;
  tags: string[];
  dropletIds: number[];
}

const columns = `f.id::text AS id, f.name, f.inbound_rules, f.outbound_rules, f.tags, f.created_at, f.changed_at,
  ARRAY(SELECT d.machine_id FROM machines.firewall_droplets d WHERE d.firewall_id = f.id
        UNION SELECT m.id FROM machines.machines m WHERE m.tags && f.tags ORDER BY 1) AS droplet_ids`;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findFirewall(db: Queryable, id: string): Promise<FirewallRow | undefined> {
  if (!uuid.test(id)) return undefined;
  const { rows } = await db.query<FirewallRow>(
    `SELECT ${columns} FROM machines.firewalls f WHERE f.id = $1`,
    [id],
  );
  return rows[0];
}

/** Every firewall, or those that apply to one machine (directly or by one of its tags). */
export async function listFirewalls(
  db: Queryable,
  opts: { machineId?: number; limit: number; offset: number },
): Promise<{ rows: FirewallRow[]; total: number }> {
  const where =
    opts.machineId === undefined
      ? ''
      : `WHERE EXISTS (SELECT 1 FROM machines.firewall_droplets d WHERE d.firewall_id = f.id AND d.machine_id = $3)
           OR f.tags && (SELECT m.tags FROM machines.machines m WHERE m.id = $3)`;
  const params = opts.machineId === undefined ? [] : [opts.machineId];
  const { rows } = await db.query<FirewallRow>(
    `SELECT ${columns} FROM machines.firewalls f ${where} ORDER BY f.created_at, f.id LIMIT $1 OFFSET $2`,
    [opts.limit, opts.offset, ...params],
  );
  const count = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM machines.firewalls f ${where.replaceAll('$3', '$1')}`,
    params,
  );
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** The ids among `ids` that name no machine, and the names among `tags` that are no tag. */
export async function missingReferences(db: Queryable, ids: number[], tags: string[]) {
  const { rows: found } = await db.query<{ id: number }>(
    'SELECT id FROM machines.machines WHERE id = ANY ($1::int[])',
    [ids.filter(isRowId)],
  );
  const { rows: known } = await db.query<{ name: string }>(
    'SELECT name FROM machines.tags WHERE name = ANY ($1::text[])',
    [tags],
  );
  return {
    droplets: ids.filter((id) => !found.some((r) => r.id === id)),
    tags: tags.filter((t) => !known.some((r) => r.name === t)),
  };
}

export async function nameTaken(db: Queryable, name: string, except?: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM machines.firewalls WHERE name = $1 AND id::text <> $2', [
    name,
    except ?? '',
  ]);
  return rows.length > 0;
}

export async function insertFirewall(db: Database, f: FirewallFields, now: Date): Promise<FirewallRow> {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO machines.firewalls (id, name, inbound_rules, outbound_rules, tags, created_at, changed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [
        id,
        f.name,
        JSON.stringify(f.rules.inbound_rules),
        JSON.stringify(f.rules.outbound_rules),
        f.tags,
        now,
      ],
    );
    await addDroplets(tx, id, f.dropletIds, now);
  });
  return (await findFirewall(db, id)) as FirewallRow;
}

/** PUT: everything is replaced, the directly named droplets too. */
export async function replaceFirewall(db: Database, id: string, f: FirewallFields, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `UPDATE machines.firewalls SET name = $2, inbound_rules = $3, outbound_rules = $4, tags = $5, changed_at = $6
       WHERE id = $1`,
      [
        id,
        f.name,
        JSON.stringify(f.rules.inbound_rules),
        JSON.stringify(f.rules.outbound_rules),
        f.tags,
        now,
      ],
    );
    await tx.query('DELETE FROM machines.firewall_droplets WHERE firewall_id = $1', [id]);
    await addDroplets(tx, id, f.dropletIds, now);
  });
}

export async function deleteFirewall(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM machines.firewalls WHERE id = $1', [id]);
}

export async function addDroplets(db: Queryable, id: string, machineIds: number[], now: Date): Promise<void> {
  await db.query(
    `INSERT INTO machines.firewall_droplets (firewall_id, machine_id) SELECT $1, unnest($2::int[])
     ON CONFLICT DO NOTHING`,
    [id, machineIds],
  );
  await touch(db, id, now);
}

export async function removeDroplets(
  db: Queryable,
  id: string,
  machineIds: number[],
  now: Date,
): Promise<void> {
  await db.query(
    'DELETE FROM machines.firewall_droplets WHERE firewall_id = $1 AND machine_id = ANY ($2::int[])',
    [id, machineIds],
  );
  await touch(db, id, now);
}

export async function changeTags(db: Queryable, id: string, tags: string[], add: boolean, now: Date) {
  const sql = add
    ? 'ARRAY(SELECT t FROM unnest(tags || $2::text[]) WITH ORDINALITY x (t, n) GROUP BY t ORDER BY min(n))'
    : 'ARRAY(SELECT t FROM unnest(tags) WITH ORDINALITY x (t, n) WHERE t <> ALL ($2::text[]) ORDER BY n)';
  await db.query(`UPDATE machines.firewalls SET tags = ${sql}, changed_at = $3 WHERE id = $1`, [
    id,
    tags,
    now,
  ]);
}

export async function setRules(db: Queryable, id: string, inbound: Rule[], outbound: Rule[], now: Date) {
  await db.query(
    'UPDATE machines.firewalls SET inbound_rules = $2, outbound_rules = $3, changed_at = $4 WHERE id = $1',
    [id, JSON.stringify(inbound), JSON.stringify(outbound), now],
  );
}

async function touch(db: Queryable, id: string, now: Date) {
  await db.query('UPDATE machines.firewalls SET changed_at = $2 WHERE id = $1', [id, now]);
}
