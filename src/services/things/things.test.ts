import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { testClock } from '../../../test/clock.js';
import { createTestDatabase } from '../../../test/db.js';
import { startTestService, type TestService } from '../../../test/service.js';
import type { Database } from '../../platform/database.js';
import { migrate } from '../../platform/migrations.js';
import { tokenHash } from '../../platform/secrets.js';
import { things } from './index.js';
import { migrations } from './migrations.js';
import type { ThingsSettings } from './settings.js';

const NOT_UNIQUE = { code: 'instance not unique', description: 'document is not unique.' };
const AUTH_FAILED = {
  code: 'authentication failed',
  description: 'The document was not found or provided password was incorrect.',
};
const UNAUTHORIZED = { code: 'unauthorized', description: 'Unauthorized' };

type Service = TestService<ThingsSettings>;

// One database for the whole file (starting one is the slow part); each test uses its own usernames.
let db: Database;
before(async () => {
  db = await createTestDatabase();
  await migrate(db, 'things', migrations);
});
after(() => db.close());
beforeEach(() => db?.query('DELETE FROM things.rate_limits'));
const start = (env: Record<string, string> = {}, logLines?: string[]) =>
  startTestService(things, { db, env, logLines });

const post = (svc: Service, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  svc.app.inject({ method: 'POST', url, payload: payload as object, headers });

const signup = (svc: Service, username: string, password: string) =>
  post(svc, '/signup', { username, password });

async function login(svc: Service, username: string, password: string): Promise<string> {
  const res = await post(svc, '/login', { username, password });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().secret;
}

const getThings = (svc: Service, secret?: string) =>
  svc.app.inject({
    method: 'GET',
    url: '/things',
    headers: secret === undefined ? {} : { 'db-user-secret': secret },
  });

describe('things over HTTP', () => {
  let svc: Service;
  before(async () => {
    svc = await start({ THINGS_LOGIN_RATE_LIMIT: '0', THINGS_SIGNUP_RATE_LIMIT: '0' });
  });
  after(() => svc.close());

  test('signup, login, then every thing with the secret', async () => {
    const created = await signup(svc, 'ada', 'correct horse');
    assert.equal(created.statusCode, 200);
    assert.match(created.headers['content-type'] as string, /^application\/json/);
    const { userId } = created.json();
    assert.match(userId, /^[0-9]+$/);
    assert.deepEqual(Object.keys(created.json()), ['userId']);

    const loggedIn = await post(svc, '/login', { username: 'ada', password: 'correct horse' });
    assert.equal(loggedIn.statusCode, 200);
    assert.deepEqual(Object.keys(loggedIn.json()), ['secret']);
    const { secret } = loggedIn.json();
    assert.match(secret, /^[0-9a-f]{64}$/);

    const res = await getThings(svc, secret);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      things: [
        { id: '1', name: 'Teapot', color: 'white' },
        { id: '2', name: 'Bicycle', color: 'red' },
        { id: '3', name: 'Umbrella', color: 'yellow' },
        { id: '4', name: 'Notebook', color: 'blue' },
        { id: '5', name: 'Cactus', color: 'green' },
      ],
    });

    const stored = await svc.db.query<{ id: string; ts: string }>(
      'SELECT id::text, ts::text FROM things.users WHERE username = $1',
      ['ada'],
    );
    assert.equal(stored.rows[0].id, userId);
    // ts is microseconds since the epoch, like the original's.
    assert.ok(Math.abs(Number(stored.rows[0].ts) / 1000 - Date.now()) < 60_000, stored.rows[0].ts);
  });

  test('every thing is returned, with no page cap', async () => {
    await svc.db.query(
      `INSERT INTO things.things (name, color) SELECT 'bulk ' || i, 'grey' FROM generate_series(1, 150) AS i`,
    );
    await signup(svc, 'many', 'pw');
    const res = await getThings(svc, await login(svc, 'many', 'pw'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().things.length, 155);
    assert.deepEqual(res.json().things.at(-1), { id: '155', name: 'bulk 150', color: 'grey' });
    await svc.db.query(`DELETE FROM things.things WHERE name LIKE 'bulk %'`);
  });

  test('a taken username is 409 instance not unique', async () => {
    assert.equal((await signup(svc, 'grace', 'one')).statusCode, 200);
    const again = await signup(svc, 'grace', 'two');
    assert.equal(again.statusCode, 409);
    assert.deepEqual(again.json(), NOT_UNIQUE);
    // Usernames are exact: another case is another user, as with the original index.
    assert.equal((await signup(svc, 'Grace', 'two')).statusCode, 200);
    // The first password still works; the rejected signup changed nothing.
    assert.equal((await post(svc, '/login', { username: 'grace', password: 'one' })).statusCode, 200);
  });

  test('a wrong password and an unknown user get the same 401', async () => {
    await signup(svc, 'linus', 'right');
    const wrong = await post(svc, '/login', { username: 'linus', password: 'wrong' });
    const unknown = await post(svc, '/login', { username: 'nobody', password: 'right' });
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.deepEqual(wrong.json(), AUTH_FAILED);
    assert.equal(unknown.body, wrong.body);
    const tokens = await svc.db.query(
      'SELECT 1 FROM things.tokens t JOIN things.users u ON u.id = t.user_id WHERE u.username = $1',
      ['linus'],
    );
    assert.equal(tokens.rows.length, 0);
  });

  test('missing, garbage, unknown and revoked secrets are 401 unauthorized', async () => {
    await signup(svc, 'margaret', 'apollo');
    const secret = await login(svc, 'margaret', 'apollo');
    for (const bad of [undefined, '', 'garbage', `${secret}x`, secret.toUpperCase(), 'f'.repeat(64)]) {
      const res = await getThings(svc, bad);
      assert.equal(res.statusCode, 401, `secret ${bad}`);
      assert.deepEqual(res.json(), UNAUTHORIZED);
    }
    assert.equal((await getThings(svc, secret)).statusCode, 200);

    const out = await post(svc, '/logout', undefined, { 'db-user-secret': secret });
    assert.equal(out.statusCode, 204);
    assert.equal(out.body, '');
    const revoked = await getThings(svc, secret);
    assert.equal(revoked.statusCode, 401);
    assert.deepEqual(revoked.json(), UNAUTHORIZED);
    const twice = await post(svc, '/logout', undefined, { 'db-user-secret': secret });
    assert.equal(twice.statusCode, 401);
    assert.deepEqual(twice.json(), UNAUTHORIZED);
    assert.deepEqual((await post(svc, '/logout', undefined)).json(), UNAUTHORIZED);
  });

  test('logging out one secret leaves the user’s other secrets working', async () => {
    await signup(svc, 'barbara', 'liskov');
    const first = await login(svc, 'barbara', 'liskov');
    const second = await login(svc, 'barbara', 'liskov');
    assert.notEqual(first, second);
    await post(svc, '/logout', undefined, { 'db-user-secret': first });
    assert.equal((await getThings(svc, first)).statusCode, 401);
    assert.equal((await getThings(svc, second)).statusCode, 200);
  });

  test('bodies that are not JSON objects with string credentials are 400 invalid argument', async () => {
    const cases: { payload?: string; type?: string; description: string }[] = [
      {
        payload: '{"username": "x", ',
        type: 'application/json',
        description: "Body is not valid JSON but content-type is set to 'application/json'",
      },
      {
        payload: '',
        type: 'application/json',
        description: "Body cannot be empty when content-type is set to 'application/json'",
      },
      { description: 'body must be a JSON object' },
      {
        payload: 'username=x&password=y',
        type: 'application/x-www-form-urlencoded',
        description: 'body must be JSON (Content-Type: application/json)',
      },
      {
        payload: '{"username":"x","password":"y"}',
        type: 'text/plain',
        description: 'body must be a JSON object',
      },
      { payload: '[]', type: 'application/json', description: 'body must be a JSON object' },
      { payload: '"ada"', type: 'application/json', description: 'body must be a JSON object' },
      { payload: '{}', type: 'application/json', description: 'username is required' },
      { payload: '{"username":"x"}', type: 'application/json', description: 'password is required' },
      {
        payload: '{"username":123,"password":"y"}',
        type: 'application/json',
        description: 'username must be a string',
      },
      {
        payload: '{"username":"x","password":null}',
        type: 'application/json',
        description: 'password must be a string',
      },
      {
        payload: '{"username":"x","password":["y"]}',
        type: 'application/json',
        description: 'password must be a string',
      },
      {
        payload: '{"username":"","password":"y"}',
        type: 'application/json',
        description: 'username must not be empty',
      },
      {
        payload: '{"username":"x","password":""}',
        type: 'application/json',
        description: 'password must not be empty',
      },
      {
        payload: JSON.stringify({ username: 'x', password: 'p'.repeat(1025) }),
        type: 'application/json',
        description: 'password must be at most 1024 characters',
      },
    ];
    for (const path of ['/signup', '/login']) {
      for (const c of cases) {
        const res = await svc.app.inject({
          method: 'POST',
          url: path,
          payload: c.payload,
          headers: c.type ? { 'content-type': c.type } : {},
        });
        assert.equal(res.statusCode, 400, `${path} ${c.type} ${c.payload}: ${res.body}`);
        assert.deepEqual(
          res.json(),
          { code: 'invalid argument', description: c.description },
          `${path} ${c.payload}`,
        );
      }
    }
    const users = await svc.db.query(`SELECT 1 FROM things.users WHERE username IN ('x', '123')`);
    assert.equal(users.rows.length, 0);
  });

  test('a body over the size limit is 413 in the same shape', async () => {
    const res = await post(svc, '/signup', { username: 'big', password: 'p'.repeat(1024 * 1024) });
    assert.equal(res.statusCode, 413);
    assert.deepEqual(res.json(), { code: 'invalid argument', description: 'Request body is too large' });
  });

  test('unknown routes are 404 in the same shape', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/nope' });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { code: 'not found', description: 'No route for GET /nope' });
    const wrongMethod = await svc.app.inject({ method: 'DELETE', url: '/things' });
    assert.equal(wrongMethod.statusCode, 404);
    assert.equal(wrongMethod.json().code, 'not found');
  });

  test('the OpenAPI document describes the routes', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const paths = res.json().paths;
    assert.deepEqual(Object.keys(paths).sort(), ['/login', '/logout', '/signup', '/things']);
    // The db-user-secret header is the security scheme (Swagger UI's Authorize sends it), not a parameter.
    assert.deepEqual(paths['/things'].get.security, [{ dbUserSecret: [] }]);
    assert.equal(res.json().components.securitySchemes.dbUserSecret.name, 'db-user-secret');
  });

  test('passwords and secrets are not stored in clear', async () => {
    const password = 'hunter2-plain-text';
    await signup(svc, 'hashed', password);
    const secret = await login(svc, 'hashed', password);
    const users = await svc.db.query<{ row: string; password_hash: string }>(
      `SELECT row_to_json(u)::text AS row, password_hash FROM things.users u WHERE username = 'hashed'`,
    );
    assert.match(users.rows[0].password_hash, /^\$argon2id\$/);
    assert.ok(!users.rows[0].row.includes(password));
    const tokens = await svc.db.query<{ row: string; secret_hash: string }>(
      `SELECT row_to_json(t)::text AS row, secret_hash FROM things.tokens t
       WHERE user_id = (SELECT id FROM things.users WHERE username = 'hashed')`,
    );
    assert.ok(tokens.rows.length > 0);
    for (const t of tokens.rows) assert.ok(!t.row.includes(secret));
    assert.ok(tokens.rows.some((t) => t.secret_hash === tokenHash(secret)));
    const all = await svc.db.query<{ dump: string }>(
      `SELECT string_agg(row_to_json(x)::text, ' ') AS dump FROM (
         SELECT * FROM things.users) x`,
    );
    assert.ok(!all.rows[0].dump.includes(password));
  });
});

describe('logs', () => {
  test('never contain passwords or secrets', async () => {
    const logLines: string[] = [];
    const svc = await start({}, logLines);
    try {
      await signup(svc, 'logged', 'pa55-in-the-log?');
      const secret = await login(svc, 'logged', 'pa55-in-the-log?');
      await getThings(svc, secret);
      await post(svc, '/logout', undefined, { 'db-user-secret': secret });
      const log = logLines.join('\n');
      assert.ok(logLines.length > 0);
      assert.ok(!log.includes('pa55-in-the-log?'));
      assert.ok(!log.includes(secret));
    } finally {
      await svc.close();
    }
  });
});

describe('secret lifetime', () => {
  test('THINGS_SECRET_TTL makes secrets expire', async () => {
    const svc = await start({ THINGS_SECRET_TTL: '2h' });
    try {
      await signup(svc, 'temp', 'pw');
      const secret = await login(svc, 'temp', 'pw');
      const { rows } = await svc.db.query<{ seconds: string }>(
        'SELECT round(extract(epoch FROM expires_at - now()))::text AS seconds FROM things.tokens WHERE secret_hash = $1',
        [tokenHash(secret)],
      );
      assert.ok(Math.abs(Number(rows[0].seconds) - 7200) <= 5, rows[0].seconds);
      assert.equal((await getThings(svc, secret)).statusCode, 200);
      await svc.db.query(
        `UPDATE things.tokens SET expires_at = now() - interval '1 second' WHERE secret_hash = $1`,
        [tokenHash(secret)],
      );
      const expired = await getThings(svc, secret);
      assert.equal(expired.statusCode, 401);
      assert.deepEqual(expired.json(), UNAUTHORIZED);
    } finally {
      await svc.close();
    }
  });

  test('without THINGS_SECRET_TTL secrets do not expire', async () => {
    const svc = await start();
    try {
      await signup(svc, 'forever', 'pw');
      const secret = await login(svc, 'forever', 'pw');
      const { rows } = await svc.db.query('SELECT expires_at FROM things.tokens WHERE secret_hash = $1', [
        tokenHash(secret),
      ]);
      assert.equal(rows[0].expires_at, null);
    } finally {
      await svc.close();
    }
  });
});

describe('two instances on one database', () => {
  test('share users, secrets, revocations and rate limits', async () => {
    const env = { THINGS_LOGIN_RATE_LIMIT: '3', THINGS_SIGNUP_RATE_LIMIT: '0' };
    const a = await start(env);
    const b = await start(env);
    try {
      assert.equal((await signup(a, 'shared', 'pw')).statusCode, 200);
      assert.deepEqual((await signup(b, 'shared', 'pw')).json(), NOT_UNIQUE);
      const secret = await login(b, 'shared', 'pw');
      assert.equal((await getThings(a, secret)).statusCode, 200);
      assert.equal((await post(a, '/logout', undefined, { 'db-user-secret': secret })).statusCode, 204);
      assert.equal((await getThings(b, secret)).statusCode, 401);
      // One login on b so far; two more on a reach the limit of 3, the fourth (on b) is refused.
      await login(a, 'shared', 'pw');
      await login(a, 'shared', 'pw');
      const limited = await post(b, '/login', { username: 'shared', password: 'pw' });
      assert.equal(limited.statusCode, 429);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('rate limits', () => {
  test('signup and login are limited per client address with 429 and Retry-After', async () => {
    const clock = testClock();
    const svc = await startTestService(things, {
      db,
      clock,
      env: { THINGS_LOGIN_RATE_LIMIT: '2', THINGS_SIGNUP_RATE_LIMIT: '1', THINGS_RATE_LIMIT_WINDOW: '300' },
    });
    const from = (ip: string, url: string, body: unknown) =>
      svc.app.inject({ method: 'POST', url, payload: body as object, remoteAddress: ip });
    try {
      assert.equal((await from('10.0.0.1', '/signup', { username: 'r1', password: 'pw' })).statusCode, 200);
      const signupLimited = await from('10.0.0.1', '/signup', { username: 'r2', password: 'pw' });
      assert.equal(signupLimited.statusCode, 429);
      assert.equal((await svc.db.query(`SELECT 1 FROM things.users WHERE username = 'r2'`)).rows.length, 0);

      assert.equal((await from('10.0.0.1', '/login', { username: 'r1', password: 'bad' })).statusCode, 401);
      clock.advance(10_000);
      assert.equal((await from('10.0.0.1', '/login', { username: 'r1', password: 'pw' })).statusCode, 200);
      const limited = await from('10.0.0.1', '/login', { username: 'r1', password: 'pw' });
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.headers['retry-after'], '290', 'the window started at the first login, 10 s ago');
      assert.deepEqual(limited.json(), {
        code: 'too many requests',
        description: 'Too many attempts from this address; try again in 290 s.',
      });
      // Another address is not affected.
      assert.equal((await from('10.0.0.2', '/login', { username: 'r1', password: 'pw' })).statusCode, 200);

      // Until the window has passed; then the address may try again.
      clock.advance(289_999);
      assert.equal(
        (await from('10.0.0.1', '/login', { username: 'r1', password: 'pw' })).headers['retry-after'],
        '1',
      );
      clock.advance(1);
      assert.equal((await from('10.0.0.1', '/login', { username: 'r1', password: 'pw' })).statusCode, 200);
    } finally {
      await svc.close();
    }
  });

  test('the defaults stop a burst of password guesses', async () => {
    const svc = await start();
    try {
      await signup(svc, 'victim', 'secret');
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        statuses.push((await post(svc, '/login', { username: 'victim', password: `guess${i}` })).statusCode);
      }
      assert.deepEqual(statuses, [...Array(10).fill(401), 429, 429]);
    } finally {
      await svc.close();
    }
  });
});
