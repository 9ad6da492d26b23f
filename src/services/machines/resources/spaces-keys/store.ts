import { randomBytes, randomInt } from 'node:crypto';
import type { Queryable } from '../../../../platform/database.js';
import { tokenHash } from '../../../../platform/secrets.js';
import type { Grant } from './rules.js';

export interface KeyRow {
  access_key: string;
  name: string;
  grants: Grant[];
  created_at: Date;
}

const columns = 'access_key, name, grants, created_at';
const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** An access key in the provider's form: "DO" and 18 upper-case letters and digits. */
const newAccessKey = () =>
  `DO${Array.from({ length: 18 }, () => alphabet[randomInt(alphabet.length)]).join('')}`;

export async function findKey(db: Queryable, accessKey: string): Promise<KeyRow | undefined> {
  const { rows } = await db.query<KeyRow>(
    `SELECT ${columns} FROM machines.spaces_keys WHERE access_key = $1`,
    [accessKey],
  );
  return rows[0];
}

export interface KeyFilter {
  name?: string;
  bucket?: string;
  permission?: string;
  sort: 'created_at' | 'name';
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export async function listKeys(db: Queryable, f: KeyFilter) {
  const where = `WHERE ($1::text IS NULL OR name = $1)
    AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements(grants) g WHERE g->>'bucket' = $2))
    AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements(grants) g WHERE g->>'permission' = $3))`;
  const params = [f.name ?? null, f.bucket ?? null, f.permission ?? null];
  // Sort column and direction come from two closed lists (the query schema), never from the caller's text.
  const order = `${f.sort === 'name' ? 'name' : 'created_at'} ${f.direction === 'asc' ? 'ASC' : 'DESC'}, access_key`;
  const { rows } = await db.query<KeyRow>(
    `SELECT ${columns} FROM machines.spaces_keys ${where} ORDER BY ${order} LIMIT $4 OFFSET $5`,
    [...params, f.limit, f.offset],
  );
  const count = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM machines.spaces_keys ${where}`,
    params,
  );
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** A new key and its secret, which is returned here once and stored only as its hash. */
export async function insertKey(db: Queryable, name: string, grants: Grant[], now: Date) {
  const secret = randomBytes(32).toString('base64').replace(/=+$/, '');
  const { rows } = await db.query<KeyRow>(
    `INSERT INTO machines.spaces_keys (access_key, name, grants, secret_hash, created_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING ${columns}`,
    [newAccessKey(), name, JSON.stringify(grants), tokenHash(secret), now],
  );
  return { row: rows[0] as KeyRow, secret };
}

export async function updateKey(
  db: Queryable,
  accessKey: string,
  name: string,
  grants: Grant[],
): Promise<KeyRow> {
  const { rows } = await db.query<KeyRow>(
    `UPDATE machines.spaces_keys SET name = $2, grants = $3 WHERE access_key = $1 RETURNING ${columns}`,
    [accessKey, name, JSON.stringify(grants)],
  );
  return rows[0] as KeyRow;
}

export async function deleteKey(db: Queryable, accessKey: string): Promise<void> {
  await db.query('DELETE FROM machines.spaces_keys WHERE access_key = $1', [accessKey]);
}
