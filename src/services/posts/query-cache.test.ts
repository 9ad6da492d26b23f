import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { createTestDatabase } from '../../../test/db.js';
import { startTestService, type TestService } from '../../../test/service.js';
import type { Database } from '../../platform/database.js';
import { buildDataset } from './dataset.js';
import { posts } from './index.js';

// Query answers are kept by URL (the data never changes): the second answer is the first one's, headers and all.
let db: Database;
let service: TestService<unknown>;
before(async () => {
  db = await createTestDatabase();
  service = await startTestService(posts, { db });
});
after(async () => {
  await service.close();
  await db.close();
});

const data = buildDataset();
const get = (url: string, headers: Record<string, string> = {}) =>
  service.app.inject({ method: 'GET', url, headers });
/** The headers that do not change per request (the request id does). */
const stable = (headers: Record<string, unknown>) => {
  const { 'x-request-id': _id, date: _date, ...rest } = headers;
  return rest;
};

test('a page of posts: the same body, total, links and validator the second time', async () => {
  const url = '/posts?_page=2&_limit=10';
  const first = await get(url);
  const second = await get(url);
  assert.equal(first.statusCode, 200);
  assert.deepEqual(JSON.parse(first.body), data.posts.slice(10, 20));
  assert.equal(first.headers['x-total-count'], '100');
  assert.match(String(first.headers.link), /_page=3&_limit=10>; rel="next"/);
  assert.equal(second.body, first.body);
  assert.deepEqual(stable(second.headers), stable(first.headers));
  const again = await get(url, { 'if-none-match': String(first.headers.etag) });
  assert.equal(again.statusCode, 304);
});

test('a nested filter and an item with a relation, compressed when asked', async () => {
  const comments = await get('/comments?postId=1', { 'accept-encoding': 'br' });
  const expected = data.comments.filter((c) => c.postId === 1);
  assert.equal(comments.headers['content-encoding'], 'br');
  assert.equal(comments.headers.vary, 'Origin, Accept-Encoding');
  assert.deepEqual(JSON.parse(brotliDecompressSync(comments.rawPayload).toString()), expected);
  const twice = await get('/comments?postId=1', { 'accept-encoding': 'br' });
  assert.deepEqual(twice.rawPayload, comments.rawPayload);
  const item = await get('/posts/1?_embed=comments');
  assert.deepEqual(JSON.parse(item.body).comments, expected);
  assert.equal((await get('/posts/1?_embed=comments')).body, item.body);
  assert.equal((await get('/posts/9999?_embed=comments')).statusCode, 404);
});

test('the second request of a URL computes nothing (no pretty-printing of the items again)', async () => {
  const stringify = JSON.stringify;
  let pretty = 0;
  JSON.stringify = ((...args: Parameters<typeof stringify>) => {
    if (args[2] === 2) pretty++;
    return stringify(...args);
  }) as typeof stringify;
  try {
    await get('/users?_sort=name&_order=desc');
    const computed = pretty;
    await get('/users?_sort=name&_order=desc');
    assert.equal(computed, 1);
    assert.equal(pretty, 1);
  } finally {
    JSON.stringify = stringify;
  }
});
