// The thread that owns the embedded database. PGlite runs each query synchronously on the thread that calls it
// and works through its whole queue without yielding: on the main thread, 50 queued queries kept every service
// (the in-memory ones too) and every timer waiting for a quarter of a second. Here they wait only for each other.
//
// EmbeddedDatabase (database.ts) posts { id, op, args }; this answers { id, result } or { id, error }, the error's
// fields copied (code, detail, constraint…) since a thrown Error crosses threads with its message alone.
// Plain JavaScript, importing nothing of backlot's: it starts as it is under tsx (whose loader workers do not
// inherit on Node 20) and from dist/ (scripts/copy-assets.mjs copies it).
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';

// int8 and numeric come back as strings (no silent precision loss), as from pg.
const INT8 = 20;
const NUMERIC = 1700;
const parsers = { [INT8]: (v) => v, [NUMERIC]: (v) => v };

/** @type {import('@electric-sql/pglite').PGlite} */
let db;
/** Open transactions by the id the main thread gave them: PGlite's handle, and how to end the callback holding it. */
const transactions = new Map();
const rolledBack = new Error('rolled back');

const queryable = (tx) => {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error('Transaction is closed');
  return open.handle;
};

const ops = {
  async open(dataDir, template, settings) {
    // PGlite's WebAssembly runs on V8's baseline compiler (Liftoff) only. Optimising its hot functions with
    // TurboFan made queries 15-25 % faster but kept 30-85 MiB more resident (compiler memory in worker threads'
    // malloc arenas, never returned) and spent seconds of CPU right at startup. The flag only concerns
    // WebAssembly, which nothing else in backlot uses, and is read when a module is compiled, just below.
    v8.setFlagsFromString('--liftoff-only');
    const { PGlite } = await import('@electric-sql/pglite');
    db = await PGlite.create(dataDir, {
      parsers,
      loadDataDir: template,
      startParams: [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])],
    });
  },

  // PGlite counts only changed rows (0 for a SELECT); pg's rowCount also counts selected rows, so both do.
  async query(sql, params, tx) {
    const result = await queryable(tx).query(sql, params);
    return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
  },

  async exec(sql, tx) {
    await queryable(tx).exec(sql);
  },

  // A transaction is PGlite's own, held open between messages: other queries wait on its lock as they always did.
  begin(tx) {
    return new Promise((started, failed) => {
      const finished = db.transaction(
        (handle) =>
          new Promise((commit, rollback) => {
            transactions.set(tx, { handle, commit, rollback, finished });
            started();
          }),
      );
      finished.catch(failed).finally(() => transactions.delete(tx));
    });
  },

  async commit(tx) {
    const open = transactions.get(tx);
    open.commit();
    await open.finished;
  },

  async rollback(tx) {
    const open = transactions.get(tx);
    open.rollback(rolledBack);
    await open.finished.catch((error) => {
      if (error !== rolledBack) throw error;
    });
  },

  /** The data directory as a tarball (tests start many databases from one). */
  async dump() {
    return db.dumpDataDir('none');
  },

  async close() {
    if (db && !db.closed) await db.close();
  },
};

/** What a caller reads of an error: message and name, and PostgreSQL's fields (code, detail, constraint…). */
function fieldsOf(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}

parentPort.on('message', async ({ id, op, args }) => {
  try {
    parentPort.postMessage({ id, result: await ops[op](...args) });
  } catch (error) {
    parentPort.postMessage({ id, error: fieldsOf(error) });
  }
});
