import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { list } from '../src/services/list/index.js';
import { posts } from '../src/services/posts/index.js';
import { startTestService } from './service.js';

const forwarded = {
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'api.example.com',
  host: 'internal:3333',
};

describe('behind a proxy (TRUST_PROXY), links use the public origin; otherwise the Host the client used', () => {
  test('list: Location of a created item and the Link of a page', async () => {
    for (const [trust, origin] of [
      ['loopback', 'https://api.example.com'],
      ['false', 'http://internal:3333'],
    ] as const) {
      const service = await startTestService(list, { env: { LIST_DELAY_MS: '0', TRUST_PROXY: trust } });
      try {
        const created = await service.app.inject({
          method: 'POST',
          url: '/list',
          headers: forwarded,
          payload: { item: 'tea' },
        });
        assert.equal(created.statusCode, 201);
        assert.equal(created.headers.location, `${origin}/list/3`);
        const page = await service.app.inject({ url: '/list?_page=1&_limit=1', headers: forwarded });
        assert.match(
          String(page.headers.link),
          new RegExp(`^<${origin.replace(/[./]/g, '\\$&')}/list\\?_page=1&_limit=1>; rel="first"`),
        );
      } finally {
        await service.close();
      }
    }
  });

  test('posts: the Link of a page', async () => {
    for (const [trust, origin] of [
      ['loopback', 'https://api.example.com'],
      ['false', 'http://internal:3333'],
    ] as const) {
      const service = await startTestService(posts, { env: { TRUST_PROXY: trust } });
      try {
        const page = await service.app.inject({ url: '/posts?_page=2&_limit=10', headers: forwarded });
        assert.equal(page.statusCode, 200);
        const links = String(page.headers.link).split(', ');
        assert.equal(links.length, 4);
        for (const link of links) assert.ok(link.startsWith(`<${origin}/posts?`), link);
      } finally {
        await service.close();
      }
    }
  });
});
