import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestService } from '../../../test/service.js';
import { ConfigError } from '../../config.js';
import { Catalog } from './catalog.js';
import { buildDataset, photosAt } from './dataset.js';
import { posts } from './index.js';
import { postsSettings } from './settings.js';

const data = buildDataset();
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const origin = 'http://127.0.0.1:8083';

describe('posts answer cache', () => {
  it('makes each fixed answer on first use, then hands out the same one', () => {
    const catalog = new Catalog();
    assert.equal(catalog.cache.size, 0, 'nothing is made before it is asked for');
    const first = catalog.shared('/posts/1');
    assert.equal(first?.identity.toString(), pretty(data.posts[0]));
    assert.equal(catalog.shared('/posts/1'), first);
    assert.equal(
      catalog.answer('/users/2/todos', origin)?.identity.toString(),
      pretty(data.todos.slice(20, 40)),
    );
    assert.equal(
      catalog.answer('/photos/7', origin)?.identity.toString(),
      pretty(photosAt(data.photos, origin)[6]),
    );
    assert.equal(catalog.shared('/photos/7'), undefined, 'photo answers name the origin: never shared');
    for (const computed of [
      '/posts/101',
      '/posts/01',
      '/posts/1/',
      '/posts/1/photos',
      '/nope',
      '/posts?_limit=1',
    ]) {
      assert.equal(catalog.answer(computed, origin), undefined, computed);
    }
  });

  it('stays within its byte bound, dropping the least recently used answers first', () => {
    const bound = 128 * 1024;
    const catalog = new Catalog(bound);
    const hot = catalog.shared('/posts') as NonNullable<ReturnType<Catalog['shared']>>;
    catalog.encodedNow('/posts', hot, 'br');
    catalog.encodedNow('/posts', hot, 'gzip');
    for (let id = 1; id <= 500; id++) {
      catalog.shared(`/comments/${id}`);
      if (id % 50 === 0) catalog.shared('/posts');
      assert.ok(catalog.cache.bytes <= bound, `${catalog.cache.bytes} bytes after ${id} comments`);
    }
    assert.equal(catalog.shared('/posts'), hot, 'the answer used all along is still there');
    assert.notEqual(catalog.cache.size, 501, 'older answers were dropped');
    const again = catalog.shared('/comments/1');
    assert.ok(again, 'a dropped answer is made again');
    assert.equal(again.etag, new Catalog().shared('/comments/1')?.etag, 'with the same ETag');
  });

  it('serves an answer larger than the whole bound without keeping it', () => {
    const catalog = new Catalog(16 * 1024);
    const big = catalog.answer('/photos', origin);
    assert.ok(big && big.identity.length > 16 * 1024);
    assert.equal(catalog.cache.bytes, 0);
    assert.notEqual(catalog.answer('/photos', origin), big);
  });

  it('compresses a large answer once, however many requests ask for it at the same time', async () => {
    const catalog = new Catalog();
    const body = catalog.answer('/photos', origin)!;
    const key = catalog.keyOf('/photos', origin);
    assert.equal(catalog.encodedNow(key, body, 'br'), undefined, 'too large to compress on the event loop');
    const [a, b] = await Promise.all([catalog.encoded(key, body, 'br'), catalog.encoded(key, body, 'br')]);
    assert.equal(a, b);
    assert.equal(brotliDecompressSync(a).toString(), body.identity.toString());
    assert.equal(catalog.encodedNow(key, body, 'br'), a, 'kept for the next request');
    const gzip = await catalog.encoded(key, body, 'gzip');
    assert.equal(gunzipSync(gzip).toString(), body.identity.toString());
    assert.equal(catalog.cache.bytes, body.identity.length + a.length + gzip.length + 200);
  });

  it('POSTS_CACHE_MIB sets the bound (32 MiB by default; 0 keeps nothing)', async () => {
    assert.equal(postsSettings({}).cacheBytes, 32 * 2 ** 20);
    assert.equal(postsSettings({ POSTS_CACHE_MIB: '4' }).cacheBytes, 4 * 2 ** 20);
    assert.throws(() => postsSettings({ POSTS_CACHE_MIB: 'lots' }), ConfigError);
    const service = await startTestService(posts, { env: { POSTS_CACHE_MIB: '0' } });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await service.app.inject({ url: '/posts', headers: { 'accept-encoding': 'br' } });
        assert.equal(res.statusCode, 200);
        assert.equal(brotliDecompressSync(res.rawPayload).toString(), pretty(data.posts));
      }
    } finally {
      await service.close();
    }
  });
});
