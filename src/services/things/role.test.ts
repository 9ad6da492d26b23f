import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestDatabase } from '../../../test/db.js';
import type { Database } from '../../platform/database.js';
import { migrate } from '../../platform/migrations.js';
import { migrations, READER_ROLE } from './migrations.js';
import { ThingsStore } from './store.js';

let db: Database;
before(async () => {
  db = await createTestDatabase();
  await migrate(db, 'things', migrations);
  await db.query(`INSERT INTO things.users (username, password_hash) VALUES ('someone', 'x')`);
});
after(() => db.close());

/** Runs `sql` the way /things runs its query: in a transaction under the reader role. */
const asReader = (sql: string) =>
  db.transaction(async (tx) => {
    await tx.exec(`SET LOCAL ROLE ${READER_ROLE}`);
    return tx.query(sql);
  });

test('the reader role may read the things table', async () => {
  const { rows } = await asReader('SELECT count(*)::int AS n FROM things.things');
  assert.equal(rows[0].n, 5);
  assert.deepEqual((await new ThingsStore(db).listThingsAsReader()).length, 5);
});

test('the database refuses the reader role everything else', async () => {
  const refused = [
    'SELECT * FROM things.users',
    'SELECT * FROM things.tokens',
    'SELECT * FROM things.rate_limits',
    `INSERT INTO things.things (name, color) VALUES ('sneaky', 'black')`,
    `UPDATE things.things SET color = 'black'`,
    'DELETE FROM things.things',
    'TRUNCATE things.things',
    'CREATE TABLE things.extra (id int)',
    'DROP TABLE things.things',
  ];
  for (const sql of refused) {
    await assert.rejects(asReader(sql), (error: { code?: string }) => {
      // 42501 insufficient_privilege; 42P01 would mean the query never reached the permission check.
      assert.equal(error.code, '42501', sql);
      return true;
    });
  }
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM things.things');
  assert.equal(rows[0].n, 5);
});

test('the role is reset when the transaction ends', async () => {
  await asReader('SELECT 1');
  const { rows } = await db.query<{ role: string }>('SELECT current_user AS role');
  assert.notEqual(rows[0].role, READER_ROLE);
  assert.equal((await db.query('SELECT * FROM things.users')).rows.length, 1);
});

test('migrating another database on the same server tolerates the existing role', async () => {
  const other = await createTestDatabase();
  try {
    assert.deepEqual(
      await migrate(other, 'things', migrations),
      migrations.map((m) => m.name),
    );
    const { rows } = await other.query<{ member: boolean }>(
      `SELECT pg_has_role(current_user, $1, 'MEMBER') AS member`,
      [READER_ROLE],
    );
    assert.equal(rows[0].member, true);
  } finally {
    await other.close();
  }
});
