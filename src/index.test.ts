import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { harnessEnv } from '../test/harness.js';
import { start } from './index.js';
import { sampleEmployees } from './services/employees/seed.js';

// The programmatic API from node:test: free ports, a temporary data directory, instances that share nothing.

const addItem = async (url: string, item: string) => {
  const res = await fetch(`${url}/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ item }),
  });
  assert.equal(res.status, 201);
  return res.json();
};
type Item = { id: number; item: string };
const items = async (url: string) => (await (await fetch(`${url}/list`)).json()) as Item[];

test('start() serves the chosen services on free loopback ports and removes its data on close', async () => {
  const b = await start({ services: ['posts', 'list'] });
  assert.deepEqual(Object.keys(b.services), ['list', 'posts']);
  assert.match(b.url('posts'), /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.notEqual(b.url('posts'), b.url('list'));
  assert.equal(b.services.list?.docsUrl, `${b.url('list')}/docs`);
  assert.deepEqual(b.services.posts?.credentials, {});
  const post = await fetch(`${b.url('posts')}/posts/1`);
  assert.equal(post.status, 200);
  assert.equal(((await post.json()) as { id: number }).id, 1);
  // No 1500 ms list delay under test unless asked for (LIST_DELAY_MS in `env`); the seed is json-server's.
  assert.deepEqual(await items(b.url('list')), [
    { id: 1, item: 'bread' },
    { id: 2, item: 'grapes' },
  ]);
  assert.throws(() => b.url('employees'), /service "employees" was not started \(started: list, posts\)/);
  assert.ok(existsSync(path.join(b.dataDir, 'list.json')));
  await b.close();
  await b.close();
  assert.equal(existsSync(b.dataDir), false);
  await assert.rejects(fetch(`${b.url('posts')}/posts/1`));
});

test('two instances in one process share no state and have their own credentials', async () => {
  const [one, two] = await Promise.all([
    start({ services: ['list', 'employees'], env: await harnessEnv() }),
    start({ services: ['list', 'employees'], env: await harnessEnv() }),
  ]);
  after(() => Promise.all([one.close(), two.close()]));
  assert.notEqual(one.dataDir, two.dataDir);
  await addItem(one.url('list'), 'milk');
  assert.equal((await items(one.url('list'))).length, 3);
  assert.equal((await items(two.url('list'))).length, 2);
  const a = one.services.employees!.credentials;
  const b = two.services.employees!.credentials;
  assert.equal(a.username, 'admin');
  assert.match(a.password ?? '', /^[0-9a-f]{24}$/);
  assert.notEqual(a.password, b.password);
  const auth = `Basic ${Buffer.from(`admin:${a.password}`).toString('base64')}`;
  const created = await fetch(`${one.url('employees')}/api/2/create`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Only in one', age: 40 }),
  });
  assert.equal(created.status, 201);
  // The other instance does not know this password, nor the record.
  const other = await fetch(`${two.url('employees')}/api/2/create`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'x', age: 1 }),
  });
  assert.equal(other.status, 401);
  const count = async (url: string) =>
    ((await (await fetch(`${url}/api/2/employees`)).json()) as { data: unknown[] }).data.length;
  assert.equal(await count(one.url('employees')), sampleEmployees.length + 1);
  assert.equal(await count(two.url('employees')), sampleEmployees.length);
});

test('a given data directory is kept: its credentials, data and checkpoints are there at the next start', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-api-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = await harnessEnv();
  const first = await start({ services: ['list', 'machines'], dataDir, env });
  const token = first.services.machines!.credentials.token;
  assert.match(token ?? '', /^dop_v1_[0-9a-f]{64}$/);
  await addItem(first.url('list'), 'milk');
  await first.checkpoint('with-milk');
  await addItem(first.url('list'), 'eggs');
  await first.close();
  assert.ok(existsSync(path.join(dataDir, 'list.json')));

  const again = await start({ services: ['list', 'machines'], dataDir, env });
  try {
    assert.equal(again.services.machines!.credentials.token, token);
    assert.equal((await items(again.url('list'))).length, 4);
    assert.deepEqual(await again.checkpoints(), ['with-milk']);
    await again.restore('with-milk');
    assert.deepEqual(
      (await items(again.url('list'))).map((i) => i.item),
      ['bread', 'grapes', 'milk'],
    );
    // Reset goes back to the first start, not to this one.
    await again.reset();
    assert.equal((await items(again.url('list'))).length, 2);
    const machines = await fetch(`${again.url('machines')}/v2/machines`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(machines.status, 200);
  } finally {
    await again.close();
  }
  assert.ok(existsSync(dataDir));
});

test('an unknown service or a bad setting is refused', async () => {
  await assert.rejects(start({ services: ['nope' as 'posts'] }), {
    message: 'unknown service "nope" (valid: profiles, things, list, employees, posts, machines, content)',
  });
  await assert.rejects(start({ services: ['list'], env: { LIST_DELAY_MS: 'soon' } }), /LIST_DELAY_MS/);
});

test('faults change while running, from code and through the admin API of start({ admin: true })', async () => {
  const backlot = await start({ services: ['list', 'posts'], admin: true, env: await harnessEnv() });
  after(() => backlot.close());
  const list = () => fetch(`${backlot.url('list')}/list`);
  assert.deepEqual(backlot.setFaults('list', { errorRate: 1, errorStatus: '502' }), {
    delayMs: '0',
    errorRate: 1,
    errorStatus: 502,
  });
  const failed = await list();
  assert.deepEqual(
    [failed.status, await failed.json()],
    [502, { error: 'Injected fault: status 502 (the error rate setting)' }],
  );
  assert.deepEqual(
    backlot.requests('list').map((e) => [e.status, e.fault]),
    [[502, 'status 502 (setting)']],
  );
  // The admin API changes the same rule.
  const admin = backlot.admin?.url as string;
  const put = await fetch(`${admin}api/services/list/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ errorRate: 0 }),
  });
  assert.equal(put.status, 200);
  assert.deepEqual(backlot.faults('list'), { delayMs: '0', errorRate: 0, errorStatus: 502 });
  assert.equal((await list()).status, 200);
  // A bad change changes nothing.
  assert.throws(() => backlot.setFaults('list', { errorRate: 2 }), {
    message: 'errorRate: must be a number from 0 to 1, got "2"',
  });
  assert.throws(() => backlot.setFaults('list', { delay: 5 } as never), {
    message: 'delay: unknown field (delayMs, errorRate, errorStatus)',
  });
  assert.throws(() => backlot.setFaults('content', {}), /service "content" was not started/);
  assert.deepEqual(backlot.faults('list'), { delayMs: '0', errorRate: 0, errorStatus: 502 });
  // The per-request headers, switched on from code.
  backlot.setFaultHeaders(true);
  const header = await fetch(`${backlot.url('posts')}/posts/1`, { headers: { 'x-backlot-status': '418' } });
  assert.equal(header.status, 418);
});
