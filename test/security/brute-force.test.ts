import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ServiceId } from '../../src/platform/service.js';
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
      const service = await startSecured(id, {
        env: { LOGIN_FAILURE_LIMIT: '5', LOGIN_FAILURE_WINDOW: '60' },
      });
      const send = (authorization: string, remoteAddress = '203.0.113.7') =>
        service.app.inject({ url, headers: { authorization }, remoteAddress });
      try {
        for (let i = 0; i < 5; i++) assert.equal((await send(wrong)).statusCode, 401, `guess ${i + 1}`);
        for (const authorization of [wrong, right]) {
          const refused = await send(authorization);
          assert.equal(refused.statusCode, 429, 'the sixth try is refused, even with the right credential');
          assert.ok(Number(refused.headers['retry-after']) >= 1);
          assert.ok(Number(refused.headers['retry-after']) <= 60);
          assert.ok(tooMany(refused.json()), refused.body);
        }
        assert.equal((await send(right, '198.51.100.9')).statusCode, 200, 'another client is not affected');
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
