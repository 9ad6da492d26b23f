import { derivedRebuild } from '../platform/count-ledger.js';
import type { Database } from '../platform/database.js';

/**
 * Checkpoints of one service's Postgres schema, kept in the same database as schema `<schema>__cp_<name>`: one
 * table per table of the service (a plain copy) and `__sequences` with every sequence's position. Capturing and
 * restoring are each one multi-statement query, which PostgreSQL runs as one implicit transaction: a failure
 * leaves the service's tables as they were, and other requests never see a half-restored state.
 */

interface TableShape {
  name: string;
  /** Columns that can be written (generated columns are computed again). */
  columns: string[];
}

interface SchemaShape {
  /** In an order that inserts referenced tables before the tables that reference them. */
  tables: TableShape[];
  sequences: string[];
  /**
   * Tables whose rows are derived from the others (a count ledger, platform/count-ledger.ts), with the function
   * that rebuilds each: not copied, locked with the others during a restore and rebuilt after it.
   */
  derived: { name: string; rebuild: string }[];
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

export const checkpointSchema = (schema: string, name: string) => `${schema}__cp_${name}`;

/** Reads the tables, columns, foreign keys and sequences of `schema` from the catalog. */
async function readShape(db: Database, schema: string): Promise<SchemaShape> {
  const { rows: columns } = await db.query<{ table: string; column: string; note: string | null }>(
    `SELECT c.relname AS table, a.attname AS column, obj_description(c.oid, 'pg_class') AS note
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attgenerated = ''
      ORDER BY c.relname, a.attnum`,
    [schema],
  );
  const { rows: references } = await db.query<{ table: string; referenced: string }>(
    `SELECT c.relname AS table, r.relname AS referenced
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = $1 AND r.relnamespace = c.relnamespace AND r.oid <> c.oid`,
    [schema],
  );
  const { rows: sequences } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'S' ORDER BY c.relname`,
    [schema],
  );
  const byName = new Map<string, TableShape>();
  const derived = new Map<string, string>();
  for (const { table, column, note } of columns) {
    const rebuild = derivedRebuild(note);
    if (rebuild) {
      derived.set(table, rebuild);
      continue;
    }
    const shape = byName.get(table) ?? { name: table, columns: [] };
    shape.columns.push(column);
    byName.set(table, shape);
  }
  // Depth-first: every table after the tables it references (a cycle, which no service has, keeps its order).
  const ordered: TableShape[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (visiting.has(name) || ordered.some((t) => t.name === name)) return;
    visiting.add(name);
    for (const r of references) if (r.table === name) visit(r.referenced);
    const shape = byName.get(name);
    if (shape) ordered.push(shape);
  };
  for (const name of [...byName.keys()].sort()) visit(name);
  return {
    tables: ordered,
    sequences: sequences.map((s) => s.name),
    derived: [...derived].map(([name, rebuild]) => ({ name, rebuild })),
  };
}

const LOCK_WAIT_MS = 200;
/** Rows a restored table needs before its statistics are worth refreshing. */
const ANALYZE_ABOVE = 500;
const LOCK_ATTEMPTS = 50;
const LOCK_NOT_AVAILABLE = '55P03';
const DEADLOCK = '40P01';

/** One service's schema: capture, restore, drop and list its checkpoints. */
export class SqlState {
  private shape?: Promise<SchemaShape>;
  /** Restore statements by checkpoint, built once: restoring before every test then costs one round trip. */
  private readonly restoreSql = new Map<string, string>();

  constructor(
    private readonly db: Database,
    readonly schema: string,
  ) {}

  private async tables() {
    this.shape ??= readShape(this.db, this.schema);
    return this.shape;
  }

  /** Sequences owned by a column (serial and identity columns) with that column. */
  private async ownedSequences() {
    const { rows } = await this.db.query<{ sequence: string; table: string; column: string }>(
      `SELECT s.relname AS sequence, t.relname AS table, a.attname AS column
         FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
         JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass
                         AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
         JOIN pg_class t ON t.oid = d.refobjid
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
        WHERE s.relkind = 'S' AND n.nspname = $1 ORDER BY s.relname`,
      [this.schema],
    );
    return rows;
  }

  async exists(name: string): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [
      checkpointSchema(this.schema, name),
    ]);
    return rows.length > 0;
  }

  /**
   * Copies the tables into the checkpoint's schema. `ifAbsent` (the first-start state): only when no process has
   * saved it yet, decided under the lock, so processes starting at once on one database keep the first's copy.
   * Returns whether it copied.
   */
  async capture(name: string, options: { ifAbsent?: boolean } = {}): Promise<boolean> {
    const { tables, sequences } = await this.tables();
    const cpName = checkpointSchema(this.schema, name);
    const cp = quote(cpName);
    const live = quote(this.schema);
    const lock = `SELECT pg_advisory_xact_lock(hashtext(${literal(`backlot checkpoint ${cp}`)}))`;
    const statements = [
      // One snapshot for every table, however many requests write meanwhile.
      'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ',
      // Two processes on one PostgreSQL saving the same checkpoint take turns.
      lock,
      `DROP SCHEMA IF EXISTS ${cp} CASCADE`,
      `CREATE SCHEMA ${cp}`,
      ...tables.map((t) => `CREATE TABLE ${cp}.${quote(t.name)} AS TABLE ${live}.${quote(t.name)}`),
      `CREATE TABLE ${cp}.__sequences (name text PRIMARY KEY, last_value bigint NOT NULL, is_called boolean NOT NULL)`,
      ...sequences.map(
        (s) =>
          `INSERT INTO ${cp}.__sequences SELECT ${literal(s)}, last_value, is_called FROM ${live}.${quote(s)}`,
      ),
    ];
    const copied = await this.db.transaction(async (tx) => {
      if (options.ifAbsent) {
        // The lock first, then the check: the snapshot (and so the copy) is taken by the first statement after it.
        await tx.exec(`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ; ${lock}`);
        const { rows } = await tx.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [cpName]);
        if (rows.length > 0) return false;
        await tx.exec(statements.slice(2).join(';\n'));
        return true;
      }
      await tx.exec(statements.join(';\n'));
      return true;
    });
    this.restoreSql.delete(name);
    return copied;
  }

  /**
   * Marks the checkpoint complete in the database (its other parts, files and objects, were saved too), with the
   * name it was given: any process on this database then lists and restores it, whatever its data directory.
   */
  async mark(name: string, given: string): Promise<void> {
    const note = JSON.stringify({ backlot: 'checkpoint', name: given });
    await this.db.exec(`COMMENT ON SCHEMA ${quote(checkpointSchema(this.schema, name))} IS ${literal(note)}`);
  }

  /** Checkpoints marked complete in the database: key → the name given. */
  async marked(): Promise<Map<string, string>> {
    const prefix = `${this.schema}__cp_`;
    const { rows } = await this.db.query<{ key: string; note: string | null }>(
      `SELECT nspname AS key, obj_description(oid, 'pg_namespace') AS note
         FROM pg_namespace WHERE starts_with(nspname, $1)`,
      [prefix],
    );
    const found = new Map<string, string>();
    for (const { key, note } of rows) {
      try {
        const parsed = note ? JSON.parse(note) : undefined;
        if (parsed?.backlot === 'checkpoint' && typeof parsed.name === 'string')
          found.set(key.slice(prefix.length), parsed.name);
      } catch {
        // Not a note of ours: not a complete checkpoint.
      }
    }
    return found;
  }

  private async buildRestore(name: string): Promise<string> {
    const { tables, derived } = await this.tables();
    const cpName = checkpointSchema(this.schema, name);
    const { rows } = await this.db.query<{ table: string; column: string }>(
      `SELECT c.relname AS table, a.attname AS column
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [cpName],
    );
    if (rows.length === 0) throw new CheckpointMissing(name);
    const saved = new Map<string, Set<string>>();
    for (const { table, column } of rows) saved.set(table, (saved.get(table) ?? new Set()).add(column));
    const cp = quote(cpName);
    const live = quote(this.schema);
    const referencingFirst = [...tables].reverse();
    const statements = [
      // Other processes' requests wait while the tables are replaced, and none writes into them meanwhile (a
      // row inserted during a plain DELETE would outlive the restore, above the sequence set back below).
      // Referencing tables first, the order in which an insert and its foreign-key check take them. The wait
      // is shorter than deadlock_timeout (1 s): a restore waiting on a writer gives up first and tries again.
      `SET LOCAL lock_timeout = '${LOCK_WAIT_MS}ms'`,
      `LOCK TABLE ${[...referencingFirst, ...derived].map((t) => `${live}.${quote(t.name)}`).join(', ')} IN ACCESS EXCLUSIVE MODE`,
      // DELETE, not TRUNCATE: on tables this small it is several times faster (no new files, no cache
      // invalidation). Referencing tables go first; the sequences are set from the checkpoint below.
      ...referencingFirst.map((t) => `DELETE FROM ${live}.${quote(t.name)}`),
    ];
    for (const table of tables) {
      const columns = saved.get(table.name);
      // A table that a later migration added was empty when the checkpoint was taken.
      if (!columns) continue;
      const list = table.columns
        .filter((c) => columns.has(c))
        .map(quote)
        .join(', ');
      statements.push(
        `INSERT INTO ${live}.${quote(table.name)} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM ${cp}.${quote(table.name)}`,
      );
    }
    statements.push(
      `SELECT setval(format('%I.%I', ${literal(this.schema)}, s.name), s.last_value, s.is_called)
         FROM ${cp}.__sequences s
         JOIN pg_class c ON c.relname = s.name AND c.relkind = 'S'
         JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = ${literal(this.schema)}`,
    );
    // Derived tables from the restored rows (their triggers appended deltas of the deletes and inserts above).
    for (const { rebuild } of derived) statements.push(`SELECT ${rebuild}()`);
    // Fresh statistics for a table the restore grew or shrank past twice what they describe: the planner's
    // estimates from them picked a bitmap scan of every tagged machine and a sort over an index scan after a bulk
    // change (docs/benchmarks.md, "First pages as data grows"). Small tables are left: any plan reads them fast.
    statements.push(`DO $$ DECLARE r record; live bigint; BEGIN
      FOR r IN SELECT c.oid::regclass AS t, c.reltuples FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = ${literal(this.schema)} AND c.relkind = 'r' LOOP
        EXECUTE format('SELECT count(*) FROM %s', r.t) INTO live;
        IF live > ${ANALYZE_ABOVE} AND (r.reltuples < 0 OR live > 2 * r.reltuples OR live < r.reltuples / 2) THEN
          EXECUTE format('ANALYZE %s', r.t);
        END IF;
      END LOOP;
    END $$`);
    // And past every id the tables hold, whatever the checkpoint's sequences said: no new id can collide.
    for (const { sequence, table, column } of await this.ownedSequences()) {
      const seq = `${live}.${quote(sequence)}`;
      statements.push(
        `SELECT setval(${literal(seq)}, m) FROM (SELECT max(${quote(column)}) AS m FROM ${live}.${quote(table)}) x
          WHERE m > (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM ${seq})`,
      );
    }
    return statements.join(';\n');
  }

  async restore(name: string): Promise<void> {
    let sql = this.restoreSql.get(name);
    if (!sql) {
      sql = await this.buildRestore(name);
      this.restoreSql.set(name, sql);
    }
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await this.db.transaction((tx) => tx.exec(sql));
          break;
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (!(code === LOCK_NOT_AVAILABLE || code === DEADLOCK) || attempt >= LOCK_ATTEMPTS) throw error;
          // Writers holding a table finish their statement; new ones queue behind the next try.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * LOCK_WAIT_MS));
        }
      }
    } catch (error) {
      // Another process may have dropped or replaced it: build the statement again once.
      this.restoreSql.delete(name);
      if (!(await this.exists(name))) throw new CheckpointMissing(name);
      throw error;
    }
  }

  async drop(name: string): Promise<void> {
    await this.db.exec(`DROP SCHEMA IF EXISTS ${quote(checkpointSchema(this.schema, name))} CASCADE`);
    this.restoreSql.delete(name);
  }

  /** What the checkpoint's copies take in the database (tables with their TOAST data), 0 when there is none. */
  async bytes(name: string): Promise<number> {
    const { rows } = await this.db.query<{ bytes: string | null }>(
      `SELECT sum(pg_total_relation_size(c.oid))::int8 AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [checkpointSchema(this.schema, name)],
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  /** Names of this schema's checkpoints. */
  async names(): Promise<string[]> {
    const prefix = `${this.schema}__cp_`;
    const { rows } = await this.db.query<{ name: string }>(
      'SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY nspname',
      [prefix],
    );
    return rows.map((r) => r.name.slice(prefix.length));
  }
}

/** No checkpoint of that name exists (for this service). */
export class CheckpointMissing extends Error {
  override name = 'CheckpointMissing';
  constructor(readonly checkpoint: string) {
    super(`no checkpoint named "${checkpoint}"`);
  }
}
