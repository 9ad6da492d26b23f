import type { Database, Migration } from './database.js';

const identifier = /^[a-z_][a-z0-9_]*$/;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The migrations under way on each database of this process, one after another (see `migrate`). */
const migrating = new WeakMap<Database, Promise<unknown>>();

/**
 * Applies a service's migrations in order inside its own schema, once each, recorded in
 * `public.backlot_migrations`. A transaction-scoped advisory lock makes concurrent starts take turns.
 *
 * A start migrates while the main thread loads and builds the services, which delays every answer the database
 * sends, so exchanges are kept few. The services of one process migrate one after another on one connection:
 * they would take turns on the lock anyway, and on PostgreSQL each one at once would open a connection of its own
 * (a TLS handshake and authentication). A database that has every migration already is known in one query,
 * without the lock; otherwise the lock with the bookkeeping, and then every pending migration, go in one batch each.
 */
export function migrate(db: Database, schema: string, migrations: Migration[]): Promise<string[]> {
  const previous = migrating.get(db) ?? Promise.resolve();
  const run = previous.then(() => applyMigrations(db, schema, migrations));
  migrating.set(
    db,
    run.catch(() => {}),
  );
  return run;
}

async function applyMigrations(db: Database, schema: string, migrations: Migration[]): Promise<string[]> {
  if (!identifier.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const ordered = [...migrations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const applied = 'SELECT name FROM public.backlot_migrations WHERE schema_name = $1';
  try {
    const { rows } = await db.query<{ name: string }>(applied, [schema]);
    const done = new Set(rows.map((r) => r.name));
    if (ordered.every((m) => done.has(m.name))) return [];
  } catch (error) {
    // 42P01: no migration has ever run on this database.
    if ((error as { code?: string }).code !== '42P01') throw error;
  }
  return db.transaction(async (tx) => {
    await tx.exec(`
      SELECT pg_advisory_xact_lock(hashtext('backlot:migrations'));
      CREATE TABLE IF NOT EXISTS public.backlot_migrations (
        schema_name text NOT NULL,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (schema_name, name)
      );
      CREATE SCHEMA IF NOT EXISTS ${schema};
    `);
    // Read again under the lock: another process may have applied some meanwhile.
    const { rows } = await tx.query<{ name: string }>(applied, [schema]);
    const done = new Set(rows.map((r) => r.name));
    const pending = ordered.filter((m) => !done.has(m.name));
    if (pending.length === 0) return [];
    // Each migration starts on its own line with the search path set, as if run alone; the newline before `;`
    // ends a trailing `--` comment.
    const batch = pending.map((m) => `SET LOCAL search_path TO ${schema}, public;\n${m.sql}\n;`);
    const names = pending.map((m) => `(${literal(schema)}, ${literal(m.name)})`);
    await tx.exec(
      `${batch.join('\n')}\nSET LOCAL search_path TO public;\n` +
        `INSERT INTO public.backlot_migrations (schema_name, name) VALUES ${names.join(', ')};`,
    );
    return pending.map((m) => m.name);
  });
}
