import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { externalAddress, startAdminFixture } from '../../test/admin.js';

type Fixture = Awaited<ReturnType<typeof startAdminFixture>>;
const json = { 'content-type': 'application/json' };

const call = async (fixture: Fixture, method: string, path: string, body?: unknown, headers = {}) => {
  const response = await fetch(fixture.admin.url + path.slice(1), {
    method,
    headers: body === undefined ? headers : { ...json, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
};

/** A request with a Host header fetch() would not let us forge. */
const withHost = (url: string, host: string) =>
  new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${url}api/services`, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });

describe('the admin API on loopback', () => {
  let fixture: Fixture;
  before(async () => {
    fixture = await startAdminFixture();
  });
  after(() => fixture?.close());

  test('lists the running services with URLs, docs, banner lines (credentials), faults and journal settings', async () => {
    const { status, body } = await call(fixture, 'GET', '/api/services');
    assert.equal(status, 200);
    const posts = fixture.service('posts');
    const list = fixture.service('list');
    assert.deepEqual(body, {
      services: [
        {
          id: 'posts',
          url: posts.url,
          docsUrl: `${posts.url}/docs`,
          banner: posts.banner,
          faults: { delayMs: '0', errorRate: 0, errorStatus: 503 },
          journal: { size: 200, bodies: false },
        },
        {
          id: 'list',
          url: list.url,
          docsUrl: `${list.url}/docs`,
          banner: list.banner,
          faults: { delayMs: '0', errorRate: 0, errorStatus: 503 },
          journal: { size: 200, bodies: false },
        },
      ],
      faultHeaders: false,
      state: true,
      credentialsShown: true,
    });
    assert.match(list.banner[0], /^data file /);
  });

  test('journal: GET (all, or after a seq) and DELETE', async () => {
    const posts = fixture.service('posts');
    await fetch(`${posts.url}/posts/1`);
    await fetch(`${posts.url}/posts/2?_embed=comments`);
    const all = await call(fixture, 'GET', '/api/services/posts/requests');
    assert.deepEqual(
      all.body.entries.map((e: { path: string; query: object; status: number }) => [
        e.path,
        e.query,
        e.status,
      ]),
      [
        ['/posts/1', {}, 200],
        ['/posts/2', { _embed: 'comments' }, 200],
      ],
    );
    const first = all.body.entries[0].seq;
    const newer = await call(fixture, 'GET', `/api/services/posts/requests?after=${first}`);
    assert.deepEqual(
      newer.body.entries.map((e: { path: string }) => e.path),
      ['/posts/2'],
    );
    const cleared = await call(fixture, 'DELETE', '/api/services/posts/requests');
    assert.equal(cleared.status, 204);
    assert.deepEqual((await call(fixture, 'GET', '/api/services/posts/requests')).body, { entries: [] });
    assert.deepEqual(await call(fixture, 'GET', '/api/services/machines/requests'), {
      status: 404,
      headers: (await call(fixture, 'GET', '/api/services/machines/requests')).headers,
      body: { error: 'no running service "machines" (running: posts, list)' },
    });
    assert.equal((await call(fixture, 'GET', '/api/services/posts/requests?after=x')).status, 400);
  });

  test('faults: GET and PUT per service, applied to the next request; bad values are 400 with the reason', async () => {
    const posts = fixture.service('posts');
    const put = await call(fixture, 'PUT', '/api/services/posts/faults', { errorRate: 1, errorStatus: 418 });
    assert.deepEqual(put, {
      status: 200,
      headers: put.headers,
      body: { delayMs: '0', errorRate: 1, errorStatus: 418 },
    });
    const failed = await fetch(`${posts.url}/posts/1`);
    assert.equal(failed.status, 418);
    assert.equal(await failed.text(), '{}');
    const slow = await call(fixture, 'PUT', '/api/services/posts/faults', {
      errorRate: 0,
      delayMs: '100-200',
    });
    assert.deepEqual(slow.body, { delayMs: '100-200', errorRate: 0, errorStatus: 418 });
    const began = performance.now();
    assert.equal((await fetch(`${posts.url}/posts/1`)).status, 200);
    assert.ok(performance.now() - began >= 100);
    assert.deepEqual((await call(fixture, 'GET', '/api/services/posts/faults')).body, slow.body);

    const bad = await call(fixture, 'PUT', '/api/services/posts/faults', { errorRate: 3 });
    assert.deepEqual(
      [bad.status, bad.body],
      [400, { error: 'errorRate: must be a number from 0 to 1, got "3"' }],
    );
    const unknown = await call(fixture, 'PUT', '/api/services/posts/faults', { delay: 5 });
    assert.deepEqual(
      [unknown.status, unknown.body],
      [400, { error: 'delay: unknown field (delayMs, errorRate, errorStatus)' }],
    );
    const notObject = await call(fixture, 'PUT', '/api/services/posts/faults', [1]);
    assert.equal(notObject.status, 400);
    await call(fixture, 'PUT', '/api/services/posts/faults', { delayMs: 0 });
  });

  test('the header switch turns X-Backlot-* on for every service', async () => {
    const list = fixture.service('list');
    assert.equal((await fetch(`${list.url}/list`, { headers: { 'x-backlot-status': '500' } })).status, 200);
    assert.deepEqual((await call(fixture, 'PUT', '/api/fault-headers', { enabled: true })).body, {
      enabled: true,
    });
    const failed = await fetch(`${list.url}/list`, { headers: { 'x-backlot-status': '500' } });
    assert.equal(failed.status, 500);
    assert.deepEqual(await failed.json(), { error: 'Injected fault: status 500 (X-Backlot-Status)' });
    assert.equal((await call(fixture, 'PUT', '/api/fault-headers', { enabled: 'yes' })).status, 400);
    assert.deepEqual((await call(fixture, 'PUT', '/api/fault-headers', { enabled: false })).body, {
      enabled: false,
    });
    assert.deepEqual((await call(fixture, 'GET', '/api/fault-headers')).body, { enabled: false });
  });

  test('reset, checkpoint and restore call the StateControl with the services asked for', async () => {
    const { state } = fixture;
    state.values.set('posts', 5);
    state.values.set('list', 7);
    const saved = await call(fixture, 'POST', '/api/checkpoints', { name: 'before-test' });
    assert.deepEqual([saved.status, saved.body], [201, { name: 'before-test', services: ['posts', 'list'] }]);
    assert.deepEqual((await call(fixture, 'GET', '/api/checkpoints')).body, {
      checkpoints: [{ name: 'before-test', bytes: 2 }],
    });
    const reset = await call(fixture, 'POST', '/api/reset', { services: ['list'] });
    assert.deepEqual(reset.body, { reset: ['list'] });
    assert.deepEqual(
      [...state.values],
      [
        ['posts', 5],
        ['list', 0],
      ],
    );
    const restored = await call(fixture, 'POST', '/api/checkpoints/before-test/restore', {});
    assert.deepEqual(restored.body, { restored: 'before-test', services: ['posts', 'list'] });
    assert.deepEqual(
      [...state.values],
      [
        ['posts', 5],
        ['list', 7],
      ],
    );
    assert.deepEqual(state.calls, [
      'checkpoint before-test posts,list',
      'reset list',
      'restore before-test posts,list',
    ]);

    assert.equal((await call(fixture, 'POST', '/api/checkpoints/nope/restore', {})).status, 404);
    assert.equal((await call(fixture, 'POST', '/api/checkpoints', { name: '../x' })).status, 400);
    const unknown = await call(fixture, 'POST', '/api/reset', { services: ['machines'] });
    assert.equal(unknown.status, 404);
    // The state says which checkpoints exist; a bad name or an unknown service never reaches it.
    assert.deepEqual(state.calls.slice(3), ['restore nope posts,list']);
  });

  test('refuses other sites: a foreign Host (DNS rebinding) and a foreign Origin on writes', async () => {
    assert.equal(await withHost(fixture.admin.url, 'evil.example'), 403);
    assert.equal(await withHost(fixture.admin.url, `localhost:${new URL(fixture.admin.url).port}`), 200);
    const csrf = await call(fixture, 'POST', '/api/reset', {}, { origin: 'https://evil.example' });
    assert.deepEqual(
      [csrf.status, csrf.body],
      [403, { error: 'origin https://evil.example may not use the admin API' }],
    );
    assert.equal(fixture.state.calls.includes('reset posts,list'), false);
  });

  test('the page and its assets are served with a strict CSP', async () => {
    const page = await fetch(fixture.admin.url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(await page.text(), /<script src="\/admin-page\.js" defer><\/script>/);
    assert.equal((await fetch(`${fixture.admin.url}admin-page.js`)).status, 200);
    assert.equal((await fetch(`${fixture.admin.url}admin-page.css`)).status, 200);
  });
});

test('without a StateControl, reset and checkpoints answer 501', async () => {
  const fixture = await startAdminFixture({ state: undefined });
  try {
    const reset = await call(fixture, 'POST', '/api/reset', {});
    assert.deepEqual(
      [reset.status, reset.body],
      [501, { error: 'reset and checkpoints are not available in this process' }],
    );
    assert.equal((await call(fixture, 'GET', '/api/services')).body.state, false);
  } finally {
    await fixture.close();
  }
});

test('ADMIN_TOKEN, when set, is required on every API call (the page itself is public)', async () => {
  const fixture = await startAdminFixture({ token: 'let-me-in' });
  try {
    const refused = await call(fixture, 'GET', '/api/services');
    assert.deepEqual(
      [refused.status, refused.body],
      [401, { error: 'the admin API needs Authorization: Bearer <ADMIN_TOKEN>' }],
    );
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="backlot admin"');
    assert.equal(
      (await call(fixture, 'GET', '/api/services', undefined, { authorization: 'Bearer wrong' })).status,
      401,
    );
    assert.equal(
      (await call(fixture, 'GET', '/api/services', undefined, { authorization: 'Bearer let-me-in' })).status,
      200,
    );
    assert.equal((await fetch(fixture.admin.url)).status, 200);
  } finally {
    await fixture.close();
  }
});

const external = externalAddress();
test('off loopback, a token is generated and required, and credentials are not shown', {
  skip: !external && 'no network interface besides loopback',
}, async () => {
  const fixture = await startAdminFixture({ host: external });
  try {
    const { token } = fixture.admin;
    assert.match(token ?? '', /^[0-9a-f]{48}$/);
    assert.equal(fixture.admin.url.startsWith(`http://${external}:`), true);
    assert.equal((await call(fixture, 'GET', '/api/services')).status, 401);
    const { status, body } = await call(fixture, 'GET', '/api/services', undefined, {
      authorization: `Bearer ${token}`,
    });
    assert.equal(status, 200);
    assert.equal(body.credentialsShown, false);
    assert.equal('banner' in body.services[0], false);
    assert.equal(body.services[0].url, fixture.service('posts').url);
  } finally {
    await fixture.close();
  }
});

test("reset and checkpoints through the admin API change the services' real data", async () => {
  const fixture = await startAdminFixture({}, {}, true);
  after(() => fixture.close());
  await fixture.backlot.seeded;
  const list = `${fixture.service('list').url}/list`;
  const items = async () => ((await (await fetch(list)).json()) as { item: string }[]).map((i) => i.item);
  const add = (item: string) =>
    fetch(list, { method: 'POST', headers: json, body: JSON.stringify({ item }) }).then((r) => r.status);

  assert.equal(await add('milk'), 201);
  assert.equal((await call(fixture, 'POST', '/api/checkpoints', { name: 'with-milk' })).status, 201);
  assert.equal(await add('eggs'), 201);
  assert.deepEqual(await items(), ['bread', 'grapes', 'milk', 'eggs']);
  // Its size is what it keeps on disk: the list's file, the completion marker and the name.
  const folder = path.join(fixture.dataDir, 'checkpoints', 'with-milk');
  const bytes = ['name', 'list/list.json', 'list/complete']
    .map((file) => statSync(path.join(folder, file)).size)
    .reduce((a, b) => a + b);
  assert.deepEqual((await call(fixture, 'GET', '/api/checkpoints')).body, {
    checkpoints: [{ name: 'with-milk', bytes }],
  });

  const restored = await call(fixture, 'POST', '/api/checkpoints/with-milk/restore', {});
  assert.equal(restored.status, 200);
  assert.deepEqual(await items(), ['bread', 'grapes', 'milk']);
  assert.equal(await add('tea'), 201);
  assert.equal(((await (await fetch(`${list}/4`)).json()) as { item: string }).item, 'tea');

  assert.equal((await call(fixture, 'POST', '/api/reset', { services: ['list'] })).status, 200);
  assert.deepEqual(await items(), ['bread', 'grapes']);

  const deleted = await call(fixture, 'DELETE', '/api/checkpoints/with-milk');
  assert.deepEqual([deleted.status, deleted.body], [204, undefined]);
  assert.equal(existsSync(folder), false);
  assert.deepEqual((await call(fixture, 'GET', '/api/checkpoints')).body, { checkpoints: [] });
  const again = await call(fixture, 'DELETE', '/api/checkpoints/with-milk');
  assert.deepEqual([again.status, again.body], [404, { error: 'no checkpoint named "with-milk"' }]);
  const gone = await call(fixture, 'POST', '/api/checkpoints/with-milk/restore', {});
  assert.deepEqual([gone.status, gone.body], [404, { error: 'no checkpoint named "with-milk"' }]);
  assert.deepEqual(await items(), ['bread', 'grapes']);
});
