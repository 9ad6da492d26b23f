import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../../../platform/database.js';
import { defaultVpcUuid } from '../catalog/data.js';
import { defaultRange, freeRange, overlaps, parseCidr, type Range } from './addresses.js';

export interface VpcRow {
  id: string;
  name: string;
  description: string;
  region: string;
  ip_range: string;
  is_default: boolean;
  created_at: Date;
}

export interface PeeringRow {
  id: string;
  name: string;
  vpc_ids: string[];
  created_at: Date;
}

// VPC names and ranges are checked and written under one lock, so two writers cannot both take them.
export const vpcLock = `SELECT pg_advisory_xact_lock(hashtext('backlot:vpcs'))`;

const columns = 'v.id::text AS id, v.name, v.description, v.region, v.ip_range, v.is_default, v.created_at';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findVpc(db: Queryable, id: string): Promise<VpcRow | undefined> {
  if (!uuid.test(id)) return undefined;
  const { rows } = await db.query<VpcRow>(`SELECT ${columns} FROM machines.vpcs v WHERE v.id = $1`, [id]);
  return rows[0];
}

export async function listVpcs(db: Queryable, limit: number, offset: number) {
  const { rows } = await db.query<VpcRow>(
    `SELECT ${columns} FROM machines.vpcs v ORDER BY v.created_at, v.id LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM machines.vpcs');
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

export async function takenRanges(db: Queryable, except = ''): Promise<Range[]> {
  const { rows } = await db.query<{ ip_range: string }>(
    'SELECT ip_range FROM machines.vpcs WHERE id::text <> $1',
    [except],
  );
  return rows.map((r) => parseCidr(r.ip_range) as Range);
}

export async function nameTaken(db: Queryable, name: string, except = ''): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM machines.vpcs WHERE lower(name) = lower($1) AND id::text <> $2',
    [name, except],
  );
  return rows.length > 0;
}

/** Creates a VPC; the first of its region becomes the region's default, as the provider's does. */
export async function insertVpc(
  db: Queryable,
  v: { name: string; description: string; region: string; ipRange: string; id?: string },
  now: Date,
): Promise<VpcRow> {
  const { rows } = await db.query<VpcRow>(
    `INSERT INTO machines.vpcs AS v (id, name, description, region, ip_range, is_default, created_at)
     VALUES ($1, $2, $3, $4, $5, NOT EXISTS (SELECT 1 FROM machines.vpcs d WHERE d.region = $4), $6)
     RETURNING ${columns}`,
    [v.id ?? randomUUID(), v.name, v.description, v.region, v.ipRange, now],
  );
  return rows[0] as VpcRow;
}

/**
 * The region's default VPC, made when the region has none yet (`default-<region>`, the id and range machines
 * always showed, or a free /20 when that range is taken by another VPC).
 */
export async function defaultVpc(db: Queryable, region: string, now: Date): Promise<VpcRow> {
  const { rows } = await db.query<VpcRow>(
    `SELECT ${columns} FROM machines.vpcs v WHERE v.region = $1 AND v.is_default`,
    [region],
  );
  if (rows[0]) return rows[0];
  const taken = await takenRanges(db);
  const preferred = defaultRange(region);
  const free = !taken.some((t) => overlaps(t, parseCidr(preferred) as Range));
  const id = defaultVpcUuid(region);
  const idFree = !(await findVpc(db, id));
  let name = `default-${region}`;
  if (await nameTaken(db, name)) name = `${name}-${id.slice(0, 8)}`;
  return insertVpc(
    db,
    {
      id: idFree ? id : randomUUID(),
      name,
      description: '',
      region,
      ipRange: free ? preferred : (freeRange(taken) ?? preferred),
    },
    now,
  );
}

/** `defaultVpc` under the VPC lock, so two first creates in a region make one default. */
export const ensureDefaultVpc = (db: Database, region: string, now: Date) =>
  db.transaction(async (tx) => {
    await tx.query(vpcLock);
    return defaultVpc(tx, region, now);
  });

export async function updateVpc(
  db: Queryable,
  id: string,
  change: { name?: string; description?: string; makeDefault: boolean },
): Promise<void> {
  if (change.makeDefault) {
    await db.query(
      `UPDATE machines.vpcs SET is_default = false
       WHERE is_default AND region = (SELECT region FROM machines.vpcs WHERE id = $1) AND id <> $1`,
      [id],
    );
  }
  await db.query(
    `UPDATE machines.vpcs SET name = coalesce($2, name), description = coalesce($3, description),
       is_default = is_default OR $4 WHERE id = $1`,
    [id, change.name ?? null, change.description ?? null, change.makeDefault],
  );
}

export async function memberCount(db: Queryable, id: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM machines.machines WHERE vpc_uuid = $1',
    [id],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function deleteVpc(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM machines.vpcs WHERE id = $1', [id]);
}

/** The machines in a VPC, as members: name, URN, creation time. */
export async function listMembers(db: Queryable, id: string, limit: number, offset: number) {
  const { rows } = await db.query<{ id: number; name: string; created_at: Date }>(
    `SELECT id, name, created_at FROM machines.machines WHERE vpc_uuid = $1 ORDER BY id LIMIT $2 OFFSET $3`,
    [id, limit, offset],
  );
  return { rows, total: await memberCount(db, id) };
}

/** Private addresses already given out in a VPC. */
export async function usedAddresses(db: Queryable, id: string): Promise<Set<string>> {
  const { rows } = await db.query<{ private_ip: string }>(
    'SELECT private_ip FROM machines.machines WHERE vpc_uuid = $1 AND private_ip IS NOT NULL',
    [id],
  );
  return new Set(rows.map((r) => r.private_ip));
}

const peeringColumns =
  'p.id::text AS id, p.name, ARRAY[p.vpc_a::text, p.vpc_b::text] AS vpc_ids, p.created_at';

export async function listPeerings(db: Queryable, vpcId: string, limit: number, offset: number) {
  const where = 'WHERE p.vpc_a = $1 OR p.vpc_b = $1';
  const { rows } = await db.query<PeeringRow>(
    `SELECT ${peeringColumns} FROM machines.vpc_peerings p ${where} ORDER BY p.created_at, p.id LIMIT $2 OFFSET $3`,
    [vpcId, limit, offset],
  );
  const count = await db.query<{ n: string }>(`SELECT count(*) AS n FROM machines.vpc_peerings p ${where}`, [
    vpcId,
  ]);
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

export async function findPeering(db: Queryable, vpcId: string, id: string): Promise<PeeringRow | undefined> {
  if (!uuid.test(id) || !uuid.test(vpcId)) return undefined;
  const { rows } = await db.query<PeeringRow>(
    `SELECT ${peeringColumns} FROM machines.vpc_peerings p WHERE p.id = $2 AND (p.vpc_a = $1 OR p.vpc_b = $1)`,
    [vpcId, id],
  );
  return rows[0];
}

/** Whether another peering has the name, or peers the same two VPCs. */
export async function peeringConflict(db: Queryable, name: string, a: string, b: string, except = '') {
  const { rows } = await db.query<{ same_name: boolean }>(
    `SELECT lower(name) = lower($1) AS same_name FROM machines.vpc_peerings WHERE id::text <> $4
       AND (lower(name) = lower($1) OR (vpc_a = $2 AND vpc_b = $3) OR (vpc_a = $3 AND vpc_b = $2))
     ORDER BY 1 DESC`,
    [name, a, b, except],
  );
  return rows[0] ? (rows[0].same_name ? 'name' : 'pair') : undefined;
}

export async function insertPeering(db: Queryable, name: string, a: string, b: string, now: Date) {
  const { rows } = await db.query<PeeringRow>(
    `INSERT INTO machines.vpc_peerings AS p (id, name, vpc_a, vpc_b, created_at) VALUES ($1, $2, $3, $4, $5)
     RETURNING ${peeringColumns}`,
    [randomUUID(), name, a, b, now],
  );
  return rows[0] as PeeringRow;
}

export async function renamePeering(db: Queryable, id: string, name: string): Promise<void> {
  await db.query('UPDATE machines.vpc_peerings SET name = $2 WHERE id = $1', [id, name]);
}
