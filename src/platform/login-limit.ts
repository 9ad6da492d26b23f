import type { Database, Migration } from './database.js';
import { type Clock, clockOf, type ServiceContext, systemClock } from './service.js';

/** The table each service with credentials keeps its failed-login counters in (in its own schema). */
export const loginFailuresMigration = (name: string): Migration => ({
  name,
  sql: `
    -- Failed logins per client address in fixed windows, shared by every process on this database.
    CREATE TABLE login_failures (
      client text PRIMARY KEY,
      window_start timestamptz NOT NULL,
      failures integer NOT NULL
    );
  `,
});

export interface LoginLimit {
  /** Failed attempts one client may make per window; 0 turns the limit off. */
  limit: number;
  windowSeconds: number;
}

/**
 * Brute-force protection for Basic and Bearer credentials: a client address past `limit` failed logins in a
 * window is refused before any password is hashed, so guesses can neither find a password nor fill the thread
 * pool with Argon2 work. Counters live in the database, so every process of a deployment shares them, and an
 * attempt is counted in the same statement that checks the limit, so parallel guesses cannot slip past it.
 * Windows are read by the service's clock (the time is sent with each statement, never SQL's `now()`), so a test
 * can end one.
 */
export class LoginLimiter {
  private readonly table: string;
  constructor(
    private readonly db: Database,
    schema: string,
    private readonly settings: LoginLimit,
    /** Also what the service's other windows read (machines' rate limits). */
    readonly clock: Clock = systemClock,
  ) {
    this.table = `${schema}.login_failures`;
  }

  /** The clock's time, as the statements' timestamp parameter. */
  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** Seconds until `client` may try again, or undefined when it may try now. Counts nothing. */
  async retryAfter(client: string): Promise<number | undefined> {
    if (this.settings.limit === 0) return undefined;
    const query = this.retryAfterQuery(client, 1);
    const { rows } = await this.db.query<{ retry: string }>(query.sql, query.params);
    return LoginLimiter.seconds(rows[0]?.retry);
  }

  /**
   * retryAfter's query (one `retry` column, no row when the client may try), numbering its parameters from
   * `$first`, so a service can fold it into the statement that also reads the caller (machines' guard).
   */
  retryAfterQuery(client: string, first: number): { sql: string; params: unknown[] } {
    if (this.settings.limit === 0) return { sql: 'SELECT NULL::text AS retry WHERE false', params: [] };
    const [c, w, l, n] = [0, 1, 2, 3].map((i) => `$${first + i}`);
    return {
      sql: `SELECT ceil(extract(epoch FROM window_start + make_interval(secs => ${w}::integer) - ${n}::timestamptz))::text AS retry
         FROM ${this.table}
        WHERE client = ${c} AND failures >= ${l} AND window_start + make_interval(secs => ${w}::integer) > ${n}::timestamptz`,
      params: [client, this.settings.windowSeconds, this.settings.limit, this.now()],
    };
  }

  /** A `retry` value as retryAfter answers it: at least one second, undefined for none. */
  static seconds(retry: unknown): number | undefined {
    return retry == null ? undefined : Math.max(1, Number(retry));
  }

  /**
   * Counts one attempt of `client` as failed before its credential is checked, in one statement, so parallel
   * attempts (from any process) can never check more than `limit` credentials per window. Returns the seconds
   * to wait when the client is already at the limit (nothing is counted then); `succeeded` gives a correct
   * attempt back.
   */
  async reserve(client: string): Promise<number | undefined> {
    if (this.settings.limit === 0) return undefined;
    // The update is skipped (no row returned) while the window is current and full.
    const { rows } = await this.db.query(
      `INSERT INTO ${this.table} AS f (client, window_start, failures) VALUES ($1, $4::timestamptz, 1)
       ON CONFLICT (client) DO UPDATE SET
         window_start = CASE WHEN f.window_start + make_interval(secs => $2::integer) <= $4::timestamptz
                             THEN $4::timestamptz ELSE f.window_start END,
         failures = CASE WHEN f.window_start + make_interval(secs => $2::integer) <= $4::timestamptz
                         THEN 1 ELSE f.failures + 1 END
       WHERE f.window_start + make_interval(secs => $2::integer) <= $4::timestamptz OR f.failures < $3
       RETURNING failures`,
      [client, this.settings.windowSeconds, this.settings.limit, this.now()],
    );
    if (rows.length > 0) return undefined;
    return (await this.retryAfter(client)) ?? 1;
  }

  /** Gives back the attempt `reserve` counted, once the credential turned out right. */
  async succeeded(client: string): Promise<void> {
    if (this.settings.limit === 0) return;
    await this.db.query(
      `UPDATE ${this.table} SET failures = failures - 1 WHERE client = $1 AND failures > 0`,
      [client],
    );
  }

  /** Drops finished windows. */
  async sweep(): Promise<void> {
    await this.db.query(
      `DELETE FROM ${this.table} WHERE window_start + make_interval(secs => $1::integer) <= $2::timestamptz`,
      [this.settings.windowSeconds, this.now()],
    );
  }

  /** The limiter of a service with the process's LOGIN_FAILURE_* settings, swept every ten minutes until closed. */
  static forService(ctx: ServiceContext, schema: string): LoginLimiter & { close(): Promise<void> } {
    const { loginFailureLimit: limit, loginFailureWindowSeconds: windowSeconds } = ctx.global;
    const limiter = new LoginLimiter(ctx.db, schema, { limit, windowSeconds }, clockOf(ctx));
    const sweep = setInterval(() => {
      limiter.sweep().catch((err) => ctx.log.warn({ err }, 'login failure sweep failed'));
    }, 10 * 60_000);
    sweep.unref();
    return Object.assign(limiter, { close: async () => clearInterval(sweep) });
  }
}
