import { randomUUID } from 'node:crypto';
import type { Database } from '../../platform/database.js';

export interface User {
  id: string;
  fullName: string;
  email: string;
  img_uri: string;
  DateCreated: string;
}

interface UserRow {
  id: string;
  full_name: string;
  email: string;
  img_uri: string;
  date_created: string;
}

const columns = 'id, full_name, email, img_uri, date_created';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toUser = (row: UserRow): User => ({
  id: row.id,
  fullName: row.full_name,
  email: row.email,
  img_uri: row.img_uri,
  DateCreated: row.date_created,
});

/** Month-day-year in UTC, zero-padded: `03-07-2026`. */
export function formatDateCreated(date: Date) {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}-${date.getUTCFullYear()}`;
}

export function createUserStore(db: Database) {
  return {
    async listUsers(): Promise<User[]> {
      const { rows } = await db.query<UserRow>(
        `SELECT ${columns} FROM profiles.users ORDER BY created_at, seq`,
      );
      return rows.map(toUser);
    },

    async insertUser(input: { fullName: string; email: string; imgUri: string; now: Date }): Promise<User> {
      const { rows } = await db.query<UserRow>(
        `INSERT INTO profiles.users (id, full_name, email, img_uri, date_created, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${columns}`,
        [randomUUID(), input.fullName, input.email, input.imgUri, formatDateCreated(input.now), input.now],
      );
      return toUser(rows[0] as UserRow);
    },

    /** Undefined when no user has that id (including ids that are not UUIDs at all). */
    async findUserById(id: string): Promise<User | undefined> {
      if (!uuidPattern.test(id)) return undefined;
      const { rows } = await db.query<UserRow>(`SELECT ${columns} FROM profiles.users WHERE id = $1`, [id]);
      return rows[0] ? toUser(rows[0]) : undefined;
    },

    /** Returns false when the user no longer exists. */
    async setImageUri(id: string, imgUri: string): Promise<boolean> {
      const { rowCount } = await db.query('UPDATE profiles.users SET img_uri = $2 WHERE id = $1', [
        id,
        imgUri,
      ]);
      return rowCount === 1;
    },
  };
}

export type UserStore = ReturnType<typeof createUserStore>;
