import type { Database, Queryable } from '../../platform/database.js';
import type { Scope } from './scopes.js';

export interface TokenRow {
  id: number;
  name: string;
  token_hash: string;
  scopes: Scope[];
  source: string;
  created_at: Date;
}

/** Ids are PostgreSQL integers: a larger number names nothing (and must not reach a query, where it is an error). */
export const isRowId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

const tokenColumns = 'id, name, token_hash, scopes, source, created_at';

export async function findTokenByHash(db: Queryable, hash: string): Promise<TokenRow | undefined> {
  const { rows } = await db.query<TokenRow>(
    `SELECT ${tokenColumns} FROM machines.tokens WHERE token_hash = $1`,
    [hash],
  );
  return rows[0];
}

export async function insertToken(
  db: Queryable,
  token: { name: string; hash: string; scopes: Scope[]; source: string },
): Promise<TokenRow> {
  const { rows } = await db.query<TokenRow>(
    `INSERT INTO machines.tokens (name, token_hash, scopes, source) VALUES ($1, $2, $3, $4) RETURNING ${tokenColumns}`,
    [token.name, token.hash, token.scopes, token.source],
  );
  return rows[0] as TokenRow;
}

export async function findTokenByName(db: Queryable, name: string): Promise<TokenRow | undefined> {
  const { rows } = await db.query<TokenRow>(`SELECT ${tokenColumns} FROM machines.tokens WHERE name = $1`, [
    name,
  ]);
  return rows[0];
}

export async function listTokens(db: Queryable): Promise<TokenRow[]> {
  const { rows } = await db.query<TokenRow>(`SELECT ${tokenColumns} FROM machines.tokens ORDER BY id`);
  return rows;
}

export async function deleteToken(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM machines.tokens WHERE id = $1', [id]);
}

/**
 * Makes the stored preset tokens match `MACHINES_TOKENS`: each preset is written in place by name (its row, and so
 * its rate-limit counters, stay: another process starting must not reset them nor pull the row from under its
 * requests), and presets no longer configured are removed, so changing the variable and restarting takes effect.
 */
export async function syncPresetTokens(
  db: Database,
  presets: { name: string; hash: string; scopes: Scope[] }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('backlot:machines:tokens'))`);
    await tx.query(`DELETE FROM machines.tokens WHERE source = 'preset' AND NOT (name = ANY ($1))`, [
      presets.map((p) => p.name),
    ]);
    for (const p of presets) {
      // The same token under another name (renamed in the setting, or made by `token create`) gives way.
      await tx.query('DELETE FROM machines.tokens WHERE token_hash = $2 AND name <> $1', [p.name, p.hash]);
      await tx.query(
        `INSERT INTO machines.tokens AS t (name, token_hash, scopes, source) VALUES ($1, $2, $3, 'preset')
         ON CONFLICT (name) DO UPDATE SET token_hash = excluded.token_hash, scopes = excluded.scopes, source = 'preset'
         WHERE (t.token_hash, t.scopes, t.source) IS DISTINCT FROM (excluded.token_hash, excluded.scopes, 'preset')`,
        [p.name, p.hash, p.scopes],
      );
    }
  });
}

/** Creates the first-start token only when the account has no token at all (checked under a lock). */
export async function insertTokenIfNone(
  db: Database,
  token: { name: string; hash: string; scopes: Scope[] },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('backlot:machines:tokens'))`);
    const { rows } = await tx.query<{ n: string }>('SELECT count(*) AS n FROM machines.tokens');
    if (Number(rows[0]?.n ?? 0) > 0) return false;
    await insertToken(tx, { ...token, source: 'generated' });
    return true;
  });
}

export interface RequestCheck {
  /** The token whose SHA-256 matched, if any. */
  caller?: TokenRow;
  /** The client's failed-login lockout (`retry` seconds as text), when it is locked out; nothing was counted then. */
  lockedRetry?: string | null;
  /** The caller's counts in its hour and minute windows, this request included (null without a caller). */
  hour: number | null;
  minute: number | null;
  /** Whether an action has completed by the cutoff without its effect applied (settleActions has work). */
  due: boolean;
}

/**
 * Everything a `/v2` request needs before its route, in one statement: the token by its hash, the client's
 * lockout (`lockout`, LoginLimiter.retryAfterQuery numbered from $5), one count in the token's windows unless
 * locked out (atomic across processes, as the limits must be), and whether any action is due to settle.
 */
export async function checkRequest(
  db: Queryable,
  opts: { hash: string; hourStart: number; minuteStart: number; cutoff: Date },
  lockout: { sql: string; params: unknown[] },
): Promise<RequestCheck> {
  const { rows } = await db.query<TokenRow & Omit<RequestCheck, 'caller'>>(
    `WITH caller AS (SELECT ${tokenColumns} FROM machines.tokens WHERE token_hash = $1),
     locked AS (${lockout.sql}),
     counted AS (
       INSERT INTO machines.rate_counters (token_id, window_kind, window_start, count)
       SELECT c.id, k.kind, k.start, 1 FROM caller c
         CROSS JOIN (VALUES ('hour', $2::bigint), ('minute', $3::bigint)) AS k(kind, start)
        WHERE NOT EXISTS (SELECT 1 FROM locked)
       ON CONFLICT (token_id, window_kind, window_start) DO UPDATE SET count = machines.rate_counters.count + 1
       RETURNING window_kind, count)
     SELECT c.id, c.name, c.token_hash, c.scopes, c.source, c.created_at,
       (SELECT retry FROM locked) AS "lockedRetry",
       (SELECT count FROM counted WHERE window_kind = 'hour') AS hour,
       (SELECT count FROM counted WHERE window_kind = 'minute') AS minute,
       EXISTS (SELECT 1 FROM machines.actions WHERE NOT applied AND started_at <= $4) AS due
     FROM (SELECT 1) AS one LEFT JOIN caller c ON true`,
    [opts.hash, opts.hourStart, opts.minuteStart, opts.cutoff, ...lockout.params],
  );
  const row = rows[0] as TokenRow & Omit<RequestCheck, 'caller'>;
  const { lockedRetry, hour, minute, due, ...token } = row;
  return {
    caller: token.id == null ? undefined : (token as TokenRow),
    lockedRetry,
    hour: hour == null ? null : Number(hour),
    minute: minute == null ? null : Number(minute),
    due,
  };
}

export async function deleteOldCounters(db: Queryable, before: number): Promise<void> {
  await db.query('DELETE FROM machines.rate_counters WHERE window_start < $1', [before]);
}
