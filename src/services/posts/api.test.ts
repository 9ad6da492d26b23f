import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createTestDatabase } from '../../../test/db.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { ConfigError } from '../../config.js';
import type { Database } from '../../platform/database.js';
import { buildDataset, photosAt } from './dataset.js';
import { posts } from './index.js';

const data = buildDataset();
/** `app.inject()` sends `Host: localhost:80`, so photo URLs point there. */
const origin = 'http://localhost:80';
const photos = photosAt(data.photos, origin);
const pretty = (value: unknown) => JSON.stringify(value, null, 2);

let db: Database;
let service: TestService<unknown>;

before(async () => {
  db = await createTestDatabase();
  service = await startTestService(posts, { db });
});
after(async () => {
  await service?.close();
  await db?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  service.app.inject({ method: 'GET', url, headers });
const json = (response: { body: string }) => JSON.parse(response.body);

describe('posts: GET /posts and /posts/{id}', () => {
  it('lists all 100 posts, pretty-printed, cacheable, in the dataset order', async () => {
    const response = await get('/posts');
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(response.headers['cache-control'], 'max-age=43200');
    assert.match(String(response.headers.etag), /^W\/"[\w-]{27}"$/);
    assert.equal(response.headers['x-total-count'], undefined);
    assert.equal(response.body, pretty(data.posts));
  });

  it('caps the list with _limit and reports the total', async () => {
    const response = await get('/posts?_limit=3');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(json(response), data.posts.slice(0, 3));
    assert.equal(response.headers['x-total-count'], '100');
    assert.deepEqual(json(await get('/posts?_limit=0')), []);
  });

  it('ignores a _limit that is not a whole number', async () => {
    for (const limit of ['abc', '-1', '2.5', '']) {
      const response = await get(`/posts?_limit=${limit}`);
      assert.equal(response.statusCode, 200, limit);
      assert.equal(json(response).length, 100, limit);
      assert.equal(response.headers['x-total-count'], undefined, limit);
    }
  });

  it('returns one post, and 404 {} for unknown or non-numeric ids', async () => {
    const response = await get('/posts/1');
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, pretty(data.posts[0]));
    assert.deepEqual(Object.keys(json(response)), ['userId', 'id', 'title', 'body']);
    for (const id of ['0', '101', 'abc', '01', '1.0', '%20']) {
      const missing = await get(`/posts/${id}`);
      assert.equal(missing.statusCode, 404, id);
      assert.equal(missing.body, '{}', id);
      assert.equal(missing.headers['content-type'], 'application/json; charset=utf-8');
    }
  });

  it('serves every resource the same way', async () => {
    const expected = { ...data, photos };
    for (const [name, items] of Object.entries(expected)) {
      const list = await get(`/${name}`);
      assert.equal(list.statusCode, 200, name);
      assert.equal(list.body, pretty(items), name);
      const last = items[items.length - 1] as { id: number };
      const one = await get(`/${name}/${last.id}`);
      assert.equal(one.body, pretty(last), name);
      assert.equal((await get(`/${name}/${last.id + 1}`)).statusCode, 404, name);
    }
  });

  it('answers unknown routes with 404 {}', async () => {
    for (const url of ['/nothing', '/posts/1/nothing', '/users/1/comments', '/posts/1/2']) {
      const response = await get(url);
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.body, '{}', url);
    }
  });
});

describe('posts: fake writes', () => {
  const send = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, type?: string) =>
    service.app.inject({
      method,
      url,
      payload: typeof payload === 'string' || payload === undefined ? payload : JSON.stringify(payload),
      headers: payload === undefined ? {} : { 'content-type': type ?? 'application/json; charset=UTF-8' },
    });

  it('POST answers 200 with the body and the next id, overwriting a client id', async () => {
    const response = await send('POST', '/posts', { id: 7, title: 'foo', body: 'bar', userId: 1 });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(response.headers['cache-control'], undefined);
    assert.equal(response.body, pretty({ id: 101, title: 'foo', body: 'bar', userId: 1 }));
    assert.deepEqual(json(await send('POST', '/comments', { name: 'n' })), { name: 'n', id: 501 });
    assert.deepEqual(json(await send('POST', '/photos', {})), { id: 5001 });
  });

  it('treats a body that is not a JSON object, or not sent as application/json, as empty', async () => {
    const cases: [string | undefined, string | undefined][] = [
      ['{not json', 'application/json'],
      ['', 'application/json'],
      ['title=foo', 'application/x-www-form-urlencoded'],
      ['hello', 'text/plain'],
      ['{"title":"foo"}', 'text/plain'],
      ['{"title":"foo"}', 'application/vnd.api+json'],
      ['[1,2]', 'application/json'],
      ['"text"', 'application/json'],
      ['<a/>', 'application/xml'],
      [undefined, undefined],
    ];
    for (const [payload, type] of cases) {
      const response = await send('POST', '/posts', payload, type);
      assert.equal(response.statusCode, 200, `${type}: ${payload}`);
      assert.deepEqual(json(response), { id: 101 }, `${type}: ${payload}`);
    }
  });

  it('reads a JSON body sent with no Content-Type as empty, as JSONPlaceholder does', async () => {
    const response = await service.app.inject({ method: 'POST', url: '/posts', payload: '{"title":"foo"}' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, pretty({ id: 101 }));
  });

  it('PUT replaces: the body with the stored id', async () => {
    const response = await send('PUT', '/posts/1', { id: 5, title: 'foo' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, pretty({ id: 1, title: 'foo' }));
  });

  it('PATCH merges the body into the stored item, keeping its id', async () => {
    const response = await send('PATCH', '/posts/1', { title: 'foo', id: 9, extra: true });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, pretty({ ...data.posts[0], title: 'foo', extra: true }));
    const photo = json(await send('PATCH', '/photos/2', { title: 't' }));
    assert.deepEqual(photo, { ...photos[1], title: 't' });
  });

  it('DELETE answers 200 {}', async () => {
    const response = await send('DELETE', '/posts/1');
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, '{}');
  });

  it('answers 404 {} for PUT, PATCH and DELETE on an unknown id', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      for (const id of ['101', 'abc', '0']) {
        const response = await send(method, `/posts/${id}`, method === 'DELETE' ? undefined : { title: 'x' });
        assert.equal(response.statusCode, 404, `${method} ${id}`);
        assert.equal(response.body, '{}', `${method} ${id}`);
      }
    }
  });

  it('keeps nothing', async () => {
    await send('POST', '/posts', { title: 'kept?' });
    await send('PUT', '/posts/2', { title: 'kept?' });
    await send('PATCH', '/posts/3', { title: 'kept?' });
    await send('DELETE', '/posts/4');
    assert.equal((await get('/posts/101')).statusCode, 404);
    assert.equal((await get('/posts')).body, pretty(data.posts));
    assert.equal((await get('/posts?_limit=5')).body, pretty(data.posts.slice(0, 5)));
    assert.equal((await get('/posts/2')).body, pretty(data.posts[1]));
  });

  it('answers an oversized body with 413 {}', async () => {
    const response = await send('POST', '/posts', { body: 'x'.repeat(1_100_000) });
    assert.equal(response.statusCode, 413);
    assert.equal(response.body, '{}');
  });
});

describe('posts: nested lists', () => {
  const cases: [string, unknown[]][] = [
    ['/posts/1/comments', data.comments.filter((comment) => comment.postId === 1)],
    ['/users/1/posts', data.posts.filter((post) => post.userId === 1)],
    ['/users/2/albums', data.albums.filter((album) => album.userId === 2)],
    ['/users/10/todos', data.todos.filter((todo) => todo.userId === 10)],
    ['/albums/3/photos', photos.filter((photo) => photo.albumId === 3)],
  ];

  it('lists the children of a parent', async () => {
    for (const [url, expected] of cases) {
      const response = await get(url);
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.body, pretty(expected), url);
    }
    assert.equal(cases[0]?.[1].length, 5);
    assert.equal(cases[3]?.[1].length, 20);
    assert.equal(cases[4]?.[1].length, 50);
  });

  it('answers 200 [] for an unknown parent', async () => {
    for (const url of ['/posts/101/comments', '/users/abc/posts', '/albums/0/photos', '/users/11/todos']) {
      const response = await get(url);
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.body, '[]', url);
    }
  });

  it('takes the list queries too', async () => {
    const response = await get('/users/1/todos?completed=true&_limit=2');
    const expected = data.todos.filter((todo) => todo.userId === 1 && todo.completed);
    assert.deepEqual(json(response), expected.slice(0, 2));
    assert.equal(response.headers['x-total-count'], String(expected.length));
  });
});

describe('posts: list queries (json-server semantics)', () => {
  it('slices with _start/_end and _start/_limit', async () => {
    const response = await get('/comments?_start=10&_end=13');
    assert.deepEqual(json(response), data.comments.slice(10, 13));
    assert.equal(response.headers['x-total-count'], '500');
    assert.deepEqual(json(await get('/comments?_start=10&_limit=2')), data.comments.slice(10, 12));
    assert.equal(json(await get('/comments?_start=10')).length, 500, '_start alone does not slice');
  });

  it('pages with _page (10 per page unless _limit says) and a Link header', async () => {
    const response = await get('/posts?_page=2');
    assert.deepEqual(json(response), data.posts.slice(10, 20));
    assert.equal(response.headers['x-total-count'], '100');
    assert.equal(
      response.headers.link,
      `<${origin}/posts?_page=1>; rel="first", <${origin}/posts?_page=1>; rel="prev", ` +
        `<${origin}/posts?_page=3>; rel="next", <${origin}/posts?_page=10>; rel="last"`,
    );
    const last = await get('/posts?userId=1&_page=4&_limit=3');
    assert.deepEqual(json(last), data.posts.slice(9, 10));
    assert.equal(last.headers['x-total-count'], '10');
    assert.equal(
      last.headers.link,
      `<${origin}/posts?userId=1&_page=1&_limit=3>; rel="first", <${origin}/posts?userId=1&_page=3&_limit=3>; rel="prev", ` +
        `<${origin}/posts?userId=1&_page=4&_limit=3>; rel="last"`,
    );
    const beyond = await get('/posts?_page=11');
    assert.equal(beyond.body, '[]');
    assert.equal(beyond.headers.link, '', 'a page with nothing to link has an empty Link, as json-server');
    assert.deepEqual(json(await get('/posts?_page=abc')), data.posts.slice(0, 10));
  });

  it('sorts with _sort and _order, several fields at once', async () => {
    const byTitle = [...data.posts].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
    assert.deepEqual(json(await get('/posts?_sort=title')), byTitle);
    assert.deepEqual(json(await get('/posts?_sort=title&_order=desc')), [...byTitle].reverse());
    const todos = json(await get('/todos?_sort=completed,id&_order=desc,asc'));
    const expected = [
      ...data.todos.filter((todo) => todo.completed),
      ...data.todos.filter((todo) => !todo.completed),
    ];
    assert.deepEqual(todos, expected);
    assert.deepEqual(
      json(await get('/users?_sort=address.city&_limit=1'))[0].address.city,
      [...data.users].map((user) => user.address.city).sort()[0],
    );
  });

  it('filters by field; repeating a field means OR; unknown fields are ignored', async () => {
    assert.deepEqual(
      json(await get('/posts?userId=2')),
      data.posts.filter((post) => post.userId === 2),
    );
    assert.deepEqual(
      json(await get('/comments?postId=1&postId=3')),
      data.comments.filter((comment) => comment.postId === 1 || comment.postId === 3),
    );
    assert.deepEqual(
      json(await get('/todos?userId=1&completed=false')),
      data.todos.filter((todo) => todo.userId === 1 && !todo.completed),
    );
    assert.equal(json(await get('/posts?nosuchfield=1')).length, 100);
    assert.equal(json(await get('/posts?userId=abc')).length, 0);
    const city = data.users[3]?.address.city as string;
    assert.deepEqual(
      json(await get(`/users?address.city=${encodeURIComponent(city)}`)),
      data.users.filter((user) => user.address.city === city),
    );
  });

  it('compares with _gte, _lte, _ne and matches with _like', async () => {
    assert.deepEqual(
      json(await get('/posts?id_gte=95&id_lte=97')).map((post: { id: number }) => post.id),
      [95, 96, 97],
    );
    assert.equal(json(await get('/posts?id_gte=9')).length, 92, 'numbers compare as numbers');
    assert.equal(json(await get('/posts?userId_ne=1&userId_ne=2')).length, 80);
    const word = data.posts[0]?.title.split(' ')[1] as string;
    assert.deepEqual(
      json(await get(`/posts?title_like=${word.toUpperCase()}`)),
      data.posts.filter((post) => post.title.includes(word)),
    );
    assert.deepEqual(
      json(await get('/posts?title_like=^sint')),
      data.posts.filter((post) => post.title.startsWith('sint')),
    );
  });

  it('runs every _like pattern in linear time, so runaway patterns get their real answer', async () => {
    const titled = (test: (title: string) => boolean) => data.posts.filter((post) => test(post.title));
    const cases: [string, (title: string) => boolean][] = [
      ['^(a+)+$', (title) => /^a+$/i.test(title)],
      ['(a+)+$', (title) => /a$/i.test(title)],
      ['(a|aa)+$', (title) => /a$/i.test(title)],
      ['(.*){20}x', (title) => /x/i.test(title)],
      ['(\\w+\\s?)*Q', (title) => /q/i.test(title)],
      ['.*.*.*Z', (title) => /z/i.test(title)],
      ['s.*t.*u.*v', (title) => /s.*t.*u.*v/i.test(title)],
    ];
    for (const [pattern, test] of cases) {
      const response = await get(`/posts?title_like=${encodeURIComponent(pattern)}`);
      assert.equal(response.statusCode, 200, pattern);
      assert.deepEqual(json(response), titled(test), pattern);
    }
    assert.ok(titled(cases[1]![1]).length > 0, 'some titles end in a');
    const either = json(await get('/posts?title_like=^sint&title_like=a$'));
    assert.deepEqual(
      either,
      titled((title) => title.startsWith('sint') || title.endsWith('a')),
    );
  });

  it('matches a pattern RE2 cannot run as plain text (this API never answers 400)', async () => {
    for (const pattern of ['(', '[a-', '(a)\\1', 'a(?=b)', 'x\\u0041']) {
      const response = await get(`/posts?title_like=${encodeURIComponent(pattern)}`);
      assert.equal(response.statusCode, 200, pattern);
      assert.equal(response.body, '[]', pattern);
    }
    // Longer than 256 characters: the whole body of a post, as text.
    const post = data.posts.find((entry) => entry.body.length > 256)!;
    const response = await get(`/posts?body_like=${encodeURIComponent(post.body.toUpperCase())}`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(json(response), [post]);
  });

  it('uses each _sort key once and at most 10 of them', async () => {
    const byTitle = [...data.posts].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
    const useless = Array.from({ length: 1500 }, (_, i) => `nothing${i}`);
    assert.deepEqual(json(await get(`/posts?_sort=${['title', ...useless].join(',')}`)), byTitle);
    assert.deepEqual(
      json(await get(`/posts?_sort=${[...useless.slice(0, 10), 'title'].join(',')}`)),
      data.posts,
      'the 11th key is ignored',
    );
    const repeated = [...Array(1500).fill('userId'), 'title'].join(',');
    const orders = ['desc', ...Array(1500).fill('asc')].join(',');
    const expected = [...byTitle].sort((a, b) => b.userId - a.userId);
    assert.deepEqual(json(await get(`/posts?_sort=${repeated}&_order=${orders}`)), expected);
  });

  it('embeds or expands each named relation once, however often it is repeated', async () => {
    const once = await get('/posts?_embed=comments&_expand=user&_limit=3');
    const repeated = await get(
      `/posts?${Array(100).fill('_embed=comments&_expand=user').join('&')}&_embed=nothing&_limit=3`,
    );
    assert.equal(repeated.statusCode, 200);
    assert.equal(repeated.body, once.body);
    assert.deepEqual(Object.keys(json(once)[0]), ['userId', 'id', 'title', 'body', 'comments', 'user']);
  });

  it('answers as docs/posts.md says for _sort given twice, _expand with a plural and _page below 1', async () => {
    // Repeated _sort (and _order) parameters join as one list: userId descending, then id ascending.
    const twice = json(await get('/posts?_sort=userId&_sort=id&_order=desc&_limit=3'));
    assert.deepEqual(
      twice.map((post: { id: number }) => post.id),
      [91, 92, 93],
    );
    const paired = json(await get('/posts?_sort=id&_sort=userId&_order=desc&_order=asc&_limit=3'));
    assert.deepEqual(
      paired.map((post: { id: number }) => post.id),
      [100, 99, 98],
    );
    // _expand takes the singular name: `users` adds nothing.
    assert.equal((await get('/posts/1?_expand=users')).body, pretty(data.posts[0]));
    assert.deepEqual(json(await get('/posts?_expand=users&_limit=2')), data.posts.slice(0, 2));
    // A _page that is not a whole number of at least 1 is page 1, with page 1's Link.
    const first = await get('/posts?_page=1');
    for (const page of ['0', '-1', 'abc', '1.5', '']) {
      const response = await get(`/posts?_page=${page}`);
      assert.equal(response.body, first.body, page);
      assert.equal(response.headers['x-total-count'], '100', page);
      assert.equal(response.headers.link, first.headers.link, page);
    }
  });

  it('searches every field, nested ones included, with q', async () => {
    const matches = (needle: string) => {
      const test = (value: unknown): boolean =>
        typeof value === 'object' && value !== null
          ? Object.values(value).some(test)
          : String(value).toLowerCase().includes(needle.toLowerCase());
      return test;
    };
    const expected = data.comments.filter(matches('DOLOREM'));
    assert.ok(expected.length > 0 && expected.length < 500);
    assert.deepEqual(json(await get('/comments?q=DOLOREM')), expected);
    const city = data.users[5]?.address.city as string;
    const users = json(await get(`/users?q=${encodeURIComponent(city)}`));
    assert.ok(users.length > 0);
    assert.deepEqual(users, data.users.filter(matches(city)));
    assert.ok(users.every((user: { address: { city: string } }) => user.address.city === city));
  });

  it('embeds children with _embed and expands parents with _expand', async () => {
    const post = json(await get('/posts/1?_embed=comments&_expand=user'));
    assert.deepEqual(post, {
      ...data.posts[0],
      comments: data.comments.slice(0, 5),
      user: data.users[0],
    });
    assert.deepEqual(Object.keys(post), ['userId', 'id', 'title', 'body', 'comments', 'user']);
    const list = json(await get('/users?_embed=todos&_embed=posts&_limit=1'));
    assert.deepEqual(list, [
      { ...data.users[0], todos: data.todos.slice(0, 20), posts: data.posts.slice(0, 10) },
    ]);
    const album = json(await get('/albums/1?_embed=photos'));
    assert.deepEqual(album.photos, photos.slice(0, 50));
    assert.deepEqual(json(await get('/comments/1?_expand=post&_embed=nothing&_expand=nothing')), {
      ...data.comments[0],
      post: data.posts[0],
    });
    assert.equal((await get('/posts/1')).body, pretty(data.posts[0]), 'the stored post is not changed');
  });
});

describe('posts: HTTP behaviour', () => {
  it('echoes the Origin with credentials and exposes the paging headers', async () => {
    const response = await get('/posts?_page=1', { origin: 'https://app.example' });
    assert.equal(response.headers['access-control-allow-origin'], 'https://app.example');
    assert.equal(response.headers['access-control-allow-credentials'], 'true');
    assert.equal(
      response.headers['access-control-expose-headers'],
      'x-request-id, x-total-count, link, etag',
    );
  });

  it('answers a preflight with 204 and the allowed methods', async () => {
    const response = await service.app.inject({
      method: 'OPTIONS',
      url: '/posts/1',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'PATCH' },
    });
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['access-control-allow-origin'], 'https://app.example');
    assert.equal(
      response.headers['access-control-allow-methods'],
      'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    );
    assert.equal(response.body, '');
  });

  it('answers If-None-Match with 304, for stored and computed bodies alike', async () => {
    for (const url of ['/posts', '/posts/1', '/posts?_limit=2', '/photos', '/']) {
      const first = await get(url);
      const etag = String(first.headers.etag);
      const again = await get(url, { 'if-none-match': etag });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.body, '', url);
      assert.equal(again.headers.etag, etag, url);
      assert.equal(again.headers['cache-control'], 'max-age=43200', url);
      const changed = await get(url, { 'if-none-match': 'W/"other"' });
      assert.equal(changed.statusCode, 200, url);
    }
    assert.notEqual((await get('/posts/1')).headers.etag, (await get('/posts/2')).headers.etag);
  });

  it('compresses with brotli or gzip when the client accepts it', async () => {
    const plain = await get('/photos');
    const br = await service.app.inject({
      method: 'GET',
      url: '/photos',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers.vary), /Accept-Encoding/);
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 5);
    const gzip = await get('/photos', { 'accept-encoding': 'gzip;q=1, br;q=0' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.rawPayload).toString(), plain.body);
    assert.equal(br.headers.etag, plain.headers.etag);
    const query = await get('/photos?albumId=1&albumId=2', { 'accept-encoding': 'gzip' });
    assert.equal(query.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(gunzipSync(query.rawPayload).toString()), photos.slice(0, 100));
    const small = await get('/posts/1', { 'accept-encoding': 'br' });
    assert.equal(small.headers['content-encoding'], undefined, 'small bodies are sent as they are');
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await service.app.inject({ method: 'HEAD', url: '/posts' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, '');
    assert.equal(response.headers['content-length'], String(Buffer.byteLength(pretty(data.posts))));
  });

  it('serves the placeholder images the photos point at', async () => {
    const photo = photos[0] as (typeof photos)[number];
    for (const url of [photo.url, photo.thumbnailUrl]) {
      const response = await get(url.slice(origin.length));
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'image/png');
      assert.equal(response.headers['cache-control'], 'max-age=43200');
      assert.equal(response.rawPayload.subarray(1, 4).toString(), 'PNG');
      const size = url.includes('/600/') ? 600 : 150;
      assert.equal(response.rawPayload.readUInt32BE(16), size);
    }
    for (const url of [
      '/images/600/zzzzzz.png',
      '/images/601/92c952.png',
      '/images/600/92c952',
      '/images/600/92c9521.png',
    ]) {
      const response = await get(url);
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.body, '{}', url);
    }
  });

  it('builds photo URLs from the Host the client used', async () => {
    const response = await get('/photos/7', { host: 'api.example.test:9000' });
    assert.equal(json(response).url, `http://api.example.test:9000${data.photos[6]?.url}`);
    const bad = await get('/photos/7', { host: 'evil.test/<script>' });
    assert.equal(
      json(bad).url,
      `http://127.0.0.1${data.photos[6]?.url}`,
      'a malformed Host falls back to the service URL',
    );
  });

  it('has a home page listing the resources and routes', async () => {
    const response = await get('/');
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
    for (const name of Object.keys(data)) assert.ok(response.body.includes(`href="/${name}"`), name);
    assert.ok(response.body.includes('/posts/1/comments'));
    assert.ok(response.body.includes('PATCH /posts/1'));
  });

  it('serves the whole dataset at /db', async () => {
    const response = await get('/db');
    assert.equal(response.body, pretty({ ...data, photos }));
  });

  it("lists /db's resources in JSONPlaceholder's order: users before todos", async () => {
    const response = await get('/db');
    assert.deepEqual(Object.keys(JSON.parse(response.body)), [
      'posts',
      'comments',
      'albums',
      'photos',
      'users',
      'todos',
    ]);
  });

  it('documents every route in OpenAPI', async () => {
    const spec = json(await get('/openapi.json'));
    for (const path of [
      '/posts',
      '/posts/{id}',
      '/users/{id}/todos',
      '/albums/{id}/photos',
      '/comments/{id}',
    ]) {
      assert.ok(spec.paths[path], path);
    }
    assert.deepEqual(Object.keys(spec.paths['/posts/{id}']).sort(), ['delete', 'get', 'patch', 'put']);
    assert.ok(
      spec.paths['/posts'].get.parameters.some((parameter: { name: string }) => parameter.name === '_limit'),
    );
  });
});

describe('posts: settings and real sockets', () => {
  it('uses POSTS_PUBLIC_URL for photo URLs when it is set', async () => {
    const fixed = await startTestService(posts, {
      db,
      env: { POSTS_PUBLIC_URL: 'https://cdn.example/api/' },
    });
    try {
      const response = await fixed.app.inject({
        method: 'GET',
        url: '/photos/1',
        headers: { host: 'other.test' },
      });
      assert.equal(json(response).url, `https://cdn.example/api${data.photos[0]?.url}`);
    } finally {
      await fixed.close();
    }
    assert.throws(() => posts.settings({ POSTS_PUBLIC_URL: 'not a url' }), ConfigError);
    assert.throws(() => posts.settings({ POSTS_PUBLIC_URL: 'ftp://x.test' }), /POSTS_PUBLIC_URL/);
  });

  it('serves photos whose URLs resolve over a real socket', async () => {
    const live = await startTestService(posts, { db, listen: true });
    try {
      const photo = (await (await fetch(`${live.url}/photos/42`)).json()) as {
        url: string;
        thumbnailUrl: string;
      };
      assert.equal(photo.url, `${live.url}${data.photos[41]?.url}`);
      const image = await fetch(photo.thumbnailUrl);
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/png');
      const list = await fetch(`${live.url}/photos`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(list.headers.get('content-encoding'), 'br');
      assert.equal(((await list.json()) as unknown[]).length, 5000);
    } finally {
      await live.close();
    }
  });
});
