import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HarnessState } from '../../src/harness/state.js';
import { type Database, openPostgres } from '../../src/platform/database.js';
import { things } from '../../src/services/things/index.js';
import { createTestDatabase } from '../db.js';
import { startTestService, type TestService } from '../service.js';

// A checkpoint restored (as `backlot checkpoint restore` does, on its own connections) while two processes of
// things take signups and logins: no restore fails, no request answers 500, and afterwards no new id collides
// with a restored or surviving one (a fresh username is never "not unique").

const env = { THINGS_SIGNUP_RATE_LIMIT: '0', THINGS_LOGIN_RATE_LIMIT: '0' };
let db: Database & { url?: string };
const extra: Database[] = [];
let processes: TestService[] = [];

/** A connection pool of its own on PostgreSQL, as another process has; PGlite has one database object. */
async function connection() {
  if (!db.url) return db;
  const own = await openPostgres({
    url: db.url,
    source: 'BACKLOT_TEST_DATABASE_URL',
    sslCaFile: process.env.BACKLOT_TEST_DATABASE_CA,
  });
  extra.push(own);
  return own;
}

before(async () => {
  db = await createTestDatabase();
  processes = await Promise.all(
    [0, 1].map(async () => startTestService(things, { db: await connection(), env })),
  );
});
after(async () => {
  for (const p of processes) await p.close();
  for (const own of extra) await own.close();
  await db.close();
});

const signup = (p: TestService, username: string) =>
  p.app.inject({ method: 'POST', url: '/signup', payload: { username, password: 'correct horse 1' } });

test('restores while two processes write: no deadlock, no 500, no id collision afterwards', async () => {
  const [a, b] = processes;
  for (let i = 0; i < 5; i++) assert.equal((await signup(a, `before-${i}`)).statusCode, 200);
  const cli = new HarnessState(
    [{ id: 'things', schema: 'things', settings: {} }],
    await connection(),
    a.dataDir,
  );
  await cli.checkpoint('k1');
  const { rows: saved } = await db.query<{ id: string }>('SELECT id FROM things.users ORDER BY id');

  let writing = true;
  const statuses = new Map<number, number>();
  const writer = async (p: TestService, tag: string) => {
    for (let n = 0; writing; n++) {
      const res =
        n % 3 === 2
          ? await p.app.inject({
              method: 'POST',
              url: '/login',
              payload: { username: 'before-1', password: 'correct horse 1' },
            })
          : await signup(p, `${tag}-${n}`);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }
  };
  const writers = [a, b, a, b, a, b, a, b, a, b].map((p, i) => writer(p, `w${i}`));
  const failures: string[] = [];
  for (let r = 0; r < 12; r++) {
    await cli.restore('k1').catch((error: Error) => failures.push(error.message));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  writing = false;
  await Promise.all(writers);
  await cli.close();

  assert.deepEqual(failures, [], 'every restore succeeds');
  assert.deepEqual(
    [...statuses.keys()].sort(),
    [200],
    `every request succeeds: ${JSON.stringify([...statuses])}`,
  );
  // What the last restore left: the checkpoint's users and whole signups made after it, every id below the
  // sequence's next value (a row above it is the id a later signup would collide with).
  const { rows: left } = await db.query<{ id: string; username: string }>(
    'SELECT id, username FROM things.users ORDER BY id',
  );
  assert.deepEqual(
    left.slice(0, saved.length).map((r) => r.id),
    saved.map((r) => r.id),
  );
  const { rows: seq } = await db.query<{ last_value: string; is_called: boolean }>(
    'SELECT last_value, is_called FROM things.users_id_seq',
  );
  const top = Math.max(...left.map((r) => Number(r.id)));
  assert.ok(Number(seq[0].last_value) >= top, `sequence at ${seq[0].last_value}, a user has id ${top}`);
  // Fresh names on both processes: each is a new user with a new id.
  for (let i = 0; i < 20; i++) {
    const res = await signup(processes[i % 2], `after-${i}`);
    assert.equal(res.statusCode, 200, res.body);
  }
  const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM things.users');
  assert.equal(Number(rows[0].n), left.length + 20);
});
