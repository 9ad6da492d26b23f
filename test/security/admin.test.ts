import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { globalSettings } from '../../src/config.js';
import { serveAdmin } from '../../src/harness/admin-serve.js';
import { externalAddress, startAdminFixture } from '../admin.js';

type Fixture = Awaited<ReturnType<typeof startAdminFixture>>;
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A request sent as written: no URL normalisation, any Host. */
const send = (
  base: string,
  method: string,
  rawPath: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
) =>
  new Promise<Answer>((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers = { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers };
    const req = httpRequest({ hostname, port, method, path: rawPath, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text ? JSON.parse(text) : undefined,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });

const needsToken = { error: 'the admin API needs Authorization: Bearer <ADMIN_TOKEN>' };
const notFound = (method: string, path: string) => ({ error: `No route for ${method} ${path}` });

describe('the admin token guard holds on the matched route, however the path is spelled', () => {
  const token = 'operator-chosen-admin-token';
  let fixture: Fixture;
  before(async () => {
    fixture = await startAdminFixture({ token });
  });
  after(() => fixture?.close());

  // Paths the router decodes to /api/...: each must ask for the token.
  const guarded: [string, string, unknown?][] = [
    ['GET', '/%61pi/services'],
    ['GET', '/%61%70%69/services'],
    ['GET', '/api/%73ervices'],
    ['GET', '/api/services/'],
    ['GET', '/api/services?x=1'],
    ['GET', '/%61pi/services/posts/requests'],
    ['PUT', '/%61pi/fault-headers', { enabled: true }],
    ['PUT', '/%61%70%69/fault-headers', { enabled: true }],
    ['PUT', '/%61pi/services/posts/faults', { errorRate: 1 }],
    ['POST', '/%61pi/reset', {}],
    ['POST', '/api/reset/', {}],
    ['POST', '/%61pi/checkpoints', { name: 'x' }],
    ['DELETE', '/%61pi/services/list/requests'],
  ];
  for (const [method, path, body] of guarded) {
    test(`${method} ${path} without the token is 401`, async () => {
      const answer = await send(fixture.admin.url, method, path, { body });
      assert.deepEqual([answer.status, answer.body], [401, needsToken]);
      assert.equal(answer.headers['www-authenticate'], 'Bearer realm="backlot admin"');
      const wrong = await send(fixture.admin.url, method, path, {
        body,
        headers: { authorization: `Bearer ${token}x` },
      });
      assert.deepEqual([wrong.status, wrong.body], [401, needsToken]);
    });
  }

  // Spellings the router does not take for an /api route: unknown, whatever the token.
  const unknown: [string, string][] = [
    ['GET', '/%2561pi/services'],
    ['GET', '/API/services'],
    ['GET', '/Api/services'],
    ['GET', '/api%2Fservices'],
    ['GET', '//api/services'],
    ['GET', '/api//services'],
    ['PUT', '/API/fault-headers'],
    ['POST', '/api%2freset'],
  ];
  for (const [method, path] of unknown) {
    test(`${method} ${path} is an unknown route: 404`, async () => {
      const answer = await send(fixture.admin.url, method, path);
      assert.deepEqual([answer.status, answer.body], [404, notFound(method, path)]);
    });
  }

  test('nothing was changed by the refused requests, and the token still opens the API', async () => {
    assert.equal(fixture.backlot.faultHeaders.enabled, false);
    assert.deepEqual(fixture.state.calls, []);
    assert.equal(fixture.service('posts').harness.faults.rule.errorRate, 0);
    const answer = await send(fixture.admin.url, 'GET', '/%61pi/services', {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(answer.status, 200);
  });
});

describe('the admin keeps its DNS-rebinding Host check', () => {
  test('with ALLOWED_HOSTS=* only loopback names and IP literals pass', async (t) => {
    const fixture = await startAdminFixture({ allowedHosts: '*' });
    t.after(() => fixture.close());
    const { port } = new URL(fixture.admin.url);
    const refused = await send(fixture.admin.url, 'GET', '/api/services', {
      headers: { host: `rebind.evil.example:${port}` },
    });
    assert.deepEqual(
      [refused.status, refused.body],
      [403, { error: 'Blocked request: this host is not allowed (see ALLOWED_HOSTS)' }],
    );
    const reset = await send(fixture.admin.url, 'POST', '/api/reset', {
      body: {},
      headers: { host: `rebind.evil.example:${port}` },
    });
    assert.equal(reset.status, 403);
    assert.deepEqual(fixture.state.calls, []);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, '10.1.2.3']) {
      const answer = await send(fixture.admin.url, 'GET', '/api/services', { headers: { host } });
      assert.equal(answer.status, 200, host);
    }
  });

  test('a listed ALLOWED_HOSTS name passes, other names do not', async (t) => {
    const fixture = await startAdminFixture({ allowedHosts: ['admin.example.test'] });
    t.after(() => fixture.close());
    const listed = await send(fixture.admin.url, 'GET', '/api/services', {
      headers: { host: 'admin.example.test' },
    });
    assert.equal(listed.status, 200);
    const other = await send(fixture.admin.url, 'GET', '/api/services', { headers: { host: 'evil.test' } });
    assert.equal(other.status, 403);
  });

  test('serveAdmin gives the admin the check when the environment says ALLOWED_HOSTS=*', async (t) => {
    const fixture = await startAdminFixture();
    const global = globalSettings({ ALLOWED_HOSTS: '*', ADMIN_PORT: '0', BACKLOT_DATA_DIR: fixture.dataDir });
    const served = await serveAdmin(fixture.backlot, global, pino({ level: 'silent' }));
    t.after(async () => {
      await served.admin?.close();
      await fixture.close();
    });
    const answer = await send(served.admin!.url, 'GET', '/api/services', { headers: { host: 'evil.test' } });
    assert.equal(answer.status, 403);
  });
});

test('a body trickled slower than the request timeout is answered 408 and the connection closed', async (t) => {
  const fixture = await startAdminFixture({ requestTimeoutMs: 300 });
  t.after(() => fixture.close());
  const { port } = new URL(fixture.admin.url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    received += chunk;
  });
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  const started = Date.now();
  socket.write(
    'PUT /api/fault-headers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Content-Length: 1000\r\n\r\n{',
  );
  // One byte every 50 ms: never idle, never done.
  const trickle = setInterval(() => socket.writable && socket.write(' '), 50);
  const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(-1), 3_000));
  const ended = await Promise.race([closed, timeout]);
  clearInterval(trickle);
  socket.destroy();
  assert.notEqual(ended, -1, 'the server still held the connection after 3 s');
  assert.ok(ended - started < 2_000, `closed after ${ended - started} ms`);
  assert.match(received, /^HTTP\/1\.1 408 /);
  assert.equal(fixture.backlot.faultHeaders.enabled, false);
});

describe('checkpoint names: one rule for the admin, the command line and start()', () => {
  let fixture: Fixture;
  before(async () => {
    fixture = await startAdminFixture({}, {}, true);
    await fixture.backlot.seeded;
  });
  after(() => fixture?.close());
  const rule = { error: 'name: 1 to 64 letters, digits, ".", "-" and "_", starting with a letter or digit' };

  const bad: unknown[] = [
    '',
    '.',
    '..',
    '.hidden',
    '_seed',
    '_x',
    '-x',
    'a/b',
    'a b',
    'ä',
    'a\u0000',
    'x'.repeat(65),
    42,
    null,
    ['a'],
  ];
  for (const name of bad) {
    test(`POST /api/checkpoints {name: ${JSON.stringify(name)}} is 400`, async () => {
      const answer = await send(fixture.admin.url, 'POST', '/api/checkpoints', { body: { name } });
      assert.deepEqual([answer.status, answer.body], [400, rule]);
    });
  }
  for (const path of ['_seed', '..', '.x', 'a%2Fb', 'a%20b', '%C3%A4', 'x'.repeat(65)]) {
    test(`restore and delete of "${decodeURIComponent(path)}" are 400`, async () => {
      const restore = await send(fixture.admin.url, 'POST', `/api/checkpoints/${path}/restore`, { body: {} });
      assert.deepEqual([restore.status, restore.body], [400, rule]);
      const remove = await send(fixture.admin.url, 'DELETE', `/api/checkpoints/${path}`);
      assert.deepEqual([remove.status, remove.body], [400, rule]);
    });
  }

  test('the first-start state stays after attempts to delete or overwrite it', async () => {
    const marker = path.join(fixture.dataDir, 'checkpoints', '_seed', 'list', 'complete');
    const before = readFileSync(marker, 'utf8');
    assert.equal((await send(fixture.admin.url, 'DELETE', '/api/checkpoints/_seed')).status, 400);
    const overwrite = await send(fixture.admin.url, 'POST', '/api/checkpoints', { body: { name: '_seed' } });
    assert.equal(overwrite.status, 400);
    assert.equal(readFileSync(marker, 'utf8'), before);
  });

  const good = [
    'A',
    'Upper',
    'upper',
    'UPPER',
    'Login.v2',
    'release-1.2_rc',
    '0',
    'x'.repeat(50),
    'y'.repeat(64),
  ];
  test(`names that keep their case, dots and up to 64 characters work end to end: ${good.join(', ')}`, async () => {
    const list = `${fixture.service('list').url}/list`;
    const add = (item: string) =>
      fetch(list, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ item }),
      });
    const items = async () => ((await (await fetch(list)).json()) as { item: string }[]).map((i) => i.item);
    // Each checkpoint holds a list with its own name last, so names that differ only in case cannot share one.
    for (const name of good) {
      await add(name);
      const saved = await send(fixture.admin.url, 'POST', '/api/checkpoints', { body: { name } });
      assert.deepEqual([saved.status, saved.body], [201, { name, services: ['posts', 'list'] }]);
    }
    const listed = (await send(fixture.admin.url, 'GET', '/api/checkpoints')).body as {
      checkpoints: { name: string; bytes: number }[];
    };
    assert.deepEqual(listed.checkpoints.map((c) => c.name).sort(), [...good].sort());
    for (const c of listed.checkpoints) assert.ok(c.bytes > 0, `${c.name}: ${c.bytes} bytes`);
    for (const [i, name] of good.entries()) {
      const restored = await send(fixture.admin.url, 'POST', `/api/checkpoints/${name}/restore`, {
        body: {},
      });
      assert.deepEqual(
        [restored.status, restored.body],
        [200, { restored: name, services: ['posts', 'list'] }],
      );
      assert.deepEqual(await items(), ['bread', 'grapes', ...good.slice(0, i + 1)], name);
    }
    for (const name of good) {
      const removed = await send(fixture.admin.url, 'DELETE', `/api/checkpoints/${name}`);
      assert.equal(removed.status, 204, name);
    }
    assert.deepEqual((await send(fixture.admin.url, 'GET', '/api/checkpoints')).body, { checkpoints: [] });
  });
});

test('an ADMIN_TOKEN the Bearer header cannot carry is refused at startup, naming the variable', () => {
  for (const token of ['has space', 'quote"d', 'ünïcode', 'semi;colon']) {
    assert.throws(() => globalSettings({ ADMIN_TOKEN: token }), {
      name: 'ConfigError',
      message: 'ADMIN_TOKEN: use letters, digits and - . _ ~ + / only (it is sent as a Bearer token)',
    });
  }
  assert.equal(globalSettings({ ADMIN_TOKEN: 'a-Z_0.9~+/x==' }).admin.token, 'a-Z_0.9~+/x==');
});

describe('the banner', () => {
  test('never prints an ADMIN_TOKEN the operator set', async (t) => {
    const fixture = await startAdminFixture();
    const token = 'operator-secret-admin-token';
    const global = globalSettings({ ADMIN_TOKEN: token, ADMIN_PORT: '0', BACKLOT_DATA_DIR: fixture.dataDir });
    const served = await serveAdmin(fixture.backlot, global, pino({ level: 'silent' }));
    t.after(async () => {
      await served.admin?.close();
      await fixture.close();
    });
    assert.deepEqual(served.banner, [
      `  admin      ${served.admin!.url}  (page and API; calls need the ADMIN_TOKEN you set)`,
    ]);
    const answer = await send(served.admin!.url, 'GET', '/api/services', {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(answer.status, 200);
  });
  test('shows a generated token once, in the admin link', {
    skip: !externalAddress() && 'no address off loopback',
  }, async (t) => {
    const fixture = await startAdminFixture();
    const host = externalAddress()!;
    const global = globalSettings({ ADMIN_HOST: host, ADMIN_PORT: '0', BACKLOT_DATA_DIR: fixture.dataDir });
    const served = await serveAdmin(fixture.backlot, global, pino({ level: 'silent' }));
    t.after(async () => {
      await served.admin?.close();
      await fixture.close();
    });
    const { url, token } = served.admin!;
    assert.match(token ?? '', /^[0-9a-f]{48}$/);
    assert.deepEqual(served.banner, [
      `  admin      ${url}#token=${token}  (page and API; keep this link, it holds the admin token)`,
    ]);
  });
});
