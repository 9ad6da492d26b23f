import type { Database, Migration, Queryable } from './database.js';

/**
 * Exact row counts per key without counting rows and without a row every writer locks: an insert-only ledger.
 * Each statement writing a counted table appends, from a statement trigger over its transition tables, one row
 * `(key, ±n)` per key it changed, in its own transaction; the count of a key is the sum of its rows. A snapshot
 * sees a write's rows and its deltas together or not at all, so the sum is exact in any snapshot (the writing
 * transaction's own included), in every process sharing the database. Writers only insert, so none waits on
 * another's ledger row, and nothing here can deadlock.
 *
 * Every key of a row must come from that row's own columns: a row lock then orders the deltas of concurrent
 * writes to one row (a key read from another table would not be).
 *
 * Compaction folds the rows into one per key (`compact`), in one statement: readers see the rows before or after.
 * The ledger is derived data: checkpoints do not copy it, and a restore rebuilds it (`rebuild_<table>()`, see
 * harness/sql-state.ts, which finds it by the table's comment).
 */
export interface CountedTable {
  /** The counted table, in the ledger's schema. */
  table: string;
  /** A SELECT of the keys (one text column, `key`) of the rows of relation `rows`: one per key a row counts in. */
  keys(rows: string): string;
}

const DERIVED = 'backlot:derived';

/** The ledger table, its rebuild function and the triggers of each counted table, then a first rebuild. */
export function countLedgerMigration(
  name: string,
  schema: string,
  ledger: string,
  counted: CountedTable[],
): Migration {
  const table = `${schema}.${ledger}`;
  const everyKey = counted.map((c) => c.keys(`${schema}.${c.table}`)).join(' UNION ALL ');
  const triggers = counted.map((c) => {
    const fn = `${schema}.${ledger}_${c.table}`;
    const append = (delta: string) => `INSERT INTO ${table} (key, n) ${delta}; RETURN NULL;`;
    const grouped = (rows: string, sign: string) =>
      `SELECT key, ${sign}count(*) FROM (${c.keys(rows)}) k GROUP BY key`;
    return `
      CREATE FUNCTION ${fn}_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${append(grouped('new_rows', ''))} END $$;
      CREATE FUNCTION ${fn}_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${append(grouped('old_rows', '-'))} END $$;
      CREATE FUNCTION ${fn}_update() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${append(`SELECT key, sum(d) FROM (
            SELECT key, 1 AS d FROM (${c.keys('new_rows')}) k
            UNION ALL SELECT key, -1 FROM (${c.keys('old_rows')}) k
          ) deltas GROUP BY key HAVING sum(d) <> 0`)} END $$;
      CREATE FUNCTION ${fn}_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM ${schema}.rebuild_${ledger}(); RETURN NULL; END $$;
      CREATE TRIGGER ${ledger}_insert AFTER INSERT ON ${schema}.${c.table}
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}_insert();
      CREATE TRIGGER ${ledger}_delete AFTER DELETE ON ${schema}.${c.table}
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}_delete();
      CREATE TRIGGER ${ledger}_update AFTER UPDATE ON ${schema}.${c.table}
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}_update();
      CREATE TRIGGER ${ledger}_truncate AFTER TRUNCATE ON ${schema}.${c.table}
        FOR EACH STATEMENT EXECUTE FUNCTION ${fn}_truncate();`;
  });
  return {
    name,
    sql: `
      CREATE TABLE ${table} (key text NOT NULL, n bigint NOT NULL);
      CREATE INDEX ${ledger}_key ON ${table} (key) INCLUDE (n);
      COMMENT ON TABLE ${table} IS ${literal(JSON.stringify({ backlot: DERIVED, rebuild: `${schema}.rebuild_${ledger}` }))};
      CREATE FUNCTION ${schema}.rebuild_${ledger}() RETURNS void LANGUAGE sql AS $$
        DELETE FROM ${table};
        INSERT INTO ${table} (key, n) SELECT key, count(*) FROM (${everyKey}) k GROUP BY key;
      $$;
      ${triggers.join('\n')}
      SELECT ${schema}.rebuild_${ledger}();
    `,
  };
}

/** The rebuild function a derived table's comment names (harness/sql-state.ts calls it after a restore). */
export function derivedRebuild(comment: string | null): string | undefined {
  try {
    const parsed = comment ? JSON.parse(comment) : undefined;
    if (parsed?.backlot === DERIVED && typeof parsed.rebuild === 'string') return parsed.rebuild;
  } catch {
    // Not a comment of ours.
  }
  return undefined;
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Rows a key may gather before a read folds the ledger (reads stay a short index range). */
const COMPACT_AFTER = 32;

/** Folds under way, per database and ledger: one at a time from a process. */
const compacting = new WeakMap<Queryable, Set<string>>();

/**
 * The sum of the keys' counts in ledger `table`, read through `q` (a transaction sees its own writes). The keys
 * must count disjoint sets of rows. A read that finds many rows per key folds the ledger afterwards when `q` is
 * the database itself (never inside a request's transaction, which may have ended by then).
 */
export async function ledgerCount(q: Queryable, table: string, keys: string[]): Promise<number> {
  const { rows } = await q.query<{ n: number; entries: number }>(
    `SELECT coalesce(sum(n), 0)::int AS n, count(*)::int AS entries FROM ${table} WHERE key = ANY($1::text[])`,
    [[...new Set(keys)]],
  );
  const row = rows[0] ?? { n: 0, entries: 0 };
  if (row.entries > COMPACT_AFTER * keys.length && 'transaction' in q) {
    const running = compacting.get(q) ?? new Set<string>();
    compacting.set(q, running);
    if (!running.has(table)) {
      running.add(table);
      compactLedger(q as Database, table)
        .catch(() => {})
        .finally(() => running.delete(table));
    }
  }
  return row.n;
}

/**
 * Folds every key's rows into one (keys that sum to zero go), as one statement on its own: readers see the
 * ledger before or after, never between. A try-lock held to the statement's end lets one fold run at a time;
 * another skips, so two folds never wait on each other's rows. Writers only insert, so they never wait on a fold.
 */
export async function compactLedger(db: Database, table: string): Promise<void> {
  await db.query(
    `WITH gone AS (
       DELETE FROM ${table} WHERE (SELECT pg_try_advisory_xact_lock(hashtext(${literal(`backlot compact ${table}`)})))
       RETURNING key, n
     )
     INSERT INTO ${table} (key, n) SELECT key, sum(n) FROM gone GROUP BY key HAVING sum(n) <> 0`,
  );
}
