import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestDatabase, usingPostgres } from '../../test/db.js';
import { compactLedger, countLedgerMigration, ledgerCount } from './count-ledger.js';
import type { Database, Queryable } from './database.js';
import { migrate } from './migrations.js';

// A count ledger's sums equal count(*) in every snapshot, whatever statements wrote the counted table.
let db: Database;
before(async () => {
  db = await createTestDatabase();
  await migrate(db, 'ledger_t', [
    {
      name: '001_items',
      sql: 'CREATE TABLE items (id serial PRIMARY KEY, kind text NOT NULL, owner int NOT NULL);',
    },
    countLedgerMigration('002_item_counts', 'ledger_t', 'item_counts', [
      {
        table: 'items',
        keys: (rows) => `SELECT kind AS key FROM ${rows} UNION ALL SELECT kind || '/' || owner FROM ${rows}`,
      },
    ]),
  ]);
});
after(() => db.close());

/** Every key's sum in the ledger and its count(*) in the table, read in one snapshot. */
async function compare(q: Queryable = db) {
  const { rows } = await q.query<{ key: string; ledger: number | null; counted: number | null }>(
    `WITH counted AS (
       SELECT kind AS key, count(*)::int AS n FROM ledger_t.items GROUP BY kind
       UNION ALL SELECT kind || '/' || owner, count(*)::int FROM ledger_t.items GROUP BY kind, owner
     ), ledger AS (SELECT key, sum(n)::int AS n FROM ledger_t.item_counts GROUP BY key HAVING sum(n) <> 0)
     SELECT coalesce(c.key, l.key) AS key, l.n AS ledger, c.n AS counted
       FROM counted c FULL JOIN ledger l ON l.key = c.key ORDER BY 1`,
  );
  for (const row of rows) assert.equal(row.ledger, row.counted, `key ${row.key}`);
  return rows.length;
}

const kinds = ['a', 'b', 'c'];
let seed = 42;
const random = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};

test('after random inserts, updates, deletes and rolled-back transactions, every key sums to its count(*)', async () => {
  for (let step = 0; step < 120; step++) {
    const kind = kinds[random(3)];
    const owner = random(4);
    const op = random(6);
    if (op === 0)
      await db.query('INSERT INTO ledger_t.items (kind, owner) SELECT $1, $2 FROM generate_series(1, $3)', [
        kind,
        owner,
        1 + random(5),
      ]);
    else if (op === 1)
      await db.query('UPDATE ledger_t.items SET kind = $1 WHERE id % 7 = $2', [kind, random(7)]);
    else if (op === 2)
      await db.query('UPDATE ledger_t.items SET owner = owner + 1 WHERE owner = $1', [owner]);
    else if (op === 3) await db.query('DELETE FROM ledger_t.items WHERE id % 11 = $1', [random(11)]);
    else if (op === 4)
      await db
        .transaction(async (tx) => {
          await tx.query('INSERT INTO ledger_t.items (kind, owner) VALUES ($1, $2)', [kind, owner]);
          throw new Error('rolled back');
        })
        .catch(() => {});
    else await db.query('UPDATE ledger_t.items SET owner = owner WHERE kind = $1', [kind]);
  }
  assert.ok((await compare()) > 3);
});

test('a transaction reads its own writes in the ledger; others see them once it commits', async () => {
  const before = await ledgerCount(db, 'ledger_t.item_counts', ['a']);
  await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO ledger_t.items (kind, owner) VALUES ('a', 9), ('a', 9)`);
    assert.equal(await ledgerCount(tx, 'ledger_t.item_counts', ['a']), before + 2);
    assert.equal(await ledgerCount(tx, 'ledger_t.item_counts', ['a/9']), 2);
    await compare(tx);
    // PGlite has one session, which this transaction holds; PostgreSQL's other sessions see the committed sum.
    if (usingPostgres) assert.equal(await ledgerCount(db, 'ledger_t.item_counts', ['a']), before);
  });
  assert.equal(await ledgerCount(db, 'ledger_t.item_counts', ['a', 'a/9']), before + 4);
});

test('compaction folds each key into one row (keys summing to zero go) and changes no sum', async () => {
  await db.query(`INSERT INTO ledger_t.items (kind, owner) VALUES ('z', 1)`);
  await db.query(`DELETE FROM ledger_t.items WHERE kind = 'z'`);
  await compactLedger(db, 'ledger_t.item_counts');
  const { rows } = await db.query<{ key: string; entries: number }>(
    'SELECT key, count(*)::int AS entries FROM ledger_t.item_counts GROUP BY key',
  );
  assert.ok(rows.every((r) => r.entries === 1));
  assert.ok(!rows.some((r) => r.key === 'z' || r.key === 'z/1'));
  await compare();
});

test('a read finding many rows for its keys folds the ledger after answering', async () => {
  for (let i = 0; i < 40; i++) await db.query(`INSERT INTO ledger_t.items (kind, owner) VALUES ('b', 0)`);
  const n = await ledgerCount(db, 'ledger_t.item_counts', ['b']);
  for (let i = 0; i < 50; i++) {
    const { rows } = await db.query<{ entries: number }>(
      `SELECT count(*)::int AS entries FROM ledger_t.item_counts WHERE key = 'b'`,
    );
    if (rows[0]?.entries === 1) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { rows } = await db.query<{ entries: number }>(
    `SELECT count(*)::int AS entries FROM ledger_t.item_counts WHERE key = 'b'`,
  );
  assert.equal(rows[0]?.entries, 1);
  assert.equal(await ledgerCount(db, 'ledger_t.item_counts', ['b']), n);
});

test('TRUNCATE rebuilds the ledger', async () => {
  await db.query('TRUNCATE ledger_t.items');
  assert.equal(await ledgerCount(db, 'ledger_t.item_counts', ['a', 'b', 'c']), 0);
  await db.query(`INSERT INTO ledger_t.items (kind, owner) VALUES ('c', 1)`);
  await compare();
});
