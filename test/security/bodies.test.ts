import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServiceId } from '../../src/platform/service.js';
import type { TestService } from '../service.js';
import { credentials, startSecured, thingsCaller } from './fixtures.js';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Bodies that have killed or stalled JSON servers: depth, width, size, NUL, huge numbers, prototype keys. */
const hostile: Record<string, string> = {
  'depth 100': nested(100),
  'depth 5,000': nested(5_000),
  'depth 100,000': nested(100_000),
  'object depth 5,000': nestedObject(5_000),
  'depth 5,000 in a field': `{"item":${nested(5_000)},"name":"x","title":"x"}`,
  'width: 150,000 numbers': `[${Array.from({ length: 150_000 }, (_, i) => i % 10).join(',')}]`,
  'width: 40,000 keys': `{${Array.from({ length: 40_000 }, (_, i) => `"k${i}":1`).join(',')}}`,
  'size: over the body limit': `{"item":"${'x'.repeat(1024 * 1024)}"}`,
  NUL: '{"item":"a\\u0000b","name":"\\u0000","title":"\\u0000","username":"\\u0000","password":"\\u0000x"}',
  'huge numbers': '{"id":1e308,"age":1e400,"item":9007199254740993,"size":-1e308}',
  __proto__: '{"__proto__":{"admin":true},"item":"x","name":"x"}',
  'constructor.prototype': '{"constructor":{"prototype":{"admin":true}},"item":"x"}',
  'a lone string': '"x"',
  'truncated JSON': '{"item":',
};

const routes: Record<ServiceId, Array<[method: 'POST' | 'PUT' | 'PATCH', url: string]>> = {
  list: [
    ['POST', '/list'],
    ['PUT', '/list/1'],
    ['PATCH', '/list/1'],
  ],
  posts: [
    ['POST', '/posts'],
    ['PUT', '/posts/1'],
    ['PATCH', '/posts/1'],
  ],
  employees: [
    ['POST', '/api/2/create'],
    ['PUT', '/api/2/update/1'],
  ],
  things: [
    ['POST', '/signup'],
    ['POST', '/login'],
  ],
  machines: [['POST', '/v2/machines']],
  content: [
    ['POST', '/wp-json/wp/v2/posts'],
    ['POST', '/wp-json/wp/v2/posts/1'],
    ['POST', '/wp-json/wp/v2/users/1'],
    ['POST', '/me/settings/'],
  ],
  profiles: [['POST', '/query']],
};

/** Each service's documented error shape, for the 400 a too-deep body gets. */
const errorShape: Record<ServiceId, (body: Record<string, unknown>) => boolean> = {
  list: (b) => typeof b.error === 'string',
  posts: (b) => Object.keys(b).length === 0 || 'id' in b,
  employees: (b) => b.status === 'error' && b.data === null && typeof b.message === 'string',
  things: (b) => typeof b.code === 'string' && typeof b.description === 'string',
  machines: (b) =>
    typeof b.id === 'string' && typeof b.message === 'string' && typeof b.request_id === 'string',
  // WordPress's `{code, message, data: {status}}`, or WordPress.com's `{error, message}` under /me/settings/.
  content: (b) =>
    (typeof b.code === 'string' && typeof (b.data as { status?: number })?.status === 'number') ||
    (typeof b.error === 'string' && typeof b.message === 'string'),
  profiles: (b) =>
    Array.isArray(b.errors) && typeof (b.errors as { message: string }[])[0]?.message === 'string',
};

for (const [id, targets] of Object.entries(routes) as [ServiceId, (typeof routes)[ServiceId]][]) {
  describe(`${id}: hostile JSON bodies get a 4xx in the service's shape, never a 5xx`, () => {
    let service: TestService;
    let headers: Record<string, string>;
    before(async () => {
      service = await startSecured(id);
      headers = { 'content-type': 'application/json', ...credentials[id] };
      if (id === 'things') headers = { ...headers, ...(await thingsCaller(service)) };
    });
    after(() => service.close());

    for (const [method, url] of targets) {
      test(`${method} ${url}`, async () => {
        const failures: string[] = [];
        for (const [name, payload] of Object.entries(hostile)) {
          const res = await service.app.inject({ method, url, headers, payload });
          if (res.statusCode >= 500) failures.push(`${name} → ${res.statusCode} ${res.body.slice(0, 120)}`);
          if (name === 'depth 5,000' && id !== 'posts') {
            // posts fakes writes of anything, as JSONPlaceholder does: a body it cannot read is an empty one.
            assert.equal(res.statusCode, 400, `${name}: ${res.body.slice(0, 200)}`);
            assert.ok(errorShape[id](res.json()), `${name}: ${res.body.slice(0, 200)}`);
          }
        }
        assert.deepEqual(failures, []);
        assert.equal((await service.app.inject({ url: '/healthz' })).statusCode, 200);
      });
    }
  });
}

/** A path segment no router can decode: every service answers it 400 in its own error shape, with its headers. */
const undecodable: Record<ServiceId, string> = {
  list: '/list/%ZZ',
  posts: '/posts/%ZZ',
  employees: '/api/v1/employee/%ZZ',
  things: '/things/%ZZ',
  machines: '/v2/droplets/%ZZ',
  content: '/wp-json/wp/v2/posts/%ZZ',
  profiles: '/%ZZ',
};

describe("a URL that cannot be decoded gets a 400 in the service's error shape", () => {
  for (const [id, url] of Object.entries(undecodable) as [ServiceId, string][]) {
    test(`${id}: GET ${url}`, async () => {
      const service = await startSecured(id);
      try {
        const res = await service.app.inject({ url, headers: credentials[id] });
        assert.equal(res.statusCode, 400, res.body);
        assert.match(String(res.headers['content-type']), /json/);
        assert.ok(errorShape[id](res.json()), res.body);
        assert.ok(res.headers['x-request-id'], 'the request id every answer carries');
        assert.equal(
          res.json().code === 'FST_ERR_BAD_URL' && res.json().statusCode === 400,
          false,
          "not Fastify's own body",
        );
      } finally {
        await service.close();
      }
    });
  }
});

describe('list: nothing acknowledged is lost, nothing refused is kept', () => {
  test('a body nested 5,000 levels is refused and the file still holds every acknowledged item', async () => {
    const service = await startSecured('list');
    try {
      const deep = await service.app.inject({
        method: 'POST',
        url: '/list',
        headers: { 'content-type': 'application/json' },
        payload: `{"item":${nested(5_000)}}`,
      });
      assert.equal(deep.statusCode, 400);
      assert.deepEqual(deep.json(), { error: 'The JSON body is nested more than 64 levels deep' });
      const ok = await service.app.inject({ method: 'POST', url: '/list', payload: { item: 'milk' } });
      assert.equal(ok.statusCode, 201);
      const list = await service.app.inject({ url: '/list' });
      assert.deepEqual(
        list.json().map((i: { item: string }) => i.item),
        ['bread', 'grapes', 'milk'],
      );
    } finally {
      await service.close();
    }
  });
});
