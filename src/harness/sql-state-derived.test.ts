import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestDatabase } from '../../test/db.js';
import { countLedgerMigration, ledgerCount } from '../platform/count-ledger.js';
import type { Database } from '../platform/database.js';
import { migrate } from '../platform/migrations.js';
import { SqlState } from './sql-state.js';

// A count ledger is derived data: checkpoints do not copy it, and a restore leaves it exact for the restored rows.
let db: Database;
let state: SqlState;
before(async () => {
  db = await createTestDatabase();
  await migrate(db, 'derived_t', [
    { name: '001_items', sql: 'CREATE TABLE items (id serial PRIMARY KEY, kind text NOT NULL);' },
    countLedgerMigration('002_item_counts', 'derived_t', 'item_counts', [
      { table: 'items', keys: (rows) => `SELECT kind AS key FROM ${rows}` },
    ]),
  ]);
  state = new SqlState(db, 'derived_t');
});
after(() => db.close());

const count = (kind: string) => ledgerCount(db, 'derived_t.item_counts', [kind]);

test('a restore leaves the ledger summing to the restored rows, and the checkpoint holds no copy of it', async () => {
  await db.query(`INSERT INTO derived_t.items (kind) SELECT 'a' FROM generate_series(1, 5)`);
  await state.capture('one');
  const { rows } = await db.query('SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [
    'derived_t__cp_one',
    'item_counts',
  ]);
  assert.equal(rows.length, 0);
  await db.query(`INSERT INTO derived_t.items (kind) SELECT 'a' FROM generate_series(1, 3)`);
  await db.query(`UPDATE derived_t.items SET kind = 'b' WHERE id <= 2`);
  assert.deepEqual([await count('a'), await count('b')], [6, 2]);
  await state.restore('one');
  assert.deepEqual([await count('a'), await count('b')], [5, 0]);
  await state.restore('one');
  assert.deepEqual([await count('a'), await count('b')], [5, 0]);
  const { rows: ledger } = await db.query<{ key: string; n: string }>(
    'SELECT key, n FROM derived_t.item_counts ORDER BY key',
  );
  assert.deepEqual(ledger, [{ key: 'a', n: '5' }], 'rebuilt: one row per key');
});

test('a restore that grows a table past twice what its statistics describe refreshes them (ANALYZE)', async () => {
  await db.query(`INSERT INTO derived_t.items (kind) SELECT 'big' FROM generate_series(1, 3000)`);
  await state.capture('big');
  await db.query(`DELETE FROM derived_t.items WHERE kind = 'big'`);
  await db.query('ANALYZE derived_t.items');
  const tuples = async () =>
    (
      await db.query<{ n: number }>(
        `SELECT reltuples::int AS n FROM pg_class WHERE oid = 'derived_t.items'::regclass`,
      )
    ).rows[0]?.n;
  assert.equal(await tuples(), 5);
  await state.restore('big');
  assert.equal(await tuples(), 3005);
  assert.equal(await count('big'), 3000);
});
