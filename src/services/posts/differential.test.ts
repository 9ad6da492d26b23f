import assert from 'node:assert/strict';
import { request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../../../test/service.js';
import { buildDataset, photosAt } from './dataset.js';
import { posts } from './index.js';

// The reference is JSONPlaceholder itself as its source builds it (typicode/jsonplaceholder src/app.js): json-server
// 0.17.4's defaults and router over the dataset, reset before every request, so writes are answered, never kept.
const jsonServer = createRequire(import.meta.url)('json-server');

const photoOrigin = 'http://photos.test';
const data = { ...buildDataset(), photos: photosAt(buildDataset().photos, photoOrigin) };

let backlot: TestService;
let reference: Server;
let referenceUrl: string;

before(async () => {
  const app = jsonServer.create();
  const router = jsonServer.router(structuredClone(data));
  app.use((req: { path: string }, _res: unknown, next: () => void) => {
    if (req.path !== '/') router.db.setState(structuredClone(data));
    next();
  });
  app.use(jsonServer.defaults({ logger: false }));
  app.use(router);
  reference = await new Promise<Server>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
  referenceUrl = `http://127.0.0.1:${(reference.address() as { port: number }).port}`;
  // LOG_LEVEL=warn turns the fast path on, so the fixed GETs are compared as they are served at full speed.
  backlot = await startTestService(posts, {
    listen: true,
    env: { LOG_LEVEL: 'warn', POSTS_PUBLIC_URL: photoOrigin },
  });
});

after(async () => {
  reference?.closeAllConnections();
  await new Promise((resolve) => reference?.close(resolve));
  await backlot?.close();
});

interface Step {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

const json = (value: unknown) => JSON.stringify(value);
const step = (method: string, url: string, headers?: Record<string, string>, body?: string): Step => ({
  method,
  url,
  headers,
  body,
});
const override = (method: string, url: string, to: string, body?: unknown) =>
  step(
    method,
    url,
    { 'x-http-method-override': to, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body === undefined ? undefined : json(body),
  );

// Key order matters to clients that print what they get, so bodies are compared as re-serialized text.
const canonical = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
};

/**
 * What a client of the public API reads: status, body (with its key order), X-Total-Count and Link, with the
 * origin made neutral. A created item is 201 on json-server and 200 here (the spec), so 201 reads as 200.
 */
async function answer(base: string, { method, url, headers, body }: Step) {
  const response = await fetch(base + url, { method, headers, body });
  const text = await response.text();
  const local = (value: string | null) =>
    value?.replaceAll(base, 'http://host').replaceAll(photoOrigin, 'http://host') ?? null;
  return {
    status: response.status === 201 ? 200 : response.status,
    body: canonical(text),
    totalCount: response.headers.get('x-total-count'),
    link: local(response.headers.get('link')),
  };
}

async function compare(steps: Step[]) {
  for (const s of steps) {
    const expected = await answer(referenceUrl, s);
    const actual = await answer(backlot.url, s);
    assert.deepEqual(actual, expected, `${s.method} ${s.url} ${json(s.headers ?? {})} ${s.body ?? ''}`);
  }
}

test('reads, queries and writes answer as JSONPlaceholder (json-server 0.17.4) does', async () => {
  await compare([
    step('GET', '/posts'),
    step('GET', '/posts/1'),
    step('GET', '/posts/101'),
    step('GET', '/users/1'),
    step('GET', '/posts/1/comments'),
    step('GET', '/users/2/todos?completed=true'),
    step('GET', '/posts?userId=3&_sort=title&_order=desc'),
    step('GET', '/comments?postId=2&_start=1&_end=3'),
    step('GET', '/photos?albumId=1&_limit=2'),
    step('GET', '/posts?_page=3&_limit=7'),
    step('GET', '/posts?title_like=^qui&_page=1'),
    step('GET', '/posts/1?_embed=comments'),
    step('GET', '/comments/1?_expand=post'),
    step('GET', '/nothing'),
    step('POST', '/posts', { 'content-type': 'application/json' }, json({ title: 'foo', userId: 1 })),
    step('PUT', '/posts/1', { 'content-type': 'application/json' }, json({ title: 'foo' })),
    step('PATCH', '/posts/1', { 'content-type': 'application/json' }, json({ title: 'foo' })),
    step('DELETE', '/posts/1'),
  ]);
});

/** A POST with a body and no Content-Type at all (fetch would add `text/plain`). */
function postUntyped(base: string, body: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(`${base}/posts`, { method: 'POST' }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

test('a body that is not application/json is read as {} (text/plain, no Content-Type, other JSON types)', async () => {
  const body = json({ title: 'foo', userId: 1 });
  await compare([
    step('POST', '/posts', { 'content-type': 'text/plain' }, body),
    step('POST', '/posts', { 'content-type': 'text/plain;charset=UTF-8' }, body),
    step('POST', '/posts', { 'content-type': 'application/vnd.api+json' }, body),
    step('POST', '/posts', { 'content-type': 'application/json; charset=utf-8' }, body),
    step('POST', '/posts', { 'content-type': 'Application/JSON' }, body),
    step('PUT', '/posts/2', { 'content-type': 'text/plain' }, body),
    step('PATCH', '/posts/2', { 'content-type': 'text/plain' }, body),
  ]);
  const untyped = await Promise.all([referenceUrl, backlot.url].map((base) => postUntyped(base, body)));
  assert.deepEqual(untyped[1], { ...untyped[0], status: 200 });
  assert.deepEqual(JSON.parse(untyped[1].body), { id: 101 });
  // fetch sends a string body as text/plain: the answer is the id alone.
  const response = await fetch(`${backlot.url}/posts`, { method: 'POST', body });
  assert.equal(response.status, 200);
  assert.equal(await response.text(), JSON.stringify({ id: 101 }, null, 2));
});

test('paths match whatever their case, as on Express', async () => {
  await compare([
    step('GET', '/POSTS'),
    step('GET', '/Posts/1'),
    step('GET', '/POSTS/100'),
    step('GET', '/Users/1'),
    step('GET', '/POSTS?_limit=2'),
    step('GET', '/POSTS?_page=2'),
    step('GET', '/posts/1/Comments'),
    step('GET', '/Posts/1?_embed=comments'),
    step('GET', '/DB'),
    step('POST', '/POSTS', { 'content-type': 'application/json' }, json({ title: 'foo' })),
    step('PUT', '/Posts/2', { 'content-type': 'application/json' }, json({ title: 'foo' })),
    step('PATCH', '/POSTS/2', { 'content-type': 'application/json' }, json({ title: 'foo' })),
    step('DELETE', '/Posts/3'),
    step('GET', '/Posts/1/Nothing'),
  ]);
  // The uppercase path shares the lowercase one's cached answer and ETag.
  const [lower, upper] = await Promise.all([
    fetch(`${backlot.url}/posts/7`),
    fetch(`${backlot.url}/POSTS/7`),
  ]);
  assert.equal(upper.headers.get('etag'), lower.headers.get('etag'));
  assert.equal(await upper.text(), await lower.text());
});

test('X-HTTP-Method-Override on a POST is honoured, as json-server does', async () => {
  await compare([
    override('POST', '/posts/2', 'DELETE'),
    override('POST', '/posts/2', 'delete'),
    override('POST', '/posts/2', 'PUT', { title: 'foo' }),
    override('POST', '/posts/2', 'PATCH', { title: 'foo' }),
    override('POST', '/posts/2', 'PATCH, DELETE', { title: 'foo' }),
    override('POST', '/posts/2', 'GET'),
    override('POST', '/posts?userId=2', 'GET'),
    override('POST', '/posts/999', 'DELETE'),
    override('POST', '/posts', 'DELETE'),
    override('POST', '/posts', 'PUT', { title: 'foo' }),
    override('POST', '/posts', 'TRACE'),
    override('POST', '/posts', 'nonsense', { title: 'foo' }),
    override('POST', '/posts', 'POST', { title: 'foo' }),
    override('PUT', '/posts/3', 'DELETE', { title: 'foo' }),
    override('PATCH', '/posts/3', 'DELETE', { title: 'foo' }),
    override('DELETE', '/posts/3', 'PUT', { title: 'foo' }),
    override('POST', '/Posts/4', 'DELETE'),
    override('POST', '/', 'GET'),
  ]);
});

test('a page with nothing to link sends an empty Link header, as json-server does', async () => {
  await compare([
    step('GET', '/posts?_page=1&_limit=100'),
    step('GET', '/posts?_page=20'),
    step('GET', '/posts?userId=1&_page=1'),
    step('GET', '/users/1/posts?_page=1'),
  ]);
  const response = await fetch(`${backlot.url}/posts?_page=1&_limit=100`);
  assert.equal(response.headers.get('link'), '');
  assert.equal(response.headers.get('x-total-count'), '100');
  assert.equal((await fetch(`${backlot.url}/posts?_limit=5`)).headers.get('link'), null);
});

test('where the docs decide otherwise (HEAD and OPTIONS overrides, nested paths in capitals)', async () => {
  // json-server sends a Content-Length and no body to a HEAD override, so its client hangs; here it stays a POST.
  const head = await fetch(`${backlot.url}/posts`, {
    method: 'POST',
    headers: { 'x-http-method-override': 'HEAD' },
  });
  assert.equal(head.status, 200);
  assert.deepEqual(await head.json(), { id: 101 });
  const options = await fetch(`${backlot.url}/posts/2`, {
    method: 'POST',
    headers: { 'x-http-method-override': 'OPTIONS' },
  });
  assert.equal(options.status, 404);
  assert.deepEqual(await options.json(), {});
  // json-server filters `/POSTS/1/COMMENTS` by a `POSTId` no comment has, so it lists all 500; here post 1's five.
  const nested = await fetch(`${backlot.url}/POSTS/1/COMMENTS`);
  assert.equal(nested.status, 200);
  assert.deepEqual(
    ((await nested.json()) as { id: number }[]).map((comment) => comment.id),
    [1, 2, 3, 4, 5],
  );
  const expected = await answer(referenceUrl, step('GET', '/POSTS/1/COMMENTS'));
  assert.equal(expected.totalCount, null);
  assert.equal(JSON.parse(expected.body).length, 500);
});
