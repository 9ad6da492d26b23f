import type { Database, Queryable } from '../../../../platform/database.js';

export interface ReservedIpRow {
  ip: string;
  region: string;
  machine_id: number | null;
  created_at: Date;
  project_id: string | null;
}

/** Reserved IPs come from 203.0.113.0/24 (TEST-NET-3, documentation), apart from droplets' own addresses. */
const POOL = '203.0.113.';
export const RESERVED_IP_LIMIT = 3;

const columns = `r.ip, r.region, r.machine_id, r.created_at,
  (SELECT p.project_id::text FROM machines.project_resources p WHERE p.urn = 'do:floatingip:' || r.ip) AS project_id`;

export class LimitReached extends Error {}

export async function findReservedIp(db: Queryable, ip: string): Promise<ReservedIpRow | undefined> {
  const { rows } = await db.query<ReservedIpRow>(
    `SELECT ${columns} FROM machines.reserved_ips r WHERE r.ip = $1`,
    [ip],
  );
  return rows[0];
}

export async function reservedIpOf(db: Queryable, machineId: number): Promise<ReservedIpRow | undefined> {
  const { rows } = await db.query<ReservedIpRow>(
    `SELECT ${columns} FROM machines.reserved_ips r WHERE r.machine_id = $1`,
    [machineId],
  );
  return rows[0];
}

export async function listReservedIps(db: Queryable, limit: number, offset: number) {
  const { rows } = await db.query<ReservedIpRow>(
    `SELECT ${columns} FROM machines.reserved_ips r ORDER BY r.created_at, r.ip LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM machines.reserved_ips');
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** Reserves the lowest free address of the pool, within the account's limit, under one lock. */
export async function reserveIp(
  db: Database,
  region: string,
  machineId: number | null,
  now: Date,
): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('backlot:reserved_ips'))`);
    const { rows } = await tx.query<{ ip: string }>('SELECT ip FROM machines.reserved_ips');
    if (rows.length >= RESERVED_IP_LIMIT) throw new LimitReached();
    const used = new Set(rows.map((r) => r.ip));
    let host = 2;
    while (used.has(`${POOL}${host}`)) host++;
    const ip = `${POOL}${host}`;
    await tx.query(
      'INSERT INTO machines.reserved_ips (ip, region, machine_id, created_at) VALUES ($1, $2, $3, $4)',
      [ip, region, machineId, now],
    );
    return ip;
  });
}

export async function setAssignment(db: Queryable, ip: string, machineId: number | null): Promise<void> {
  await db.query('UPDATE machines.reserved_ips SET machine_id = $2 WHERE ip = $1', [ip, machineId]);
}

export async function releaseIp(db: Queryable, ip: string): Promise<void> {
  await db.query('DELETE FROM machines.reserved_ips WHERE ip = $1', [ip]);
}
