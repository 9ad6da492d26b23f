import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCommand } from '../../src/platform/commands.js';
import type { Database } from '../../src/platform/database.js';
import type { ServiceDefinition } from '../../src/platform/service.js';
import { content } from '../../src/services/content/index.js';
import { employees } from '../../src/services/employees/index.js';
import { list } from '../../src/services/list/index.js';
import { machines } from '../../src/services/machines/index.js';
import { posts } from '../../src/services/posts/index.js';
import { profiles } from '../../src/services/profiles/index.js';
import { things } from '../../src/services/things/index.js';
import { testClock } from '../clock.js';
import { startTestService, type TestService } from '../service.js';

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const json = { 'content-type': 'application/json' };

/** Every text value stored in the service's schema, one string per row and column. */
async function storedText(db: Database, schema: string): Promise<string[]> {
  const { rows: columns } = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = $1 AND data_type IN ('text', 'character varying', 'ARRAY', 'jsonb', 'json')`,
    [schema],
  );
  assert.ok(columns.length > 0, `${schema} has text columns`);
  const values: string[] = [];
  for (const { table_name, column_name } of columns) {
    const { rows } = await db.query<{ v: string | null }>(
      `SELECT "${column_name}"::text AS v FROM "${schema}"."${table_name}"`,
    );
    for (const row of rows) if (row.v !== null) values.push(row.v);
  }
  return values;
}

function assertNowhere(secret: string, haystack: string[], where: string) {
  assert.ok(secret.length >= 8);
  const found = haystack.find((value) => value.includes(secret));
  assert.equal(found, undefined, `the secret appears in ${where}`);
}

describe('things: secrets hashed, never logged, every refusal exact', () => {
  const logLines: string[] = [];
  let service: TestService;
  const password = 'things-Password-123';
  let secret: string;
  const unauthorized = { code: 'unauthorized', description: 'Unauthorized' };
  before(async () => {
    service = await startTestService(things, { logLines });
    await service.app.inject({ method: 'POST', url: '/signup', payload: { username: 'ada', password } });
    secret = (
      await service.app.inject({ method: 'POST', url: '/login', payload: { username: 'ada', password } })
    ).json().secret;
    assert.match(secret, /^[0-9a-f]{64}$/);
  });
  after(() => service.close());

  test('the password and the secret are stored only as hashes', async () => {
    const stored = await storedText(service.db, 'things');
    assertNowhere(password, stored, 'things tables');
    assertNowhere(secret, stored, 'things tables');
  });

  test('negative authentication on /things and /logout', async () => {
    const get = (headers: Record<string, string>) => service.app.inject({ url: '/things', headers });
    const attempts: Record<string, string>[] = [
      {},
      { 'db-user-secret': '' },
      { 'db-user-secret': 'f'.repeat(64) },
      { 'db-user-secret': secret.toUpperCase() },
      { authorization: `Bearer ${secret}` },
    ];
    for (const headers of attempts) {
      const res = await get(headers);
      assert.equal(res.statusCode, 401, JSON.stringify(headers));
      assert.deepEqual(res.json(), unauthorized);
    }
    const wrong = await service.app.inject({
      method: 'POST',
      url: '/login',
      payload: { username: 'ada', password: 'nope' },
    });
    assert.equal(wrong.statusCode, 401);
    assert.deepEqual(wrong.json(), {
      code: 'authentication failed',
      description: 'The document was not found or provided password was incorrect.',
    });
    assert.equal((await get({ 'db-user-secret': secret })).statusCode, 200);
    const logout = await service.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { 'db-user-secret': secret },
    });
    assert.equal(logout.statusCode, 204);
    const revoked = await get({ 'db-user-secret': secret });
    assert.equal(revoked.statusCode, 401);
    assert.deepEqual(revoked.json(), unauthorized);
    const again = await service.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { 'db-user-secret': secret },
    });
    assert.equal(again.statusCode, 401);
    assert.deepEqual(again.json(), unauthorized);
  });

  test('an expired secret is refused like an unknown one', async () => {
    const clock = testClock();
    const short = await startTestService(things, { env: { THINGS_SECRET_TTL: '1s' }, clock });
    try {
      const credentials = { username: 'bo', password: 'bo-Password-1' };
      await short.app.inject({ method: 'POST', url: '/signup', payload: credentials });
      const fresh = (await short.app.inject({ method: 'POST', url: '/login', payload: credentials })).json()
        .secret;
      const read = () => short.app.inject({ url: '/things', headers: { 'db-user-secret': fresh } });
      assert.equal((await read()).statusCode, 200);
      clock.advance(999);
      assert.equal((await read()).statusCode, 200, 'valid until its second is over');
      clock.advance(1);
      const expired = await short.app.inject({ url: '/things', headers: { 'db-user-secret': fresh } });
      assert.equal(expired.statusCode, 401);
      assert.deepEqual(expired.json(), unauthorized);
    } finally {
      await short.close();
    }
  });

  test('no secret appears in any log line', () => {
    assert.ok(logLines.length > 5);
    assertNowhere(password, logLines, 'the log');
    assertNowhere(secret, logLines, 'the log');
  });
});

describe('employees: passwords hashed, never logged, every refusal exact', () => {
  const logLines: string[] = [];
  let service: TestService;
  const editorPassword = 'editor-Secret-42';
  const viewerPassword = 'viewer-Secret-42';
  before(async () => {
    service = await startTestService(employees, {
      logLines,
      // Many wrong tries from one address: the login limit (brute-force.test.ts) would answer 429 instead.
      env: {
        EMPLOYEES_USERS: `ed:${editorPassword}:editor,vi:${viewerPassword}:viewer`,
        LOGIN_FAILURE_LIMIT: '0',
      },
    });
  });
  after(() => service.close());
  const envelope = (message: string) => ({ status: 'error', data: null, message });
  const record = { name: 'Ada', age: 36, image: null };

  test('negative authentication on every protected route', async () => {
    const routes: Array<{ method: 'POST' | 'PUT' | 'DELETE' | 'GET'; url: string; payload?: unknown }> = [
      { method: 'POST', url: '/api/2/create', payload: record },
      { method: 'PUT', url: '/api/2/update/1', payload: record },
      { method: 'DELETE', url: '/api/2/delete/1' },
      { method: 'GET', url: '/api/2/employee/1' },
    ];
    for (const route of routes) {
      const send = (authorization?: string) =>
        service.app.inject({
          method: route.method,
          url: route.url,
          payload: route.payload as object | undefined,
          headers: authorization ? { authorization } : {},
        });
      const none = await send();
      assert.equal(none.statusCode, 401, route.url);
      assert.equal(none.headers['www-authenticate'], 'Basic realm="employees"');
      assert.deepEqual(none.json(), envelope('Unauthorized! This request needs HTTP Basic credentials'));
      for (const authorization of [
        `Bearer ${editorPassword}`,
        basic('ed', 'wrong'),
        basic('nobody', editorPassword),
        basic('ed', editorPassword.toUpperCase()),
        'Basic !!!',
      ]) {
        const res = await send(authorization);
        assert.equal(res.statusCode, 401, `${route.url} ${authorization}`);
        assert.equal(res.headers['www-authenticate'], 'Basic realm="employees"');
        assert.deepEqual(res.json(), envelope('Unauthorized! Wrong user name or password'));
      }
      const viewer = await send(basic('vi', viewerPassword));
      if (route.method === 'GET') {
        assert.equal(viewer.statusCode, 200, route.url);
      } else {
        assert.equal(viewer.statusCode, 403, route.url);
        assert.deepEqual(
          viewer.json(),
          envelope('Forbidden! vi has the viewer role, which may not change records'),
        );
      }
    }
    const created = await service.app.inject({
      method: 'POST',
      url: '/api/2/create',
      headers: { authorization: basic('ed', editorPassword) },
      payload: record,
    });
    assert.equal(created.statusCode, 201);
  });

  test('passwords are stored only as hashes and never logged', async () => {
    const stored = await storedText(service.db, 'employees');
    assertNowhere(editorPassword, stored, 'employees tables');
    assertNowhere(viewerPassword, stored, 'employees tables');
    assertNowhere(editorPassword, logLines, 'the log');
    assertNowhere(viewerPassword, logLines, 'the log');
    assertNowhere(Buffer.from(`ed:${editorPassword}`).toString('base64'), logLines, 'the log');
  });
});

describe('machines: tokens hashed, never logged, every refusal exact', () => {
  const logLines: string[] = [];
  let service: TestService;
  const full = `dop_v1_${'1a'.repeat(32)}`;
  const readOnly = `dop_v1_${'2b'.repeat(32)}`;
  before(async () => {
    service = await startTestService(machines, {
      logLines,
      env: { MACHINES_TOKENS: `full=${full},reader=${readOnly}=machine:read`, LOGIN_FAILURE_LIMIT: '0' },
    });
  });
  after(() => service.close());

  test('negative authentication: no, wrong-scheme, unknown and under-scoped tokens', async () => {
    const unauthorized = { id: 'unauthorized', message: 'Unable to authenticate you' };
    for (const authorization of [
      undefined,
      basic('full', full),
      `Bearer dop_v1_${'0'.repeat(64)}`,
      `Bearer ${full}x`,
      'Bearer',
    ]) {
      for (const [method, url] of [
        ['GET', '/v2/machines'],
        ['POST', '/v2/machines'],
        ['DELETE', '/v2/machines/1'],
        ['GET', '/v2/regions'],
        ['GET', '/v2/nothing'],
      ] as const) {
        const res = await service.app.inject({
          method,
          url,
          headers: authorization ? { authorization } : {},
        });
        assert.equal(res.statusCode, 401, `${method} ${url} ${authorization}`);
        const body = res.json();
        assert.deepEqual({ id: body.id, message: body.message }, unauthorized);
        assert.equal(body.request_id, res.headers['x-request-id']);
      }
    }
    const forbidden = { id: 'forbidden', message: 'You do not have permission to perform this action.' };
    for (const [method, url] of [
      ['POST', '/v2/machines'],
      ['DELETE', '/v2/machines/1'],
      ['DELETE', '/v2/machines?tag_name=x'],
    ] as const) {
      const res = await service.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${readOnly}`, ...json },
        payload:
          method === 'POST'
            ? { name: 'a', region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64' }
            : undefined,
      });
      assert.equal(res.statusCode, 403, `${method} ${url}`);
      const body = res.json();
      assert.deepEqual({ id: body.id, message: body.message }, forbidden);
    }
    const read = await service.app.inject({
      url: '/v2/machines',
      headers: { authorization: `Bearer ${readOnly}` },
    });
    assert.equal(read.statusCode, 200);
  });

  test('tokens are stored only as hashes and never logged', async () => {
    const stored = await storedText(service.db, 'machines');
    for (const token of [full, readOnly]) {
      assertNowhere(token, stored, 'machines tables');
      assertNowhere(token.slice(7), stored, 'machines tables');
      assertNowhere(token, logLines, 'the log');
    }
  });
});

describe('content: application passwords hashed, never logged, refusals exact', () => {
  const logLines: string[] = [];
  let service: TestService;
  const appPassword = 'abcdEFGHijklMNOPqrstUVWX';
  const issued: string[] = [];
  before(async () => {
    service = await startTestService(content, { logLines, env: { CONTENT_ADMIN_APP_PASSWORD: appPassword } });
  });
  after(() => service.close());

  test('negative authentication: anonymous, wrong password, unknown user, unknown bearer token', async () => {
    const create = (authorization?: string) =>
      service.app.inject({
        method: 'POST',
        url: '/wp-json/wp/v2/posts',
        headers: { ...json, ...(authorization ? { authorization } : {}) },
        payload: { title: 'x', status: 'publish' },
      });
    const anonymous = await create();
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().code, 'rest_cannot_create');
    assert.deepEqual(anonymous.json().data, { status: 401 });
    // A wrong application password is an anonymous caller, as WordPress 6.1 answers it: nothing is written, and
    // public reads are the public's. An unknown bearer token (backlot's own scheme) is refused.
    for (const authorization of [
      basic('admin', 'wrongwrongwrongwrongwron'),
      basic('nobody', appPassword),
      basic('admin', appPassword.toLowerCase()),
    ]) {
      const refused = await create(authorization);
      assert.equal(refused.statusCode, 401, authorization);
      assert.equal(refused.json().code, 'rest_cannot_create');
      const me = await service.app.inject({ url: '/wp-json/wp/v2/users/me', headers: { authorization } });
      assert.equal(me.json().code, 'rest_not_logged_in');
    }
    const bearer = `Bearer ${'0'.repeat(64)}`;
    for (const res of [
      await create(bearer),
      await service.app.inject({ url: '/wp-json/wp/v2/posts', headers: { authorization: bearer } }),
    ]) {
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'incorrect_password');
      assert.deepEqual(res.json().data, { status: 401 });
    }
    const me = await service.app.inject({ url: '/wp-json/wp/v2/users/me' });
    assert.equal(me.statusCode, 401);
    assert.equal(me.json().code, 'rest_not_logged_in');
    const ok = await create(basic('admin', 'abcd EFGH ijkl MNOP qrst UVWX'));
    assert.equal(ok.statusCode, 201);
  });

  test("a role below the one needed, and another user's post, are refused with 403", async () => {
    const run = (command: 'app-password' | 'token', login: string) =>
      runCommand(content, [command, 'create', '--user', login], service.ctx as never);
    const subscriber = basic('subscriber', await run('app-password', 'subscriber'));
    const author = `Bearer ${await run('token', 'author')}`;
    issued.push(subscriber, author);
    const newPost = await service.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/posts',
      headers: { ...json, authorization: subscriber },
      payload: { title: 'x' },
    });
    assert.equal(newPost.statusCode, 403);
    assert.equal(newPost.json().code, 'rest_cannot_create');
    assert.deepEqual(newPost.json().data, { status: 403 });
    const adminPosts = await service.app.inject({ url: '/wp-json/wp/v2/posts?author=1' });
    const adminPost = adminPosts.json()[0].id as number;
    for (const [method, url, code] of [
      ['POST', `/wp-json/wp/v2/posts/${adminPost}`, 'rest_cannot_edit'],
      ['DELETE', `/wp-json/wp/v2/posts/${adminPost}`, 'rest_cannot_delete'],
      ['DELETE', '/wp-json/wp/v2/users/2?force=true&reassign=1', 'rest_user_cannot_delete'],
      ['GET', '/wp-json/wp/v2/users/1?context=edit', 'rest_user_cannot_view'],
    ] as const) {
      const res = await service.app.inject({
        method,
        url,
        headers: method === 'POST' ? { ...json, authorization: author } : { authorization: author },
        payload: method === 'POST' ? { title: 'mine now' } : undefined,
      });
      assert.equal(res.statusCode, 403, `${method} ${url}`);
      assert.equal(res.json().code, code, `${method} ${url}`);
    }
    const me = await service.app.inject({
      url: '/wp-json/wp/v2/users/me',
      headers: { authorization: author },
    });
    assert.equal(me.json().slug, 'author');
  });

  test('application passwords and tokens are stored only as hashes and never logged', async () => {
    const stored = await storedText(service.db, 'content');
    for (const header of issued) {
      const secret = header.startsWith('Bearer ')
        ? header.slice(7)
        : (Buffer.from(header.slice(6), 'base64').toString().split(':')[1] ?? '');
      assertNowhere(secret, stored, 'content tables');
      assertNowhere(secret, logLines, 'the log');
    }
    assertNowhere(appPassword, stored, 'content tables');
    assertNowhere(appPassword, logLines, 'the log');
    assertNowhere(Buffer.from(`admin:${appPassword}`).toString('base64'), logLines, 'the log');
  });
});

describe('HTML pages carry the security headers', () => {
  const expected = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
  // biome-ignore lint/suspicious/noExplicitAny: one table holds services whose settings types differ
  const pages: Array<[ServiceDefinition<any>, string[], Record<string, string>?]> = [
    [profiles, ['/']],
    [list, ['/', '/docs'], { LIST_DELAY_MS: '0' }],
    [posts, ['/', '/docs']],
    [employees, ['/docs']],
    [things, ['/docs']],
    [machines, ['/docs']],
    [content, ['/docs']],
  ];
  for (const [definition, urls, env] of pages) {
    test(`${definition.id}: ${urls.join(', ')}`, async () => {
      const service = await startTestService(definition, { env });
      try {
        for (const url of urls) {
          let res = await service.app.inject({ url, headers: { accept: 'text/html' } });
          if (res.statusCode >= 300 && res.statusCode < 400) {
            res = await service.app.inject({
              url: new URL(String(res.headers.location), 'http://x/').pathname,
            });
          }
          assert.equal(res.statusCode, 200, `${definition.id} ${url}`);
          assert.match(String(res.headers['content-type']), /^text\/html/, `${definition.id} ${url}`);
          for (const [name, value] of Object.entries(expected)) {
            assert.equal(res.headers[name], value, `${definition.id} ${url} ${name}`);
          }
        }
      } finally {
        await service.close();
      }
    });
  }
});

describe('the journal and the request log redact secrets by one rule', () => {
  test('secret-named fields are redacted whatever they hold; pwd, pin, otp, credentials, x-auth-token, _wpnonce, jwt too', async () => {
    const service = await startTestService(things, { env: { BACKLOT_JOURNAL_BODIES: '1' } });
    try {
      const body = {
        username: 'ada',
        password: ['hunter2-in-an-array'],
        credentials: { user: 'ada', key: 'nested-credential-1' },
        pwd: 'pwd-secret-1',
        pin: '482913',
        otp: '771204',
        shipping: 'kept',
      };
      const refused = await service.app.inject({
        method: 'POST',
        url: '/signup?_wpnonce=a1b2c3d4e5&jwt=eyJhbGciOi.x.y&page=2',
        headers: { 'x-auth-token': 'header-token-value' },
        payload: body,
      });
      assert.equal(refused.statusCode, 400);
      const [entry] = service.harness.journal.list();
      assert.deepEqual(entry?.requestBody, {
        username: 'ada',
        password: '[redacted]',
        credentials: '[redacted]',
        pwd: '[redacted]',
        pin: '[redacted]',
        otp: '[redacted]',
        shipping: 'kept',
      });
      assert.deepEqual(entry?.query, { _wpnonce: '[redacted]', jwt: '[redacted]', page: '2' });
      assert.equal(entry?.headers['x-auth-token'], '[redacted]');
    } finally {
      await service.close();
    }
  });

  test('the info request log shows the URL with secret query parameters redacted', async () => {
    const logLines: string[] = [];
    const service = await startTestService(posts, { logLines });
    try {
      const res = await service.app.inject({ url: '/posts/1?password=open-sesame-42&_wpnonce=n0nce9&id=1' });
      assert.equal(res.statusCode, 200);
      // The one line per request carries the URL as `url`.
      const urls = logLines.map((line) => JSON.parse(line).url).filter(Boolean);
      assert.deepEqual(urls, ['/posts/1?password=[redacted]&_wpnonce=[redacted]&id=1']);
      assertNowhere('open-sesame-42', logLines, 'the log');
    } finally {
      await service.close();
    }
  });

  test('a request body over 64 KiB is journalled as its size, as answers are', async () => {
    const service = await startTestService(list, {
      env: { LIST_DELAY_MS: '0', BACKLOT_JOURNAL_BODIES: '1' },
    });
    try {
      const payload = JSON.stringify({ item: 'x'.repeat(70_000) });
      const created = await service.app.inject({ method: 'POST', url: '/list', headers: json, payload });
      assert.equal(created.statusCode, 201);
      const small = await service.app.inject({
        method: 'POST',
        url: '/list',
        headers: json,
        payload: '{"item":"tea"}',
      });
      assert.equal(small.statusCode, 201);
      const [big, kept] = service.harness.journal.list();
      assert.equal(big?.requestBody, `[${Buffer.byteLength(payload)} bytes]`);
      assert.equal(big?.responseBody, `[${created.body.length} characters]`);
      assert.deepEqual(kept?.requestBody, { item: 'tea' });
    } finally {
      await service.close();
    }
  });
});
