import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import pino from 'pino';
import { startTestService } from '../../test/service.js';
import { globalSettings } from '../config.js';
import { redactValue } from '../platform/redaction.js';
import { planServices, startBacklot } from '../server.js';
import { findService } from '../services/index.js';
import { list } from '../services/list/index.js';
import { things } from '../services/things/index.js';

const json = { 'content-type': 'application/json' };

test('with bodies on, the journal shows what arrived and what was answered, secrets redacted', async () => {
  const service = await startTestService(things, { listen: true, env: { BACKLOT_JOURNAL_BODIES: '1' } });
  try {
    const credentials = JSON.stringify({ username: 'ada', password: 'correct-horse-battery' });
    const signup = await fetch(`${service.url}/signup`, { method: 'POST', headers: json, body: credentials });
    assert.equal(signup.status, 200);
    const login = await fetch(`${service.url}/login`, { method: 'POST', headers: json, body: credentials });
    const { secret } = (await login.json()) as { secret: string };
    const listed = await fetch(`${service.url}/things?token=abc&color=red&color=blue`, {
      headers: { 'db-user-secret': secret, cookie: 'session=1', 'x-request-id': 'trace-42' },
    });
    assert.equal(listed.status, 200);
    const answered = await listed.json();
    await fetch(`${service.url}/healthz`);

    const entries = service.harness.journal.list();
    assert.deepEqual(
      entries.map((e) => [e.seq, e.method, e.path, e.status]),
      [
        [1, 'POST', '/signup', 200],
        [2, 'POST', '/login', 200],
        [3, 'GET', '/things', 200],
      ],
      'health checks are not journalled',
    );
    const [first, second, third] = entries;
    assert.deepEqual(first.requestBody, { username: 'ada', password: '[redacted]' });
    assert.equal(first.requestId, signup.headers.get('x-request-id'));
    assert.match(first.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(first.durationMs >= 0);
    assert.deepEqual(second.responseBody, { secret: '[redacted]' });
    assert.deepEqual(third.query, { token: '[redacted]', color: ['red', 'blue'] });
    assert.equal(third.headers['db-user-secret'], '[redacted]');
    assert.equal(third.headers.cookie, '[redacted]');
    assert.equal(third.requestId, 'trace-42');
    assert.deepEqual(third.responseBody, answered);
    // Nothing secret is anywhere in the journal.
    const text = JSON.stringify(entries);
    assert.ok(!text.includes(secret) && !text.includes('correct-horse-battery'));
  } finally {
    await service.close();
  }
});

test('bodies are kept only when enabled; the journal keeps the last BACKLOT_JOURNAL_SIZE requests; clear empties it', async () => {
  const env = { BACKLOT_JOURNAL_SIZE: '3', LIST_DELAY_MS: '0' };
  const service = await startTestService(list, { listen: true, env });
  try {
    for (const item of ['a', 'b', 'c', 'd', 'e']) {
      const r = await fetch(`${service.url}/list`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ item }),
      });
      assert.equal(r.status, 201);
    }
    const { journal } = service.harness;
    assert.deepEqual(
      journal.list().map((e) => e.seq),
      [3, 4, 5],
    );
    assert.deepEqual(
      journal.list(4).map((e) => e.seq),
      [5],
    );
    assert.equal('requestBody' in journal.list()[0], false);
    assert.equal('responseBody' in journal.list()[0], false);
    journal.clear();
    assert.deepEqual(journal.list(), []);
    await fetch(`${service.url}/list/1`);
    assert.deepEqual(
      journal.list().map((e) => [e.seq, e.path, e.status]),
      [[6, '/list/1', 200]],
    );
  } finally {
    await service.close();
  }
});

test('the server object gives each service its own journal: journal.list(id) and journal.clear(id)', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-journal-'));
  const env = {
    BACKLOT_DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LIST_PORT: '0',
    POSTS_PORT: '0',
    LIST_DELAY_MS: '0',
  };
  const global = globalSettings(env);
  const plans = planServices([findService('list')!, findService('posts')!], env, global);
  const backlot = await startBacklot(plans, global, pino({ level: 'silent' }));
  try {
    const [listUrl, postsUrl] = backlot.services.map((s) => s.url);
    assert.equal((await fetch(`${postsUrl}/posts/1`)).status, 200);
    assert.equal((await fetch(`${listUrl}/nothing`)).status, 404);
    // Answered by posts' fast path, without faults: too fast to show a duration (docs/testing.md).
    assert.deepEqual(
      backlot.journal.list('posts').map((e) => [e.path, e.status, e.durationMs]),
      [['/posts/1', 200, 0]],
    );
    assert.deepEqual(
      backlot.journal.list('list').map((e) => [e.path, e.status]),
      [['/nothing', 404]],
    );
    backlot.journal.clear('posts');
    assert.deepEqual(backlot.journal.list('posts'), []);
    assert.equal(backlot.journal.list('list').length, 1);
    assert.throws(() => backlot.journal.list('machines'), /service "machines" is not running/);
  } finally {
    await backlot.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('redaction covers nested fields and arrays, and describes what is not JSON', () => {
  assert.deepEqual(
    redactValue({ user: { name: 'x', newPassword: 'p', api_key: 'k' }, list: [{ token: 't' }], n: 1 }),
    {
      user: { name: 'x', newPassword: '[redacted]', api_key: '[redacted]' },
      list: [{ token: '[redacted]' }],
      n: 1,
    },
  );
  assert.equal(redactValue(Buffer.from('abc')), '[3 bytes]');
});
