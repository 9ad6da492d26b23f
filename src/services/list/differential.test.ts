import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createTestDatabase } from '../../../test/db.js';
import { startTestService, type TestService } from '../../../test/service.js';
import type { Database } from '../../platform/database.js';
import { list } from './index.js';
import type { ListSettings } from './settings.js';

// json-server 0.17.4 is the reference: the same requests over the same starting file must get the same answers.
const jsonServer = createRequire(import.meta.url)('json-server');

const startingData = {
  list: [
    { id: 1, item: 'bread', qty: 2, shop: { name: 'Bakery' } },
    { id: 2, item: 'grapes', qty: 1, shop: { name: 'Market' } },
    { id: 3, item: 'Brie', qty: 1, shop: { name: 'Market' } },
    { id: 4, item: 'milk', qty: 3 },
    { id: 5, item: 'broccoli', qty: 2 },
    { id: 6, item: 'apples', qty: 6 },
  ],
  shops: [{ id: 'bk', name: 'Bakery' }],
  posts: [
    { id: 1, title: 'Soup' },
    { id: 2, title: 'Bread' },
  ],
  comments: [
    { id: 1, body: 'good', postId: 1 },
    { id: 2, body: 'salty', postId: 1 },
    { id: 3, body: 'crusty', postId: 2 },
    { id: 4, body: 'text key', postId: '1' },
  ],
  notes: [{ id: 1, text: 'fresh', listId: 1 }],
  profile: { name: 'typicode', city: 'Paris' },
  shadowed: [{ id: 1 }],
};

// A routes file as json-server's README shows them; rules that match no other test's path.
const routes = {
  '/api/*': '/$1',
  '/blog/:resource/:id/show': '/:resource/:id',
  '/comments/special/:postId-:body': '/comments?postId=:postId&body=:body',
  '/firstpost': '/posts/1?_embed=comments',
  '/articles\\?_id=:id': '/posts/:id',
  '/r/:resource/:id?': '/:resource/:id',
  '/v1/*': '/api/$1',
};

let db: Database;
let backlot: TestService<ListSettings>;
let reference: Server;
let referenceUrl: string;
let referenceFile: string;
let backlotFile: string;

before(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'backlot-list-diff-'));
  referenceFile = path.join(dir, 'reference.json');
  backlotFile = path.join(dir, 'backlot.json');
  writeFileSync(referenceFile, JSON.stringify(startingData, null, 2));
  writeFileSync(backlotFile, JSON.stringify(startingData, null, 2));
  // Static files beside the data file, as json-server served `public/` ahead of its API.
  const publicDir = path.join(dir, 'public');
  mkdirSync(path.join(publicDir, 'sub'), { recursive: true });
  writeFileSync(path.join(publicDir, 'index.html'), '<h1>my app</h1>');
  writeFileSync(path.join(publicDir, 'hello.txt'), 'hello');
  writeFileSync(path.join(publicDir, 'sub', 'index.html'), '<p>sub</p>');
  writeFileSync(path.join(publicDir, 'shadowed'), 'a file named like a resource');
  writeFileSync(path.join(publicDir, '.secret'), 'hidden');
  const routesFile = path.join(dir, 'routes.json');
  writeFileSync(routesFile, JSON.stringify(routes));

  const app = jsonServer.create();
  app.use(jsonServer.defaults({ logger: false, static: publicDir }));
  app.use(jsonServer.rewriter(routes));
  app.use(jsonServer.router(referenceFile));
  reference = await new Promise<Server>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
  referenceUrl = `http://127.0.0.1:${(reference.address() as { port: number }).port}`;

  db = await createTestDatabase();
  backlot = await startTestService(list, {
    db,
    listen: true,
    env: { LIST_DELAY_MS: '0', LIST_FILE: backlotFile, LIST_ROUTES: routesFile, LIST_JSONP: 'true' },
  });
});

after(async () => {
  reference?.closeAllConnections();
  await new Promise((resolve) => reference?.close(resolve));
  await backlot?.close();
  await db?.close();
});

type Step = [method: string, path: string, body?: unknown, headers?: Record<string, string>];

// Key order matters to clients that print what they get, so bodies are compared as re-serialized text.
const canonical = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text; // json-server answers its own failures with a stack trace
  }
};

/** Status, body (with its key order) and the headers json-server clients read; the host is the only difference. */
async function answer(base: string, [method, url, body, headers = {}]: Step) {
  const response = await fetch(base + url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const local = (value: string | null) => value?.replaceAll(base, 'http://host') ?? null;
  return {
    status: response.status,
    body: canonical(text),
    totalCount: response.headers.get('x-total-count'),
    link: local(response.headers.get('link')),
    location: local(response.headers.get('location')),
    etag: response.headers.get('etag'),
    cacheControl: response.headers.get('cache-control'),
    pragma: response.headers.get('pragma'),
    expires: response.headers.get('expires'),
    nosniff: response.headers.get('x-content-type-options'),
  };
}

const sameSequence: Step[] = [
  ['GET', '/list'],
  ['GET', '/list/1'],
  ['GET', '/list/99'],
  ['GET', '/list/abc'],
  ['GET', '/list?item=bread'],
  ['GET', '/list?id=1&id=3'],
  ['GET', '/list?id_gte=3'],
  ['GET', '/list?id_lte=2'],
  ['GET', '/list?qty_ne=2'],
  ['GET', '/list?item_like=^b'],
  ['GET', '/list?q=BR'],
  ['GET', '/list?q=market'],
  ['GET', '/list?q=br&q=market'],
  ['GET', '/list?q=market&q=br'],
  ['GET', '/list?shop.name=Market'],
  ['GET', '/list?nofield=1'],
  ['GET', '/list?_sort=item'],
  ['GET', '/list?_sort=item&_order=desc'],
  ['GET', '/list?_sort=qty,id&_order=desc,asc'],
  ['GET', '/list?_sort=shop.name'],
  ['GET', '/list?_start=1&_end=3'],
  ['GET', '/list?_end=2'],
  ['GET', '/list?_start=2&_limit=2'],
  ['GET', '/list?_limit=4'],
  ['GET', '/list?_page=2&_limit=2'],
  ['GET', '/list?_page=1'],
  ['GET', '/list?_page=3&_limit=4'],
  ['GET', '/list?_page=0&_limit=5'],
  ['GET', '/list?qty=1&_sort=id&_order=desc&_page=1&_limit=1'],
  ['GET', '/db'],
  ['GET', '/nothing'],
  ['GET', '/list/1/extra'],
  ['POST', '/list', { item: 'milk' }],
  ['POST', '/list', { item: 'eggs', qty: 12 }],
  ['POST', '/list', { id: 50, item: 'salt' }],
  ['POST', '/list', { item: 'rice' }],
  ['PUT', '/list/3', { item: 'camembert', extra: 1 }],
  ['PUT', '/list/3', { id: 99, item: 'comté' }],
  ['PATCH', '/list/4', { done: true }],
  ['PATCH', '/list/4', { id: 77, item: 'oat milk' }],
  ['PUT', '/list/999', { item: 'x' }],
  ['PATCH', '/list/999', { item: 'x' }],
  ['DELETE', '/list/2'],
  ['DELETE', '/list/2'],
  ['PUT', '/list', { item: 'x' }],
  ['GET', '/list'],
  ['GET', '/shops'],
  ['POST', '/shops', { id: 'dl', name: 'Deli' }],
  ['GET', '/shops/dl'],
  ['PATCH', '/shops/bk', { open: true }],
  ['DELETE', '/shops/dl'],
  ['GET', '/db'],
  ['GET', '/LIST'],
  ['GET', '/List/1'],
  ['GET', '/LIST?_sort=item&_limit=2'],
  ['GET', '/Shops/BK'],
  ['GET', '/SHOPS/bk'],
  ['GET', '/DB'],
  ['POST', '/LIST', { item: 'tea' }],
  ['PATCH', '/List/1', { qty: 3 }],
  ['PUT', '/Shops/bk', { name: 'Bakery' }],
  ['DELETE', '/LIST/50'],
  ['GET', '/Nothing'],
  ['GET', '/db'],
];

test('the same request sequence gets the same statuses, bodies and headers as json-server 0.17.4', async () => {
  for (const step of sameSequence) {
    const expected = await answer(referenceUrl, step);
    const actual = await answer(backlot.url, step);
    assert.deepEqual(actual, expected, `${step[0]} ${step[1]} ${JSON.stringify(step[2] ?? '')}`);
  }
  assert.equal(
    JSON.stringify(JSON.parse(readFileSync(backlotFile, 'utf8'))),
    JSON.stringify(JSON.parse(readFileSync(referenceFile, 'utf8'))),
  );
});

const override = (to: string) => ({ 'x-http-method-override': to });

/** Runs the steps on both servers in turn, then requires the same files; returns the statuses, to be checked too. */
async function sameAnswers(steps: Step[]) {
  const statuses: number[] = [];
  for (const step of steps) {
    const expected = await answer(referenceUrl, step);
    const actual = await answer(backlot.url, step);
    const headers = step[3] ? ` ${JSON.stringify(step[3])}` : '';
    assert.deepEqual(actual, expected, `${step[0]} ${step[1]} ${JSON.stringify(step[2] ?? '')}${headers}`);
    statuses.push(actual.status);
  }
  assert.equal(
    JSON.stringify(JSON.parse(readFileSync(backlotFile, 'utf8'))),
    JSON.stringify(JSON.parse(readFileSync(referenceFile, 'utf8'))),
  );
  return statuses;
}

test('_embed and _expand on collections and items, as json-server 0.17.4 answers them', async () => {
  const statuses = await sameAnswers([
    ['GET', '/posts?_embed=comments'],
    ['GET', '/posts?_embed=comments&_embed=notes'],
    ['GET', '/posts/1?_embed=comments'],
    ['GET', '/posts/2?_embed=comments&_embed=nothing'],
    ['GET', '/posts?_embed=comments&_sort=id&_order=desc&_limit=1'],
    ['GET', '/posts?_embed=comments&title=Soup'],
    ['GET', '/comments?_expand=post'],
    ['GET', '/comments?_expand=post&_embed=notes&postId=1'],
    ['GET', '/comments/3?_expand=post'],
    ['GET', '/comments/4?_expand=post'],
    ['GET', '/comments/1?_expand=user'],
    ['GET', '/list?_embed=notes&_limit=2'],
    ['GET', '/list/1?_embed=notes'],
    ['GET', '/notes?_expand=list'],
    ['GET', '/posts/9?_embed=comments'],
    ['GET', '/posts'],
  ]);
  assert.deepEqual(
    statuses,
    [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 200],
  );
});

test('nested routes: GET /posts/1/comments filters by postId, POST there sets it, as json-server 0.17.4', async () => {
  const statuses = await sameAnswers([
    ['GET', '/posts/1/comments'],
    ['GET', '/posts/2/comments?_sort=id&_order=desc'],
    ['GET', '/posts/9/comments'],
    ['GET', '/Posts/1/COMMENTS'],
    ['GET', '/nothing/1/comments'],
    ['GET', '/posts/1/nothing'],
    ['GET', '/posts/1/comments?_page=1&_limit=1'],
    ['GET', '/posts/1/comments?_expand=post&body_like=^s'],
    ['POST', '/posts/1/comments', { body: 'new' }],
    ['POST', '/posts/2/comments', { body: 'own key', postId: 7 }],
    ['POST', '/list/1/notes', { text: 'ripe' }],
    ['POST', '/posts/1/nothing', { a: 1 }],
    ['PUT', '/posts/1/comments', { body: 'x' }],
    ['DELETE', '/posts/1/comments'],
    ['GET', '/posts/1/comments'],
    ['GET', '/list/1/notes'],
  ]);
  assert.deepEqual(
    statuses,
    [200, 200, 200, 200, 200, 404, 200, 200, 201, 201, 201, 404, 404, 404, 200, 200],
  );
});

test('a top-level object is a singular resource: GET, POST and PUT replace, PATCH merges, as json-server 0.17.4', async () => {
  const statuses = await sameAnswers([
    ['GET', '/profile'],
    ['GET', '/PROFILE'],
    ['GET', '/profile?name=x&_embed=posts'],
    ['GET', '/profile/1'],
    ['PATCH', '/profile', { city: 'Lyon', age: 40 }],
    ['PUT', '/profile', { nick: 'tc' }],
    ['POST', '/profile', { name: 'replaced', tags: ['a'] }],
    ['POST', '/Profile', { name: 'case' }],
    ['DELETE', '/profile'],
    ['PUT', '/profile/1', { name: 'x' }],
    ['GET', '/posts/1/profile'],
    ['POST', '/posts/1/profile', { name: 'nested' }],
    ['PUT', '/posts', { name: 'x' }],
    ['PATCH', '/nothing', { name: 'x' }],
    ['GET', '/profile'],
    ['GET', '/db'],
  ]);
  assert.deepEqual(
    statuses,
    [200, 200, 200, 404, 200, 200, 201, 201, 404, 404, 200, 201, 404, 404, 200, 200],
  );
});

test('custom routes (a routes file, LIST_ROUTES) rewrite URLs as json-server 0.17.4 --routes does', async () => {
  const statuses = await sameAnswers([
    ['GET', '/api/list/1'],
    ['GET', '/API/posts?_embed=comments'],
    ['GET', '/blog/posts/1/show'],
    ['GET', '/BLOG/posts/2/show/'],
    ['GET', '/blog/posts/2/show?x=1'],
    ['GET', '/comments/special/1-good'],
    ['GET', '/firstpost'],
    ['GET', '/articles?_id=2'],
    ['GET', '/r/posts/1'],
    ['GET', '/r/posts'],
    ['GET', '/v1/shops'],
    ['GET', '/api/list?_page=2&_limit=2'],
    ['POST', '/api/shops', { id: 'rw', name: 'Rewritten' }],
    ['POST', '/api/shops/rw', { open: false }, override('PATCH')],
    ['PATCH', '/api/shops/rw', { open: true }],
    ['DELETE', '/api/shops/rw'],
    ['GET', '/api/nothing'],
    ['GET', '/__rules'],
    ['GET', '/shops'],
  ]);
  assert.deepEqual(
    statuses,
    [200, 200, 200, 200, 404, 200, 200, 200, 200, 404, 404, 200, 201, 200, 200, 200, 404, 200, 200],
  );
});

test('_delay=<ms> waits that long more (through the harness delay), on collections, items and writes, as json-server 0.17.4', async () => {
  const timed = async (base: string, step: Step) => {
    const began = Date.now();
    const result = await answer(base, step);
    return { ...result, ms: Date.now() - began };
  };
  const cases: [step: Step, waits: boolean][] = [
    [['GET', '/list?_delay=600'], true],
    [['GET', '/posts/1?_delay=600&_embed=comments'], true],
    [['PATCH', '/shops/bk?_delay=600', { late: true }], true],
    [['GET', '/list?_delay=abc'], false],
    [['GET', '/list?_delay=-50'], false],
  ];
  for (const [step, waits] of cases) {
    const { ms: referenceMs, ...expected } = await timed(referenceUrl, step);
    const { ms, ...actual } = await timed(backlot.url, step);
    assert.deepEqual(actual, expected, step[1]);
    if (waits) {
      assert.ok(referenceMs >= 600 && ms >= 600, `${step[1]}: ${referenceMs} and ${ms} ms`);
    } else {
      assert.ok(referenceMs < 400 && ms < 400, `${step[1]}: ${referenceMs} and ${ms} ms`);
    }
  }
});

test('_delay over the harness maximum (600000 ms) is 400, where json-server would wait that long', async () => {
  const began = Date.now();
  const response = await fetch(`${backlot.url}/list?_delay=600001`);
  assert.equal(response.status, 400);
  assert.deepEqual(await response.json(), { error: '_delay: must be at most 600000 ms, got "600001"' });
  assert.ok(Date.now() - began < 400);
});

test('files of public/ beside the data file are served ahead of the API, index.html at /, as json-server 0.17.4', async () => {
  const seen = async (base: string, method: string, url: string) => {
    const response = await fetch(base + url, { method });
    const type = response.headers.get('content-type')?.toLowerCase();
    return { status: response.status, type, body: canonical(await response.text()) };
  };
  const cases: [method: string, url: string, status: number][] = [
    ['GET', '/', 200],
    ['GET', '/index.html', 200],
    ['GET', '/hello.txt', 200],
    ['HEAD', '/hello.txt', 200],
    ['GET', '/hello.txt?x=1', 200],
    ['GET', '/sub/', 200],
    ['GET', '/shadowed', 200],
    ['GET', '/shadowed/1', 200],
    ['DELETE', '/hello.txt', 404],
    ['GET', '/.secret', 404],
    ['GET', '/sub/../hello.txt', 200],
    ['GET', '/%2e%2e/reference.json', 404],
    ['GET', '/missing.txt', 404],
    ['GET', '/posts/1', 200],
  ];
  for (const [method, url, status] of cases) {
    const expected = await seen(referenceUrl, method, url);
    const actual = await seen(backlot.url, method, url);
    assert.deepEqual(actual, expected, `${method} ${url}`);
    assert.equal(actual.status, status, `${method} ${url}`);
  }
});

test('JSONP (LIST_JSONP=true): ?callback=fn wraps every JSON answer as json-server 0.17.4 (Express res.jsonp) does', async () => {
  const steps: Step[] = [
    ['GET', '/list?callback=cb'],
    ['GET', '/list/1?callback=cb&_=1700000000'],
    ['GET', '/list/99?callback=cb'],
    ['GET', '/nothing?callback=cb'],
    ['GET', '/db?callback=my.ns[0]'],
    ['GET', '/profile?callback=a!b(c)%3Balert(1)'],
    ['GET', '/list?callback=&_limit=1'],
    ['GET', '/list?callback=first&callback=second&_limit=1'],
    ['GET', '/posts/1/comments?callback=cb'],
    ['PATCH', '/shops/bk?callback=cb', { jsonp: true }],
  ];
  for (const step of steps) {
    const headersOf = async (base: string) => {
      const response = await fetch(base + step[1], {
        method: step[0],
        headers: step[2] === undefined ? {} : { 'content-type': 'application/json' },
        body: step[2] === undefined ? undefined : JSON.stringify(step[2]),
      });
      await response.text();
      return [response.headers.get('content-type'), response.headers.get('x-content-type-options')];
    };
    assert.deepEqual(await answer(backlot.url, step), await answer(referenceUrl, step), step[1]);
    assert.deepEqual(await headersOf(backlot.url), await headersOf(referenceUrl), step[1]);
  }
  const wrapped = await fetch(`${backlot.url}/list/1?callback=cb`);
  assert.equal(wrapped.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.match(await wrapped.text(), /^\/\*\*\/ typeof cb === 'function' && cb\(\{\n {2}"id": 1,/);
});

test('Access-Control-Expose-Headers: every header json-server exposes on an answer is exposed here too', async () => {
  const steps: Step[] = [
    ['GET', '/list?_page=1&_limit=2'],
    ['GET', '/list?_end=2'],
    ['GET', '/list?_limit=1'],
    ['POST', '/shops', { id: 'cors', name: 'Cross' }],
    ['POST', '/profile', { name: 'cors' }],
    ['GET', '/list'],
    ['GET', '/list/99'],
  ];
  const exposed = async (base: string, [method, url, body]: Step) => {
    const response = await fetch(base + url, {
      method,
      headers: {
        origin: 'http://app.test',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await response.text();
    return (response.headers.get('access-control-expose-headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean);
  };
  const seen: string[][] = [];
  for (const step of steps) {
    const theirs = await exposed(referenceUrl, step);
    const ours = await exposed(backlot.url, step);
    assert.deepEqual(ours, ['x-request-id', 'x-total-count', 'link', 'location'], step[1]);
    for (const name of theirs) assert.ok(ours.includes(name), `${step[1]}: ${name}`);
    seen.push(theirs);
  }
  assert.deepEqual(seen, [
    ['x-total-count', 'link'],
    ['x-total-count'],
    ['x-total-count'],
    ['location'],
    ['location'],
    [],
    [],
  ]);
});

test('_expand on an item without the key: json-server fails with 500, backlot leaves the key out', async () => {
  const expected = await answer(referenceUrl, ['GET', '/list/5?_expand=shop']);
  assert.equal(expected.status, 500);
  const actual = await answer(backlot.url, ['GET', '/list/5?_expand=shop']);
  assert.equal(actual.status, 200);
  assert.equal(actual.body, '{"id":5,"item":"broccoli","qty":2}');
});

test('X-HTTP-Method-Override turns a POST into the method it names, as json-server does', async () => {
  const statuses = await sameAnswers([
    ['POST', '/shops', { id: 'mo', name: 'Override' }],
    ['POST', '/shops/mo', { name: 'Replaced' }, override('PUT')],
    ['POST', '/shops/mo', { open: true }, override('patch')],
    ['POST', '/shops/mo', undefined, override('GET')],
    ['POST', '/shops/mo', undefined, override('DELETE')],
    ['POST', '/shops/mo', undefined, override('GET')],
    ['POST', '/shops', { id: 'm2', name: 'Kept' }, override('NOPE')],
    ['GET', '/shops/mo', undefined, override('DELETE')],
    ['GET', '/shops'],
  ]);
  assert.deepEqual(statuses, [201, 200, 200, 200, 200, 404, 201, 404, 200]);
});

/** A conditional GET over node:http: fetch adds `Cache-Control: no-cache` to it, which disables 304 in Express. */
function conditionalGet(base: string, url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const request = httpRequest(base + url, { headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => {
          const { etag, pragma, expires } = response.headers;
          const kept = { etag, pragma, expires, 'cache-control': response.headers['cache-control'] };
          const length = response.headers['content-length'];
          const type = response.headers['content-type'];
          resolve({ status: response.statusCode ?? 0, headers: { ...kept, length, type }, body });
        });
      });
      request.on('error', reject);
      request.end();
    },
  );
}

test('ETag and If-None-Match as Express answers them: 304 with no body on a match, 200 otherwise', async () => {
  const first = await fetch(`${backlot.url}/list/1`);
  const tag = first.headers.get('etag') ?? '';
  assert.match(tag, /^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
  const cases: [string, Record<string, string>][] = [
    ['/list/1', { 'if-none-match': tag }],
    ['/list/1', { 'if-none-match': tag.slice(2) }],
    ['/list/1', { 'if-none-match': `W/"x", ${tag}` }],
    ['/list/1', { 'if-none-match': '*' }],
    ['/list/1', { 'if-none-match': 'W/"nope"' }],
    ['/list/1', { 'if-none-match': tag, 'cache-control': 'no-cache' }],
    ['/list/1', { 'if-none-match': tag, 'if-modified-since': 'Mon, 01 Jan 2024 00:00:00 GMT' }],
    ['/list/98', { 'if-none-match': 'W/"2-vyGp6PvFo4RvsFtPoIWeCReyIC8"' }],
  ];
  for (const [url, headers] of cases) {
    const expected = await conditionalGet(referenceUrl, url, headers);
    const actual = await conditionalGet(backlot.url, url, headers);
    assert.deepEqual(actual, expected, `${url} ${JSON.stringify(headers)}`);
  }
  const notModified = await conditionalGet(backlot.url, '/list/1', { 'if-none-match': tag });
  assert.equal(notModified.status, 304);
  assert.equal(notModified.body, '');
});

test('a page with nothing to link sends an empty Link header, as json-server does', async () => {
  const counts = [];
  for (const base of [referenceUrl, backlot.url]) {
    const response = await fetch(`${base}/list?_page=1&_limit=100`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('link'), '', base);
    counts.push(response.headers.get('x-total-count'));
  }
  assert.equal(counts[0], counts[1]);
});

// After the cases that read post 1 and its comments (it deletes them), before those where the files differ on purpose.
test('DELETE also removes the items whose <name>Id points at a missing item, as json-server 0.17.4', async () => {
  const statuses = await sameAnswers([
    ['GET', '/comments'],
    ['DELETE', '/posts/1'],
    ['GET', '/comments'],
    ['GET', '/posts/1/comments'],
    ['GET', '/posts'],
  ]);
  assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
});

test('where the issue decides otherwise: validation is 400 and a taken id 409, where json-server stored or failed', async () => {
  const deviations: [Step, number, number][] = [
    [['POST', '/list', { item: 5 }], 201, 400],
    [['POST', '/list', { qty: 1 }], 201, 400],
    [['POST', '/list', ['bread']], 201, 400],
    [['POST', '/list', { id: 1, item: 'again' }], 500, 409],
    [['POST', '/list', { id: 0, item: 'tea' }], 201, 400],
    [['GET', '/list?item_like=('], 500, 400],
    [['POST', '/LIST', { item: 5 }], 201, 400],
  ];
  for (const [step, referenceStatus, backlotStatus] of deviations) {
    const expected = await answer(referenceUrl, step);
    const actual = await answer(backlot.url, step);
    assert.equal(expected.status, referenceStatus, `json-server: ${step[1]} ${JSON.stringify(step[2])}`);
    assert.equal(actual.status, backlotStatus, `backlot: ${step[1]} ${JSON.stringify(step[2])}`);
    assert.deepEqual(Object.keys(JSON.parse(actual.body)), ['error']);
  }
});

test('a text/plain body is 415 and a __proto__ key 400 (json-server stored an empty item and the key)', async () => {
  const cases: [
    headers: Record<string, string>,
    body: string,
    referenceStatus: number,
    status: number,
    error: string,
  ][] = [
    [
      { 'content-type': 'text/plain' },
      'milk',
      201,
      415,
      'Unsupported Media Type: text/plain; send application/json (or an urlencoded form)',
    ],
    [
      { 'content-type': 'application/json' },
      '{"item": "milk", "__proto__": {"admin": true}}',
      201,
      400,
      'The JSON body has a "__proto__" or "constructor.prototype" key, which is refused',
    ],
    [
      { 'content-type': 'application/json' },
      '{"item": "milk", "constructor": {"prototype": {"admin": true}}}',
      201,
      400,
      'The JSON body has a "__proto__" or "constructor.prototype" key, which is refused',
    ],
  ];
  for (const [headers, body, referenceStatus, status, error] of cases) {
    const expected = await fetch(`${referenceUrl}/list`, { method: 'POST', headers, body });
    assert.equal(expected.status, referenceStatus, body);
    await expected.text();
    const actual = await fetch(`${backlot.url}/list`, { method: 'POST', headers, body });
    assert.equal(actual.status, status, body);
    assert.equal(actual.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(await actual.json(), { error });
  }
});
