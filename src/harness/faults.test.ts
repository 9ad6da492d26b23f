import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../../test/service.js';
import { parseDelay } from '../config.js';
import type { ServiceDefinition } from '../platform/service.js';
import { content } from '../services/content/index.js';
import { employees } from '../services/employees/index.js';
import { list } from '../services/list/index.js';
import { machines } from '../services/machines/index.js';
import { posts } from '../services/posts/index.js';
import { profiles } from '../services/profiles/index.js';
import { things } from '../services/things/index.js';
import { FaultHeaders, faultRuleFromEnv, noFaults, ruleFromJson, ServiceFaults } from './faults.js';

// Every assertion on time is a lower bound: a busy machine can only make answers later, never earlier.

const token = `dop_v1_${'a'.repeat(64)}`;
const json = { 'content-type': 'application/json' };

/** One API request per service, and the body each answers an injected 503 with (its own error shape). */
const cases: {
  service: ServiceDefinition<any>;
  path: string;
  init?: RequestInit;
  /** Its answer when no fault applies. */
  status: number;
  injected: (message: string, requestId: string) => unknown;
}[] = [
  {
    service: profiles,
    path: '/query',
    init: { method: 'POST', headers: json, body: JSON.stringify({ query: '{ users { id } }' }) },
    status: 200,
    injected: (message) => ({ data: null, errors: [{ message }] }),
  },
  {
    service: things,
    path: '/things',
    status: 401,
    injected: (message) => ({ code: 'unavailable', description: message }),
  },
  { service: list, path: '/list', status: 200, injected: (message) => ({ error: message }) },
  {
    service: employees,
    path: '/api/2/employees',
    status: 200,
    injected: (message) => ({ status: 'error', data: null, message }),
  },
  { service: posts, path: '/posts/1', status: 200, injected: () => ({}) },
  {
    service: machines,
    path: '/v2/machines',
    status: 401,
    // DigitalOcean's 5xx bodies carry the request id.
    injected: (message, requestId) => ({ id: 'service_unavailable', message, request_id: requestId }),
  },
  {
    service: content,
    path: '/wp-json/wp/v2/posts',
    status: 200,
    injected: (message) => ({ code: 'rest_unavailable', message, data: { status: 503 } }),
  },
];

const timed = async (url: string, init?: RequestInit) => {
  const began = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  return { response, body, ms: performance.now() - began };
};

describe('per-request headers, on every service', () => {
  const running: TestService[] = [];
  before(async () => {
    const env = { BACKLOT_FAULT_HEADERS: '1', LIST_DELAY_MS: '0', LOG_LEVEL: 'warn' };
    for (const c of cases) running.push(await startTestService(c.service, { listen: true, env }));
  });
  after(() => Promise.all(running.map((s) => s.close())));

  for (const [index, c] of cases.entries()) {
    test(`${c.service.id}: X-Backlot-Status answers in its error shape, X-Backlot-Delay delays`, async () => {
      const { url, harness } = running[index];
      const plain = await timed(url + c.path, c.init);
      assert.equal(plain.response.status, c.status, plain.body);

      const headers = { ...(c.init?.headers as object), 'x-backlot-status': '503' };
      const failed = await timed(url + c.path, { ...c.init, headers });
      assert.equal(failed.response.status, 503);
      assert.equal(failed.response.headers.get('x-backlot-fault'), 'status 503');
      assert.ok(failed.response.headers.get('x-request-id'));
      assert.deepEqual(
        JSON.parse(failed.body),
        c.injected(
          'Injected fault: status 503 (X-Backlot-Status)',
          failed.response.headers.get('x-request-id')!,
        ),
      );

      const slow = await timed(url + c.path, {
        ...c.init,
        headers: { ...(c.init?.headers as object), 'x-backlot-delay': '300' },
      });
      assert.equal(slow.response.status, c.status);
      assert.ok(slow.ms >= 300, `answered after ${slow.ms} ms`);

      const seen = harness.journal.list().slice(-3);
      assert.deepEqual(
        seen.map((e) => [e.method, e.path, e.status, e.fault]),
        [
          [c.init?.method ?? 'GET', c.path, c.status, undefined],
          [c.init?.method ?? 'GET', c.path, 503, 'status 503 (header)'],
          [c.init?.method ?? 'GET', c.path, c.status, 'delay 300 ms (header)'],
        ],
      );
      assert.ok(seen[2].durationMs >= 300);
    });
  }

  test('a malformed header is a 400 in the service shape; health and docs are never faulted', async () => {
    const { url } = running[cases.findIndex((c) => c.service === list)];
    const bad = await fetch(`${url}/list`, { headers: { 'x-backlot-status': '200' } });
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), {
      error: 'X-Backlot-Status: must be a status from 400 to 599, got "200"',
    });
    const badDelay = await fetch(`${url}/list`, { headers: { 'x-backlot-delay': 'soon' } });
    assert.equal(badDelay.status, 400);
    for (const path of ['/healthz', '/readyz', '/docs/json', '/openapi.json', '/']) {
      const response = await fetch(url + path, { headers: { 'x-backlot-status': '500' } });
      assert.equal(response.status, 200, path);
    }
  });
});

describe('settings and rules', () => {
  test('the headers are ignored unless enabled', async () => {
    const service = await startTestService(posts, { listen: true });
    try {
      const response = await fetch(`${service.url}/posts/1`, { headers: { 'x-backlot-status': '500' } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-backlot-fault'), null);
      service.harness.faults.headers.enabled = true;
      const now = await fetch(`${service.url}/posts/1`, { headers: { 'x-backlot-status': '500' } });
      assert.equal(now.status, 500);
    } finally {
      await service.close();
    }
  });

  test('<ID>_ERROR_RATE=1 fails every API request with <ID>_ERROR_STATUS; a delay range delays at least its low end', async () => {
    const env = { POSTS_ERROR_RATE: '1', POSTS_ERROR_STATUS: '502', POSTS_DELAY_MS: '150-250' };
    const service = await startTestService(posts, { listen: true, env });
    try {
      for (let i = 0; i < 3; i++) {
        const { response, body, ms } = await timed(`${service.url}/posts?_limit=1`);
        assert.equal(response.status, 502);
        assert.equal(body, '{}');
        assert.ok(ms >= 150, `answered after ${ms} ms`);
      }
      assert.equal((await fetch(`${service.url}/healthz`)).status, 200);
      service.harness.faults.rule = ruleFromJson({ errorRate: 0, delayMs: 0 }, service.harness.faults.rule);
      assert.equal((await fetch(`${service.url}/posts?_limit=1`)).status, 200);
    } finally {
      await service.close();
    }
  });

  test("posts' fast path (request logging off) is delayed, failed and journalled like any route", async () => {
    const env = { LOG_LEVEL: 'warn', BACKLOT_FAULT_HEADERS: 'true', POSTS_DELAY_MS: '200' };
    const service = await startTestService(posts, { listen: true, env });
    try {
      const slow = await timed(`${service.url}/posts`);
      assert.equal(slow.response.status, 200);
      assert.ok(slow.ms >= 200, `answered after ${slow.ms} ms`);
      assert.equal(JSON.parse(slow.body).length, 100);
      const failed = await timed(`${service.url}/posts`, { headers: { 'x-backlot-status': '429' } });
      assert.equal(failed.response.status, 429);
      assert.equal(failed.body, '{}');
      assert.ok(failed.ms >= 200);
      const seen = service.harness.journal.list();
      assert.deepEqual(
        seen.map((e) => [e.path, e.status, e.fault]),
        [
          ['/posts', 200, 'delay 200 ms (setting)'],
          ['/posts', 429, 'delay 200 ms, status 429 (header)'],
        ],
      );
      assert.equal(seen[0].requestId, slow.response.headers.get('x-request-id'));
      assert.ok(seen[0].durationMs >= 200 && seen[1].durationMs >= 200);
    } finally {
      await service.close();
    }
  });

  test('injected errors are not counted by the machines rate limit nor the things login limit', async () => {
    const env = {
      BACKLOT_FAULT_HEADERS: '1',
      MACHINES_TOKENS: token,
      MACHINES_RATE_LIMIT_PER_MINUTE: '2',
      THINGS_LOGIN_RATE_LIMIT: '2',
    };
    const machinesService = await startTestService(machines, { listen: true, env });
    const thingsService = await startTestService(things, { listen: true, env });
    try {
      const auth = { authorization: `Bearer ${token}` };
      for (let i = 0; i < 5; i++) {
        const r = await fetch(`${machinesService.url}/v2/machines`, {
          headers: { ...auth, 'x-backlot-status': '500' },
        });
        assert.equal(r.status, 500);
      }
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await fetch(`${machinesService.url}/v2/machines`, { headers: auth })).status);
      assert.deepEqual(statuses, [200, 200, 429]);

      const login = (headers: Record<string, string> = {}) =>
        fetch(`${thingsService.url}/login`, {
          method: 'POST',
          headers: { ...json, ...headers },
          body: JSON.stringify({ username: 'nobody', password: 'wrong-password' }),
        }).then((r) => r.status);
      for (let i = 0; i < 5; i++) assert.equal(await login({ 'x-backlot-status': '503' }), 503);
      assert.deepEqual([await login(), await login(), await login()], [401, 401, 429]);
    } finally {
      await machinesService.close();
      await thingsService.close();
    }
  });

  test('settings are validated with messages that name the variable', () => {
    assert.deepEqual(faultRuleFromEnv({}, 'posts'), {
      delay: { min: 0, max: 0 },
      errorRate: 0,
      errorStatus: 503,
    });
    assert.deepEqual(faultRuleFromEnv({}, 'list', 1500).delay, { min: 1500, max: 1500 });
    assert.deepEqual(faultRuleFromEnv({ LIST_DELAY_MS: '10-20', LIST_ERROR_RATE: '0.25' }, 'list', 1500), {
      delay: { min: 10, max: 20 },
      errorRate: 0.25,
      errorStatus: 503,
    });
    assert.throws(
      () => faultRuleFromEnv({ POSTS_ERROR_RATE: '2' }, 'posts'),
      /POSTS_ERROR_RATE: must be a number from 0 to 1/,
    );
    assert.throws(() => faultRuleFromEnv({ POSTS_ERROR_STATUS: '302' }, 'posts'), /POSTS_ERROR_STATUS/);
    assert.throws(() => faultRuleFromEnv({ POSTS_DELAY_MS: '9-3' }, 'posts'), /POSTS_DELAY_MS/);
    assert.throws(() => parseDelay('700000', 'X'), /X: must be milliseconds/);
  });
});

test("a service's delay parameter (list's _delay) adds to the setting's delay and to X-Backlot-Delay", () => {
  const request = (url: string, headers: Record<string, string> = {}) =>
    ({ url, headers }) as IncomingMessage;
  const idle = new ServiceFaults(noFaults);
  idle.delayParam = '_delay';
  assert.equal(idle.idle('/list?_sort=id'), true);
  assert.equal(idle.idle('/list?_delay=5'), false);
  assert.deepEqual(idle.decide(request('/list?x=1&_delay=12.6')), {
    delayMs: 13,
    status: undefined,
    source: 'query',
  });

  const faults = new ServiceFaults({ ...noFaults, delay: { min: 100, max: 100 } }, new FaultHeaders(true));
  faults.delayParam = '_delay';
  assert.deepEqual(faults.decide(request('/list?_delay=250&_delay=9')), {
    delayMs: 350,
    status: undefined,
    source: 'query',
  });
  assert.equal(faults.decide(request('/list?_delay=250', { 'x-backlot-delay': '1000' })).delayMs, 1250);
  assert.equal(faults.decide(request('/list?_delay=abc')).delayMs, 100);
  assert.equal(faults.decide(request('/list?_delay=-40')).delayMs, 100);
  assert.deepEqual(faults.decide(request('/list?_delay=600001')), {
    delayMs: 0,
    source: 'query',
    invalid: '_delay: must be at most 600000 ms, got "600001"',
  });
  const without = new ServiceFaults(noFaults);
  assert.equal(without.idle('/list?_delay=5'), true);
});
