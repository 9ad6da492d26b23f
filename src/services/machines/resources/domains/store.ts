import type { Database, Queryable } from '../../../../platform/database.js';
import { unprocessable } from '../../errors.js';
import { isRowId } from '../../store.js';
import { DEFAULT_TTL, nameServers, type RecordFields } from './rules.js';

export interface DomainRow {
  name: string;
  ttl: number;
  serial: string;
  created_at: Date;
}
export interface RecordRow extends RecordFields {
  id: number;
  domain: string;
}

const recordColumns = 'id, domain, type, name, data, priority, port, ttl, weight, flags, tag';

/** SOA serials are the time of the last change in seconds, kept increasing when two changes share a second. */
const bumpSerial = (db: Queryable, domain: string, now: Date) =>
  db.query('UPDATE machines.domains SET serial = greatest(serial + 1, $2) WHERE name = $1', [
    domain,
    Math.floor(now.getTime() / 1000),
  ]);

export async function findDomain(db: Queryable, name: string): Promise<DomainRow | undefined> {
  const { rows } = await db.query<DomainRow>('SELECT * FROM machines.domains WHERE name = $1', [
    name.toLowerCase(),
  ]);
  return rows[0];
}

export async function listDomains(db: Queryable, limit: number, offset: number) {
  const { rows } = await db.query<DomainRow>(
    'SELECT * FROM machines.domains ORDER BY name LIMIT $1 OFFSET $2',
    [limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM machines.domains');
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

/**
 * A new zone with the provider's defaults: its SOA, the three name servers, and an apex address record when an
 * address was given. Answers false when the name is taken.
 */
export async function insertDomain(
  db: Database,
  name: string,
  address: { type: 'A' | 'AAAA'; data: string } | undefined,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx.query(
      `INSERT INTO machines.domains (name, ttl, serial, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO NOTHING`,
      [name, DEFAULT_TTL, Math.floor(now.getTime() / 1000), now],
    );
    if (inserted.rowCount === 0) return false;
    const defaults: [string, string][] = [
      ['SOA', '1800'],
      ...nameServers.map((ns): [string, string] => ['NS', ns]),
      ...(address ? [[address.type, address.data] as [string, string]] : []),
    ];
    for (const [type, data] of defaults)
      await tx.query(
        `INSERT INTO machines.domain_records (domain, type, name, data, ttl) VALUES ($1, $2, '@', $3, $4)`,
        [name, type, data, DEFAULT_TTL],
      );
    return true;
  });
}

export async function deleteDomain(db: Queryable, name: string): Promise<void> {
  await db.query('DELETE FROM machines.domains WHERE name = $1', [name]);
}

export async function allRecords(db: Queryable, domain: string): Promise<RecordRow[]> {
  const { rows } = await db.query<RecordRow>(
    `SELECT ${recordColumns} FROM machines.domain_records WHERE domain = $1 ORDER BY id`,
    [domain],
  );
  return rows;
}

export async function findRecord(db: Queryable, domain: string, id: number): Promise<RecordRow | undefined> {
  if (!isRowId(id)) return undefined;
  const { rows } = await db.query<RecordRow>(
    `SELECT ${recordColumns} FROM machines.domain_records WHERE domain = $1 AND id = $2`,
    [domain, id],
  );
  return rows[0];
}

/** A CNAME owns its name: no other record may share it, nor a CNAME take a name in use. */
async function checkCname(db: Queryable, domain: string, r: RecordFields, except: number) {
  const { rows } = await db.query<{ type: string }>(
    'SELECT type FROM machines.domain_records WHERE domain = $1 AND name = $2 AND id <> $3',
    [domain, r.name, except],
  );
  if (rows.length && (r.type === 'CNAME' || rows.some((row) => row.type === 'CNAME')))
    throw unprocessable('CNAME records cannot share a name with other records.');
}

const values = (r: RecordFields) => [
  r.type,
  r.name,
  r.data,
  r.priority,
  r.port,
  r.ttl,
  r.weight,
  r.flags,
  r.tag,
];

export async function insertRecord(
  db: Database,
  domain: string,
  r: RecordFields,
  now: Date,
): Promise<RecordRow> {
  return db.transaction(async (tx) => {
    await checkCname(tx, domain, r, 0);
    const { rows } = await tx.query<RecordRow>(
      `INSERT INTO machines.domain_records (domain, type, name, data, priority, port, ttl, weight, flags, tag)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${recordColumns}`,
      [domain, ...values(r)],
    );
    await bumpSerial(tx, domain, now);
    return rows[0] as RecordRow;
  });
}

export async function updateRecord(
  db: Database,
  row: RecordRow,
  r: RecordFields,
  now: Date,
): Promise<RecordRow> {
  return db.transaction(async (tx) => {
    await checkCname(tx, row.domain, r, row.id);
    const { rows } = await tx.query<RecordRow>(
      `UPDATE machines.domain_records SET type = $2, name = $3, data = $4, priority = $5, port = $6, ttl = $7,
         weight = $8, flags = $9, tag = $10 WHERE id = $1 RETURNING ${recordColumns}`,
      [row.id, ...values(r)],
    );
    await bumpSerial(tx, row.domain, now);
    return rows[0] as RecordRow;
  });
}

export async function deleteRecord(db: Database, row: RecordRow, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM machines.domain_records WHERE id = $1', [row.id]);
    await bumpSerial(tx, row.domain, now);
  });
}
