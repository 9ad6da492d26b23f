import type { Database } from '../../platform/database.js';
import type { Role, UserRow } from './store.js';

/** Columns a user write may set (the REST field names are mapped in user-writes.ts). */
export interface UserFields {
  login?: string;
  email?: string;
  display_name?: string;
  first_name?: string;
  last_name?: string;
  nickname?: string;
  description?: string;
  url?: string;
  language?: string;
  slug?: string;
  role?: Role;
  password_hash?: string;
}

/** Who holds a login, an e-mail address or a slug (trashed users included: the names stay taken). */
export async function userHolding(
  db: Database,
  column: 'login' | 'email' | 'slug',
  value: string,
): Promise<number | undefined> {
  const match = column === 'email' ? 'lower(email) = lower($1)' : `${column} = $1`;
  const { rows } = await db.query<{ id: number }>(`SELECT id FROM content.users WHERE ${match} LIMIT 1`, [
    value,
  ]);
  return rows[0]?.id;
}

/** WordPress's unique nicename: `name`, then `name-2`, `name-3`… */
export async function uniqueUserSlug(db: Database, base: string) {
  const { rows } = await db.query<{ slug: string }>(
    'SELECT slug FROM content.users WHERE slug = $1 OR slug LIKE $2',
    [base, `${base}-%`],
  );
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function insertUser(
  db: Database,
  fields: Required<Omit<UserFields, 'password_hash'>> & UserFields,
) {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  const { rows } = await db.query<UserRow>(
    `INSERT INTO content.users (${entries.map(([k]) => k).join(', ')})
     VALUES (${entries.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
    entries.map(([, v]) => v),
  );
  return rows[0] as UserRow;
}

export async function updateUser(db: Database, id: number, fields: UserFields) {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (entries.length)
    await db.query(
      `UPDATE content.users SET ${entries.map(([k], i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1`,
      [id, ...entries.map(([, v]) => v)],
    );
}
