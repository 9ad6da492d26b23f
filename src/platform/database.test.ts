import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Worker } from 'node:worker_threads';
import { startPostgres, type TestPostgres } from '../../support/postgres.js';
import { embeddedTemplate } from '../../test/db.js';
import { type Database, DatabaseError, isUnavailable, openEmbedded, openPostgres } from './database.js';
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

  // The first test opens a cluster made by initdb, as a start without the build's template does; the others copy
  // the template (a second initdb proves nothing new and costs seconds of CPU).
  test('migrations apply in order once, in the service schema, and a second run changes nothing', async () => {
    const db = await openEmbedded(undefined, await embeddedTemplate());
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
    const db = await openEmbedded(undefined, await embeddedTemplate());
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

describe('embedded database off the main thread', () => {
  let db: Database;
  before(async () => {
    db = await openEmbedded(undefined, await embeddedTemplate());
    await migrate(db, 'demo', migrations);
  });
  after(() => db.close());

  test('while queries are queued on it, the event loop keeps turning', async () => {
    // About 10 ms each: run on the main thread, 50 of them held every timer and request for half a second.
    const heavy = 'SELECT sum(g)::int8 AS total FROM generate_series(1, 5000) AS g';
    let turns = 0;
    let done = false;
    const turn = () => {
      turns++;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    const results = await Promise.all(Array.from({ length: 50 }, () => db.query(heavy)));
    done = true;
    assert.deepEqual(results[49]?.rows, [{ total: '12502500' }]);
    assert.ok(turns > 50, `the event loop turned ${turns} times while 50 queries ran`);
  });

  test('values come back as before: int8 and numeric as strings, json, dates, bytes', async () => {
    const { rows, rowCount } = await db.query(
      `SELECT 9007199254740993::int8 AS big, 1.50::numeric AS price, 7::int4 AS small, true AS yes,
              NULL::text AS nothing, $1::jsonb AS doc, '2024-03-01T10:00:00Z'::timestamptz AS at,
              '\\x0102'::bytea AS bytes, ARRAY[1, 2] AS list`,
      [{ a: [1, 'b'] }],
    );
    assert.equal(rowCount, 1);
    assert.deepEqual(rows, [
      {
        big: '9007199254740993',
        price: '1.50',
        small: 7,
        yes: true,
        nothing: null,
        doc: { a: [1, 'b'] },
        at: new Date('2024-03-01T10:00:00Z'),
        bytes: new Uint8Array([1, 2]),
        list: [1, 2],
      },
    ]);
  });

  test("PostgreSQL's error fields reach the caller (unique violations, syntax errors)", async () => {
    await db.query('INSERT INTO demo.notes (id, body) VALUES (1000, $1)', ['first']);
    const duplicate = await db.query('INSERT INTO demo.notes (id, body) VALUES (1000, $1)', ['again']).then(
      () => assert.fail('a duplicate key is refused'),
      (error: Error & Record<string, unknown>) => error,
    );
    assert.ok(duplicate instanceof Error);
    assert.equal(duplicate.message, 'duplicate key value violates unique constraint "notes_pkey"');
    assert.equal(String(duplicate), 'error: duplicate key value violates unique constraint "notes_pkey"');
    assert.deepEqual(
      {
        code: duplicate.code,
        constraint: duplicate.constraint,
        detail: duplicate.detail,
        table: duplicate.table,
        schema: duplicate.schema,
        severity: duplicate.severity,
      },
      {
        code: '23505',
        constraint: 'notes_pkey',
        detail: 'Key (id)=(1000) already exists.',
        table: 'notes',
        schema: 'demo',
        severity: 'ERROR',
      },
    );
    assert.equal(isUnavailable(duplicate), false);
    await assert.rejects(db.query('SELEC 1'), { code: '42601', position: '1' });
    await assert.rejects(db.exec('SELECT * FROM demo.missing'), { code: '42P01' });
  });

  test('a transaction holds others back until it ends; one that throws leaves nothing', async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => {
      inside = resolve;
    });
    let release!: () => void;
    const open = db.transaction(async (tx) => {
      await tx.query('INSERT INTO demo.notes (body) VALUES ($1)', ['kept']);
      inside();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return (await tx.query('SELECT count(*)::int AS n FROM demo.notes WHERE body = $1', ['kept'])).rows;
    });
    await entered;
    const outside = db.query<{ n: number }>('SELECT count(*)::int AS n FROM demo.notes WHERE body = $1', [
      'kept',
    ]);
    let answered = false;
    void outside.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(answered, false, 'a query outside the transaction waits for it');
    release();
    assert.deepEqual(await open, [{ n: 1 }]);
    assert.deepEqual((await outside).rows, [{ n: 1 }]);

    const failing = db.transaction(async (tx) => {
      await tx.query('INSERT INTO demo.notes (body) VALUES ($1)', ['lost']);
      throw Object.assign(new Error('boom'), { status: 409 });
    });
    await assert.rejects(failing, { message: 'boom', status: 409 });
    const second = db.transaction(async (tx) => {
      await tx.exec("INSERT INTO demo.notes (body) VALUES ('second')");
      await tx.query('INSERT INTO demo.notes (id, body) VALUES (1001, $1), (1001, $1)', ['twice']);
    });
    await assert.rejects(second, { code: '23505' });
    const { rows } = await db.query("SELECT body FROM demo.notes WHERE body IN ('lost', 'second', 'twice')");
    assert.deepEqual(rows, []);
  });

  test('a stopped worker fails waiting and later queries as an outage, without hanging', async () => {
    const doomed = await openEmbedded(undefined, await embeddedTemplate());
    const waiting = doomed.query('SELECT sum(g) FROM generate_series(1, 5000) AS g');
    await (doomed as unknown as { worker: Worker }).worker.terminate();
    await assert.rejects(waiting, (error) => isUnavailable(error));
    await assert.rejects(doomed.ping(), (error) => isUnavailable(error));
    await doomed.close();
    await doomed.close();
  });

  test('a process neither waits on an idle database nor exits while a query runs', async () => {
    const script = `
      import { openEmbedded } from ${JSON.stringify(new URL('./database.ts', import.meta.url).href)};
      import { embeddedTemplate } from ${JSON.stringify(new URL('../../test/db.ts', import.meta.url).href)};
      const db = await openEmbedded(undefined, await embeddedTemplate());
      const { rows } = await db.query('SELECT 41 + 1 AS answer');
      console.log(rows[0].answer);`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 60_000 },
    );
    assert.equal(stdout.trim(), '42');
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
