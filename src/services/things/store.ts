import type { Database } from '../../platform/database.js';
import { type Clock, systemClock } from '../../platform/service.js';
import { READER_ROLE } from './migrations.js';

export interface Thing {
  id: string;
  name: string;
  color: string;
}

export interface StoredToken {
  userId: string;
  expired: boolean;
}

const UNIQUE_VIOLATION = '23505';

/**
 * Users, login secrets (as hashes) and things, in the `things` schema. No HTTP in here. Expiries and rate-limit
 * windows are read by `clock`, whose time each statement is given (never SQL's `now()`).
 */
export class ThingsStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The clock's time, as a timestamp parameter. */
  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** The new user's id, or undefined when the username is taken. */
  async createUser(username: string, passwordHash: string): Promise<string | undefined> {
    try {
      const { rows } = await this.db.query<{ id: string }>(
        `INSERT INTO things.users (username, password_hash) VALUES ($1, $2)
         ON CONFLICT (username) DO NOTHING RETURNING id`,
        [username, passwordHash],
      );
      return rows[0]?.id;
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return undefined;
      throw error;
    }
  }

  async findUserByUsername(username: string) {
    const { rows } = await this.db.query<{ id: string; password_hash: string }>(
      'SELECT id, password_hash FROM things.users WHERE username = $1',
      [username],
    );
    return rows[0] ? { id: rows[0].id, passwordHash: rows[0].password_hash } : undefined;
  }

  async createToken(userId: string, secretHash: string, ttlSeconds?: number) {
    await this.db.query(
      `INSERT INTO things.tokens (secret_hash, user_id, expires_at)
       VALUES ($1, $2, CASE WHEN $3::integer IS NULL THEN NULL
                            ELSE $4::timestamptz + make_interval(secs => $3::integer) END)`,
      [secretHash, userId, ttlSeconds ?? null, this.now()],
    );
  }

  async findToken(secretHash: string): Promise<StoredToken | undefined> {
    const { rows } = await this.db.query<{ user_id: string; expired: boolean }>(
      `SELECT user_id, coalesce(expires_at <= $2::timestamptz, false) AS expired
         FROM things.tokens WHERE secret_hash = $1`,
      [secretHash, this.now()],
    );
    return rows[0] ? { userId: rows[0].user_id, expired: rows[0].expired } : undefined;
  }

  /** True when the secret existed. */
  async deleteToken(secretHash: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM things.tokens WHERE secret_hash = $1', [
      secretHash,
    ]);
    return rowCount > 0;
  }

  /** Every thing, read under the reader role so the database itself refuses anything but that read. */
  listThingsAsReader(): Promise<Thing[]> {
    return this.db.transaction(async (tx) => {
      await tx.exec(`SET LOCAL ROLE ${READER_ROLE}`);
      const { rows } = await tx.query<Thing>(
        'SELECT t.id::text AS id, t.name, t.color FROM things.things t ORDER BY t.id',
      );
      return rows;
    });
  }

  async listThings(): Promise<Thing[]> {
    const { rows } = await this.db.query<Thing>(
      'SELECT t.id::text AS id, t.name, t.color FROM things.things t ORDER BY t.id',
    );
    return rows;
  }

  async addThing(name: string, color: string): Promise<Thing> {
    const { rows } = await this.db.query<Thing>(
      'INSERT INTO things.things (name, color) VALUES ($1, $2) RETURNING id::text AS id, name, color',
      [name, color],
    );
    return rows[0];
  }

  async removeThing(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM things.things WHERE id = $1', [id]);
    return rowCount > 0;
  }

  /**
   * Counts one attempt in `bucket`'s fixed window; returns the seconds until the window resets when the
   * attempt is over `limit`, else undefined.
   */
  async hit(bucket: string, limit: number, windowSeconds: number): Promise<number | undefined> {
    const { rows } = await this.db.query<{ hits: number; retry_after: string }>(
      `INSERT INTO things.rate_limits AS r (bucket, window_start, hits) VALUES ($1, $3::timestamptz, 1)
       ON CONFLICT (bucket) DO UPDATE SET
         window_start = CASE WHEN r.window_start + make_interval(secs => $2::integer) <= $3::timestamptz
                             THEN $3::timestamptz ELSE r.window_start END,
         hits = CASE WHEN r.window_start + make_interval(secs => $2::integer) <= $3::timestamptz
                     THEN 1 ELSE r.hits + 1 END
       RETURNING hits,
         ceil(extract(epoch FROM window_start + make_interval(secs => $2::integer) - $3::timestamptz))::text
         AS retry_after`,
      [bucket, windowSeconds, this.now()],
    );
    const { hits, retry_after } = rows[0];
    return hits > limit ? Math.max(1, Number(retry_after)) : undefined;
  }

  /** Drops finished rate-limit windows and expired secrets. */
  async sweep(windowSeconds: number) {
    await this.db.query(
      `DELETE FROM things.rate_limits WHERE window_start + make_interval(secs => $1::integer) <= $2::timestamptz`,
      [windowSeconds, this.now()],
    );
    await this.db.query('DELETE FROM things.tokens WHERE expires_at <= $1::timestamptz', [this.now()]);
  }
}
