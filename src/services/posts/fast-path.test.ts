import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../../../test/service.js';
import { posts } from './index.js';

// The fixed GETs are answered ahead of Fastify (FastPath); these tests hold them to Fastify's own answers.

let service: TestService;
let handled = 0;
const countHandled = () => {
  handled++;
};
before(async () => {
  service = await startTestService(posts, { listen: true });
  subscribe('tracing:fastify.request.handler:start', countHandled);
});
after(async () => {
  unsubscribe('tracing:fastify.request.handler:start', countHandled);
  await service.close();
});

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A request over the socket, bodies left compressed, headers as sent. */
function overHttp(
  method: string,
  url: string,
  headers: Record<string, string>,
  base = service.url,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** The same request through Fastify's router (inject never passes the fast path). */
async function throughFastify(url: string, headers: Record<string, string>): Promise<Raw> {
  const res = await service.app.inject({ method: 'GET', url, headers });
  const asText = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
  return { status: res.statusCode, headers: asText, body: res.rawPayload };
}

const transportHeaders = ['date', 'connection', 'keep-alive', 'x-request-id'];
const comparable = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !transportHeaders.includes(name)));

describe('posts fast path', () => {
  const urls = [
    '/posts',
    '/posts/1',
    '/posts/100',
    '/users/1/posts',
    '/posts/1/comments',
    '/todos/5',
    '/albums',
  ];
  const variants: Record<string, string>[] = [
    {},
    { origin: 'https://app.example' },
    { 'accept-encoding': 'gzip' },
    { 'accept-encoding': 'gzip, deflate, br', origin: 'http://localhost:5173' },
    { 'accept-encoding': 'br;q=0, gzip;q=0' },
  ];

  test('answers every fixed GET byte for byte and header for header as the Fastify route does', async () => {
    for (const url of urls) {
      for (const headers of variants) {
        const before = handled;
        const fast = await overHttp('GET', url, headers);
        assert.equal(handled, before, `${url} was answered by the fast path, not a Fastify handler`);
        const routed = await throughFastify(url, headers);
        assert.equal(handled, before + 1);
        const label = `${url} ${JSON.stringify(headers)}`;
        assert.equal(fast.status, 200, label);
        assert.equal(routed.status, 200, label);
        assert.deepEqual(comparable(fast.headers), comparable(routed.headers), label);
        assert.deepEqual(fast.body, routed.body, label);
        assert.match(fast.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
      }
    }
  });

  test("keeps the client's request id, and CORS answers as documented", async () => {
    const res = await overHttp('GET', '/posts/1', {
      'x-request-id': 'trace-42',
      origin: 'https://a.example',
    });
    assert.equal(res.headers['x-request-id'], 'trace-42');
    assert.equal(res.headers['access-control-allow-origin'], 'https://a.example');
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.equal(res.headers['access-control-expose-headers'], 'x-request-id, x-total-count, link, etag');
    assert.equal(res.headers.vary, 'Origin');
    const noOrigin = await overHttp('GET', '/posts/1', { 'x-request-id': 'bad id with spaces' });
    assert.equal(noOrigin.headers['access-control-allow-origin'], undefined);
    assert.match(noOrigin.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
  });

  test('interleaved requests for one answer each get their own request id and Origin, none of the last', async () => {
    const asked: Array<Record<string, string>> = [
      { 'x-request-id': 'first', origin: 'https://a.example' },
      {},
      { 'x-request-id': 'third' },
      { origin: 'http://localhost:5173' },
      { 'x-request-id': 'fifth', origin: 'https://b.example' },
    ];
    const answers = await Promise.all(asked.map((headers) => overHttp('GET', '/posts/2', headers)));
    const seenIds = new Set<string>();
    for (const [i, res] of answers.entries()) {
      const sent = asked[i] as Record<string, string>;
      const id = res.headers['x-request-id'] ?? '';
      if (sent['x-request-id']) assert.equal(id, sent['x-request-id']);
      else assert.match(id, /^[0-9a-f-]{36}$/);
      seenIds.add(id);
      assert.equal(res.headers['access-control-allow-origin'], sent.origin, `answer ${i}`);
      assert.equal(JSON.parse(res.body.toString()).id, 2);
    }
    assert.equal(seenIds.size, asked.length);
  });

  test('conditional requests, queries, HEAD, the home page and unknown ids go to the routes', async () => {
    const { headers } = await overHttp('GET', '/posts/1', {});
    const cases: Array<[string, string, Record<string, string>, number]> = [
      ['GET', '/posts/1', { 'if-none-match': headers.etag as string }, 304],
      ['GET', '/posts?_limit=2', {}, 200],
      ['HEAD', '/posts/1', {}, 200],
      ['GET', '/', {}, 200],
      ['GET', '/posts/101', {}, 404],
      ['GET', '/photos/1', {}, 200],
    ];
    for (const [method, url, requestHeaders, status] of cases) {
      const before = handled;
      const res = await overHttp(method, url, requestHeaders);
      assert.equal(res.status, status, `${method} ${url}`);
      assert.equal(handled, before + 1, `${method} ${url} went through Fastify`);
    }
  });
});

describe('posts fast path with a Host allowlist', () => {
  let guarded: TestService;
  before(async () => {
    guarded = await startTestService(posts, { listen: true, env: { ALLOWED_HOSTS: 'api.example' } });
  });
  after(() => guarded.close());

  test('a Host not on the list is refused as on every other route; a listed one is answered', async () => {
    const refused = await overHttp('GET', '/posts/1', { host: 'evil.example' }, guarded.url);
    assert.equal(refused.status, 403);
    assert.deepEqual(JSON.parse(refused.body.toString()), {});
    for (let i = 0; i < 2; i++) {
      const before = handled;
      const listed = await overHttp('GET', '/posts/1', { host: 'api.example' }, guarded.url);
      assert.equal(listed.status, 200);
      assert.equal(JSON.parse(listed.body.toString()).id, 1);
      assert.equal(handled, before, 'answered by the fast path');
    }
    const again = await overHttp('GET', '/posts', { host: 'evil.example:80' }, guarded.url);
    assert.equal(again.status, 403);
  });
});
