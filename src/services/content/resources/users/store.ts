import type { Database } from '../../../../platform/database.js';
import { tokenHash } from '../../../../platform/secrets.js';
import { normalizeAppPassword } from '../../auth.js';
import type { PostRow, Role, UserRow } from '../../store.js';

/** Columns a user write may set (the REST field names are mapped in params.ts). */
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

/** An application password as stored: its secret only as a hash, never read back. */
export interface AppPasswordRow {
  id: number;
  uuid: string;
  app_id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  last_ip: string | null;
}

const appPasswordColumns = 'id, uuid::text AS uuid, app_id, name, created_at, last_used_at, last_ip';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** content.users beyond ContentStore's reads: writes, names held, and each user's application passwords. */
export class UserStore {
  constructor(private readonly db: Database) {}

  /** Who holds a login, an e-mail address or a slug (trashed users included: the names stay taken). */
  async holding(column: 'login' | 'email' | 'slug', value: string): Promise<number | undefined> {
    const match = column === 'email' ? 'lower(email) = lower($1)' : `${column} = $1`;
    const { rows } = await this.db.query<{ id: number }>(
      `SELECT id FROM content.users WHERE ${match} LIMIT 1`,
      [value],
    );
    return rows[0]?.id;
  }

  /** WordPress's unique nicename: `name`, then `name-2`, `name-3`… */
  async uniqueSlug(base: string) {
    const { rows } = await this.db.query<{ slug: string }>(
      'SELECT slug FROM content.users WHERE slug = $1 OR slug LIKE $2',
      [base, `${base}-%`],
    );
    const taken = new Set(rows.map((r) => r.slug));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  async insert(fields: Required<Omit<UserFields, 'password_hash'>> & UserFields) {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    const { rows } = await this.db.query<UserRow>(
      `INSERT INTO content.users (${entries.map(([k]) => k).join(', ')})
       VALUES (${entries.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
      entries.map(([, v]) => v),
    );
    return rows[0] as UserRow;
  }

  async update(id: number, fields: UserFields) {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (entries.length)
      await this.db.query(
        `UPDATE content.users SET ${entries.map(([k], i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1`,
        [id, ...entries.map(([, v]) => v)],
      );
  }

  /** The user's attachments, which wp_delete_user deletes for good with their files when nobody takes them over. */
  async attachmentsOf(userId: number): Promise<Pick<PostRow, 'id' | 'media'>[]> {
    const { rows } = await this.db.query<Pick<PostRow, 'id' | 'media'>>(
      `SELECT id, media FROM content.posts WHERE author = $1 AND type = 'attachment' ORDER BY id`,
      [userId],
    );
    return rows;
  }

  appPasswords(userId: number) {
    return this.db
      .query<AppPasswordRow>(
        `SELECT ${appPasswordColumns} FROM content.credentials
         WHERE user_id = $1 AND kind = 'app_password' ORDER BY id`,
        [userId],
      )
      .then((result) => result.rows);
  }

  async appPassword(userId: number, uuid: string) {
    if (!uuidPattern.test(uuid)) return undefined;
    const { rows } = await this.db.query<AppPasswordRow>(
      `SELECT ${appPasswordColumns} FROM content.credentials
       WHERE user_id = $1 AND kind = 'app_password' AND uuid = $2::uuid`,
      [userId, uuid],
    );
    return rows[0];
  }

  async appPasswordNameTaken(userId: number, name: string, exceptId = 0) {
    const { rows } = await this.db.query(
      `SELECT 1 FROM content.credentials
       WHERE user_id = $1 AND kind = 'app_password' AND name = $2 AND id <> $3`,
      [userId, name, exceptId],
    );
    return rows.length > 0;
  }

  /** Stores the password's hash (of its normalized form, as authentication compares it). */
  async createAppPassword(userId: number, name: string, appId: string, password: string) {
    const { rows } = await this.db.query<AppPasswordRow>(
      `INSERT INTO content.credentials (user_id, kind, name, app_id, secret_hash)
       VALUES ($1, 'app_password', $2, $3, $4) RETURNING ${appPasswordColumns}`,
      [userId, name, appId, tokenHash(normalizeAppPassword(password))],
    );
    return rows[0] as AppPasswordRow;
  }

  async renameAppPassword(id: number, name: string, appId: string) {
    const { rows } = await this.db.query<AppPasswordRow>(
      `UPDATE content.credentials SET name = $2, app_id = $3 WHERE id = $1 RETURNING ${appPasswordColumns}`,
      [id, name, appId],
    );
    return rows[0] as AppPasswordRow;
  }

  async deleteAppPassword(id: number) {
    await this.db.query('DELETE FROM content.credentials WHERE id = $1', [id]);
  }

  /** Deletes all of the user's application passwords; how many there were. */
  async deleteAppPasswords(userId: number) {
    const { rows } = await this.db.query(
      `DELETE FROM content.credentials WHERE user_id = $1 AND kind = 'app_password' RETURNING id`,
      [userId],
    );
    return rows.length;
  }
}
