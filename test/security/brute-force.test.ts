import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { globalSettings } from '../../src/config.js';
import type { ServiceId } from '../../src/platform/service.js';
import { testClock } from '../clock.js';
import { basic, contentAppPassword, credentials, editorPassword, startSecured } from './fixtures.js';

/** One protected request per service: a wrong credential, the right one, and how each service says 429. */
const cases: Array<{
  id: ServiceId;
  url: string;
  wrong: string;
  right: string;
  tooMany: (body: Record<string, unknown>) => boolean;
}> = [
  {
    id: 'employees',
    url: '/api/2/employee/1',
    wrong: basic('ed', 'guess'),
    right: basic('ed', editorPassword),
    tooMany: (b) => b.status === 'error' && /Too many failed logins/.test(String(b.message)),
  },
  {
    id: 'content',
    url: '/wp-json/wp/v2/users/me',
    wrong: basic('admin', 'aaaaBBBBccccDDDDeeeeFFFF'),
    right: basic('admin', contentAppPassword),
    tooMany: (b) => b.code === 'rest_too_many_requests' && (b.data as { status: number }).status === 429,
  },
  {
    id: 'machines',
    url: '/v2/regions',
    wrong: `Bearer dop_v1_${'9f'.repeat(32)}`,
    right: credentials.machines?.authorization as string,
    tooMany: (b) => b.id === 'too_many_requests',
  },
];

describe('brute force: failed logins are limited per client address, in the database', () => {
  for (const { id, url, wrong, right, tooMany } of cases) {
    test(id, async () => {
      const clock = testClock();
      const service = await startSecured(id, {
        env: { LOGIN_FAILURE_LIMIT: '5', LOGIN_FAILURE_WINDOW: '60' },
        clock,
      });
      const send = (authorization: string, remoteAddress = '203.0.113.7') =>
        service.app.inject({ url, headers: { authorization }, remoteAddress });
      try {
        // The window starts at the first failure and lasts 60 seconds of the service's clock.
        assert.equal((await send(wrong)).statusCode, 401, 'guess 1');
        clock.advance(10_000);
        for (let i = 1; i < 5; i++) assert.equal((await send(wrong)).statusCode, 401, `guess ${i + 1}`);
        for (const authorization of [wrong, right]) {
          const refused = await send(authorization);
          assert.equal(refused.statusCode, 429, 'the sixth try is refused, even with the right credential');
          assert.equal(refused.headers['retry-after'], '50');
          assert.ok(tooMany(refused.json()), refused.body);
        }
        assert.equal((await send(right, '198.51.100.9')).statusCode, 200, 'another client is not affected');
        const { rows } = await service.db.query<{ failures: number }>(
          `SELECT failures FROM ${id}.login_failures WHERE client = '203.0.113.7'`,
        );
        assert.deepEqual(rows, [{ failures: 5 }]);
        clock.advance(49_500);
        const last = await send(wrong);
        assert.deepEqual(
          [last.statusCode, last.headers['retry-after']],
          [429, '1'],
          'half a second rounds up',
        );
        clock.advance(500);
        assert.equal(
          (await send(wrong)).statusCode,
          401,
          'the window is over: a wrong guess starts a new one',
        );
        assert.equal((await send(right)).statusCode, 200);
        const after = await service.db.query<{ failures: number }>(
          `SELECT failures FROM ${id}.login_failures WHERE client = '203.0.113.7'`,
        );
        assert.deepEqual(after.rows, [{ failures: 1 }]);
      } finally {
        await service.close();
      }
    });
  }
});

describe('parallel guesses: the check and the count are one step, so exactly the limit is ever verified', () => {
  for (const { id, url, wrong } of cases) {
    test(id, async () => {
      const service = await startSecured(id, {
        env: { LOGIN_FAILURE_LIMIT: '5', LOGIN_FAILURE_WINDOW: '60' },
      });
      try {
        const answers = await Promise.all(
          Array.from({ length: 30 }, () =>
            service.app.inject({ url, headers: { authorization: wrong }, remoteAddress: '203.0.113.7' }),
          ),
        );
        const codes = answers.map((a) => a.statusCode);
        assert.equal(codes.filter((c) => c === 401).length, 5, codes.join(' '));
        assert.equal(codes.filter((c) => c === 429).length, 25, codes.join(' '));
        const { rows } = await service.db.query<{ failures: number }>(
          `SELECT failures FROM ${id}.login_failures WHERE client = '203.0.113.7'`,
        );
        assert.deepEqual(rows, [{ failures: 5 }]);
      } finally {
        await service.close();
      }
    });
  }
});

describe('behind a proxy, the failed-login limit counts the address the configured proxies vouch for', () => {
  test('TRUST_PROXY=true, a hop count or a bad address stops startup, naming the accepted forms', () => {
    const forms =
      "list the proxies' addresses or CIDRs, or loopback, linklocal, uniquelocal, comma-separated (e.g. TRUST_PROXY=loopback,10.0.0.0/8)";
    for (const [value, message] of [
      ['true', `TRUST_PROXY: "true" would let any client choose its address; ${forms}`],
      ['1', `TRUST_PROXY: "1" is not valid; ${forms}`],
      ['10.0.0.0/33', `TRUST_PROXY: "10.0.0.0/33" is not valid; ${forms}`],
      ['proxy.internal', `TRUST_PROXY: "proxy.internal" is not valid; ${forms}`],
    ]) {
      assert.throws(() => globalSettings({ TRUST_PROXY: value }), { name: 'ConfigError', message });
    }
    assert.equal(
      globalSettings({ TRUST_PROXY: ' 10.0.0.1, fd00::/8 ,loopback' }).trustProxy,
      '10.0.0.1,fd00::/8,loopback',
    );
    assert.equal(globalSettings({}).trustProxy, false);
  });

  test('a client cannot choose its address; a trusted proxy names its clients', async () => {
    const service = await startSecured('machines', {
      env: { LOGIN_FAILURE_LIMIT: '2', TRUST_PROXY: '10.0.0.0/8' },
    });
    const wrong = `Bearer dop_v1_${'9f'.repeat(32)}`;
    const send = (remoteAddress: string, forwardedFor: string) =>
      service.app.inject({
        url: '/v2/regions',
        headers: { authorization: wrong, 'x-forwarded-for': forwardedFor },
        remoteAddress,
      });
    try {
      // Straight from the internet, each guess claiming another address: still one client.
      for (const [i, forged] of ['198.51.100.1', '198.51.100.2', '198.51.100.3'].entries()) {
        assert.equal((await send('203.0.113.7', forged)).statusCode, i < 2 ? 401 : 429, `guess ${i + 1}`);
      }
      // Through the proxy, the client it names is counted, not the proxy.
      assert.equal((await send('10.1.2.3', '192.0.2.50')).statusCode, 401);
      assert.equal((await send('10.1.2.3', '192.0.2.51')).statusCode, 401);
      const { rows } = await service.db.query<{ client: string; failures: number }>(
        'SELECT client, failures FROM machines.login_failures ORDER BY client',
      );
      assert.deepEqual(rows, [
        { client: '192.0.2.50', failures: 1 },
        { client: '192.0.2.51', failures: 1 },
        { client: '203.0.113.7', failures: 2 },
      ]);
    } finally {
      await service.close();
    }
  });

  test('without TRUST_PROXY, forwarded requests get one warning per process', async () => {
    const logLines: string[] = [];
    const service = await startSecured('machines', { logLines });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await service.app.inject({
          url: '/v2/regions',
          headers: { ...credentials.machines, 'x-forwarded-for': '192.0.2.9' },
          remoteAddress: '10.0.0.2',
        });
        assert.equal(res.statusCode, 200);
      }
      const warnings = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40);
      assert.deepEqual(
        warnings.map((entry) => entry.msg),
        [
          "X-Forwarded-For arrived but TRUST_PROXY is not set: every client behind that proxy shares its address (10.0.0.2) for failed-login limits; set TRUST_PROXY to the proxy's addresses",
        ],
      );
    } finally {
      await service.close();
    }
  });
});
