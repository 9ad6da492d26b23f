import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import { corsPolicy } from './cors.js';
import { CommonHead, commonHeaders } from './fast-path.js';

const requestFrom = (origin?: string) =>
  ({ headers: origin ? { origin } : {} }) as unknown as IncomingMessage;

/** What the Fastify path sends (commonHeaders, Vary widened) then `rest`, as the flat list writeHead takes. */
function expected(req: IncomingMessage, id: string, policy: ReturnType<typeof corsPolicy>, vary: string) {
  const headers = { ...commonHeaders(req, id, policy, 'x-request-id, etag'), vary };
  return [...Object.entries(headers).flat(), ...rest];
}

const rest = ['cache-control', 'max-age=43200', 'content-length', '2'] as const;

test('the fast path head equals the Fastify path headers for each CORS case, request after request', () => {
  // A credentialed service's policy: only loopback and listed origins are answered with CORS headers.
  const policy = corsPolicy(true, ['https://app.example']);
  const head = new CommonHead(policy, 'x-request-id, etag');
  const cases: Array<[string | undefined, string]> = [
    ['https://app.example', 'id-1'],
    [undefined, 'id-2'],
    ['https://evil.example', 'id-3'],
    ['http://localhost:3000', 'id-4'],
    ['https://app.example', 'id-5'],
    ['https://evil.example', 'id-6'],
    [undefined, 'id-7'],
  ];
  for (const vary of ['Origin', 'Origin, Accept-Encoding']) {
    for (const [origin, id] of cases) {
      const req = requestFrom(origin);
      assert.deepEqual(head.list(req, id, vary, rest), expected(req, id, policy, vary), `${origin} ${vary}`);
    }
  }
});

test('any-origin services echo every Origin, and send none to a request without one', () => {
  const policy = corsPolicy(false, []);
  const head = new CommonHead(policy, 'x-request-id');
  const allowOriginOf = (list: string[]) => {
    const at = list.indexOf('access-control-allow-origin');
    return at === -1 ? undefined : list[at + 1];
  };
  for (const origin of ['https://one.example', undefined, 'https://two.example', undefined]) {
    assert.equal(allowOriginOf(head.list(requestFrom(origin), 'id', 'Origin', rest)), origin);
  }
});
