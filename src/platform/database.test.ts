import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPostgres, type TestPostgres } from '../../test/postgres.js';
import { type Database, DatabaseError, openEmbedded, openPostgres } from './database.js';
import { migrate } from './migrations.js';

const migrations = [
  { name: '001_notes', sql: 'CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL);' },
  { name: '002_notes_author', sql: 'ALTER TABLE notes ADD COLUMN author text;' },
];

async function appliedNames(db: Database, schema: string) {
  const { rows } = await db.query<{ name: string }>(
    'SELECT name FROM public.backlot_migrations WHERE schema_name = $1 ORDER BY name',
    [schema],
  );
  return rows.map((r) => r.name);
}

/**
 * Pending migrations go to the database in one batch: each must still run as if alone (its own search path,
 * a trailing comment ending with its line), and a failing one leaves nothing of its batch.
 */
async function migrationsRunAsIfAlone(db: Database) {
  const first = [
    { name: '001_a', sql: 'CREATE TABLE a (id int); SET LOCAL search_path TO public -- no semicolon' },
    { name: '002_b', sql: "CREATE TABLE b (id int); INSERT INTO b VALUES (1) -- it's a comment" },
  ];
  assert.deepEqual(await migrate(db, 'batch', first), ['001_a', '002_b']);
  const { rows } = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'batch' ORDER BY 1",
  );
  assert.deepEqual(rows, [{ table_name: 'a' }, { table_name: 'b' }]);
  const broken = [
    ...first,
    { name: '003_c', sql: 'CREATE TABLE c (id int);' },
    { name: '004_d', sql: 'INSERT INTO missing VALUES (1);' },
  ];
  await assert.rejects(migrate(db, 'batch', broken), /relation "missing" does not exist/);
  assert.deepEqual(await appliedNames(db, 'batch'), ['001_a', '002_b']);
  assert.equal((await db.query("SELECT to_regclass('batch.c') AS c")).rows[0]?.c, null);
}

describe('embedded database (PGlite)', () => {
  test('pending migrations run in one batch, each as if alone; a failure applies none of them', async () => {
    const db = await openEmbedded();
    try {
      await migrationsRunAsIfAlone(db);
    } finally {
      await db.close();
    }
  });

  test('migrations apply in order once, in the service schema, and a second run changes nothing', async () => {
    const db = await openEmbedded();
    try {
      assert.deepEqual(await migrate(db, 'demo', migrations), ['001_notes', '002_notes_author']);
      assert.deepEqual(await migrate(db, 'demo', migrations), []);
      await db.query('INSERT INTO demo.notes (body, author) VALUES ($1, $2)', ['hello', 'ann']);
      const { rows } = await db.query('SELECT body, author FROM demo.notes');
      assert.deepEqual(rows, [{ body: 'hello', author: 'ann' }]);
      assert.equal(
        (await db.query('SELECT * FROM demo.notes')).rowCount,
        1,
        'rowCount counts selected rows as pg does',
      );
      assert.equal((await db.query('UPDATE demo.notes SET author = $1', ['bo'])).rowCount, 1);
      assert.deepEqual(await appliedNames(db, 'demo'), ['001_notes', '002_notes_author']);
    } finally {
      await db.close();
    }
  });

  test('a transaction that throws leaves nothing behind', async () => {
    const db = await openEmbedded();
    try {
      await migrate(db, 'demo', migrations);
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO demo.notes (body) VALUES ($1)', ['lost']);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal((await db.query('SELECT * FROM demo.notes')).rowCount, 0);
    } finally {
      await db.close();
    }
  });
});

describe('networked PostgreSQL', () => {
  let server: TestPostgres;
  let plain: TestPostgres;
  before(async () => {
    [server, plain] = await Promise.all([startPostgres({ tls: true }), startPostgres({ tls: false })]);
  });
  after(async () => {
    await Promise.all([server?.stop(), plain?.stop()]);
  });

  test('connects over TLS, and verifies the certificate when DB_SSL_CA is given', async () => {
    const hadNavigator = 'navigator' in globalThis;
    const db = await openPostgres({ url: server.url, source: 'DATABASE_URL', sslCaFile: server.caFile });
    assert.equal('navigator' in globalThis, hadNavigator, 'loading pg leaves the globals as they were');
    try {
      const { rows } = await db.query<{ ssl: boolean }>(
        'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
      );
      assert.deepEqual(rows, [{ ssl: true }]);
    } finally {
      await db.close();
    }
  });

  test('a server without TLS is refused with a message that says so', async () => {
    await assert.rejects(
      openPostgres({ url: plain.url, source: 'DATABASE_URL' }),
      (error: Error) =>
        error instanceof DatabaseError &&
        error.message ===
          `DATABASE_URL: the server at 127.0.0.1:${plain.port} does not offer TLS; backlot requires TLS`,
    );
  });

  test('sslmode=disable is refused before connecting', async () => {
    await assert.rejects(openPostgres({ url: `${plain.url}?sslmode=disable`, source: 'DATABASE_URL' }), {
      message:
        'DATABASE_URL: sslmode=disable is not allowed; backlot requires TLS (use sslmode=require or verify-full)',
    });
  });

  test('a certificate from an unknown CA is refused when verification is on', async () => {
    await assert.rejects(
      openPostgres({
        url: server.url,
        source: 'DATABASE_URL',
        sslCaFile: '/etc/ssl/certs/ca-certificates.crt',
      }),
      /^DatabaseError: DATABASE_URL: TLS certificate of 127\.0\.0\.1:\d+ not trusted/,
    );
  });

  test('wrong password, unreachable port and a bad URL each give one clear line', async () => {
    await assert.rejects(
      openPostgres({ url: server.url.replace(server.password, 'wrong'), source: 'DATABASE_URL' }),
      {
        message: `DATABASE_URL: authentication failed for user "postgres" at 127.0.0.1:${server.port}`,
      },
    );
    await assert.rejects(openPostgres({ url: 'postgres://u:p@127.0.0.1:1/x', source: 'DATABASE_URL' }), {
      message: 'DATABASE_URL: cannot connect to 127.0.0.1:1: connection refused',
    });
    await assert.rejects(openPostgres({ url: 'mysql://nope', source: 'DATABASE_URL' }), {
      message:
        'DATABASE_URL: not a valid PostgreSQL URL (expected postgres://user:password@host:port/database)',
    });
  });

  test('pending migrations run in one batch, each as if alone; a failure applies none of them', async () => {
    const admin = await openPostgres({ url: server.url, source: 'DATABASE_URL' });
    await admin.exec('CREATE DATABASE batches');
    await admin.close();
    const db = await openPostgres({
      url: server.url.replace('/postgres?', '/batches?'),
      source: 'DATABASE_URL',
    });
    try {
      await migrationsRunAsIfAlone(db);
    } finally {
      await db.close();
    }
  });

  test('two processes starting at once apply each migration exactly once', async () => {
    const admin = await openPostgres({ url: server.url, source: 'DATABASE_URL' });
    await admin.exec('CREATE DATABASE concurrent_starts');
    await admin.close();
    const url = server.url.replace('/postgres?', '/concurrent_starts?');
    const [a, b] = await Promise.all([
      openPostgres({ url, source: 'DATABASE_URL' }),
      openPostgres({ url, source: 'DATABASE_URL' }),
    ]);
    try {
      const results = await Promise.all([migrate(a, 'demo', migrations), migrate(b, 'demo', migrations)]);
      // One start applied both migrations, the other found them done; neither failed on "already exists".
      assert.deepEqual(results.flat().sort(), ['001_notes', '002_notes_author']);
      assert.deepEqual(await appliedNames(a, 'demo'), ['001_notes', '002_notes_author']);
      assert.deepEqual(await migrate(a, 'demo', migrations), []);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
