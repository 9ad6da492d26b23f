import type { Queryable } from '../../../../platform/database.js';
import { isRowId } from '../../store.js';

export interface KeyRow {
  id: number;
  name: string;
  public_key: string;
  fingerprint: string;
}

const columns = 'id, name, public_key, fingerprint';

/** A key is named by its numeric id or its MD5 fingerprint (`aa:bb:…`); anything else names none. */
function byRef(ref: string | number): [string, unknown] {
  if (typeof ref === 'number' || /^\d+$/.test(ref)) {
    const id = Number(ref);
    return isRowId(id) ? ['id = $1', id] : ['false AND $1::int IS NULL', null];
  }
  const fingerprint = String(ref).toLowerCase();
  return /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/.test(fingerprint)
    ? ['fingerprint = $1', fingerprint]
    : ['false AND $1::text IS NULL', null];
}

export async function findKey(db: Queryable, ref: string | number): Promise<KeyRow | undefined> {
  const [where, value] = byRef(ref);
  const { rows } = await db.query<KeyRow>(`SELECT ${columns} FROM machines.ssh_keys WHERE ${where}`, [value]);
  return rows[0];
}

export async function listKeys(
  db: Queryable,
  limit: number,
  offset: number,
): Promise<{ rows: KeyRow[]; total: number }> {
  const { rows } = await db.query<KeyRow>(
    `SELECT ${columns} FROM machines.ssh_keys ORDER BY id LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM machines.ssh_keys');
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** Undefined when a key with the same fingerprint is already stored. */
export async function insertKey(db: Queryable, key: Omit<KeyRow, 'id'>): Promise<KeyRow | undefined> {
  const { rows } = await db.query<KeyRow>(
    `INSERT INTO machines.ssh_keys (name, public_key, fingerprint) VALUES ($1, $2, $3)
     ON CONFLICT (fingerprint) DO NOTHING RETURNING ${columns}`,
    [key.name, key.public_key, key.fingerprint],
  );
  return rows[0];
}

export async function renameKey(db: Queryable, ref: string, name: string): Promise<KeyRow | undefined> {
  const [where, value] = byRef(ref);
  const { rows } = await db.query<KeyRow>(
    `UPDATE machines.ssh_keys SET name = $2 WHERE ${where} RETURNING ${columns}`,
    [value, name],
  );
  return rows[0];
}

export async function deleteKey(db: Queryable, ref: string): Promise<boolean> {
  const [where, value] = byRef(ref);
  const { rowCount } = await db.query(`DELETE FROM machines.ssh_keys WHERE ${where}`, [value]);
  return rowCount > 0;
}
