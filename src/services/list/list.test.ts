import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase } from '../../../test/db.js';
import { startTestService, type TestService } from '../../../test/service.js';
import type { Database } from '../../platform/database.js';
import { list } from './index.js';
import type { ListSettings } from './settings.js';

let db: Database;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db.close();
});

const start = (env: Record<string, string> = {}, listen = false) =>
  startTestService(list, { db, listen, env: { LIST_DELAY_MS: '0', ...env } });

const fileOf = (service: TestService<ListSettings>) => path.join(service.dataDir, 'list.json');
const stored = (service: TestService<ListSettings>) => JSON.parse(readFileSync(fileOf(service), 'utf8'));

describe('the spec flows with the real 1500 ms delay', () => {
  test('GET /list and POST /list answer after the delay; the file holds the new item', async () => {
    const service = await start({ LIST_DELAY_MS: '' }, true);
    try {
      let began = Date.now();
      const listed = await fetch(`${service.url}/list`);
      assert.ok(Date.now() - began >= 1500, `answered after ${Date.now() - began} ms`);
      assert.equal(listed.status, 200);
      assert.deepEqual(await listed.json(), [
        { id: 1, item: 'bread' },
        { id: 2, item: 'grapes' },
      ]);

      began = Date.now();
      const created = await fetch(`${service.url}/list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ item: 'milk' }),
      });
      assert.ok(Date.now() - began >= 1500);
      assert.equal(created.status, 201);
      assert.equal(await created.text(), '{\n  "item": "milk",\n  "id": 3\n}');
      assert.equal(created.headers.get('location'), `${service.url}/list/3`);
      assert.deepEqual(stored(service), {
        list: [
          { id: 1, item: 'bread' },
          { id: 2, item: 'grapes' },
          { item: 'milk', id: 3 },
        ],
      });
    } finally {
      await service.close();
    }
  });

  test('the home page, docs, health and CORS preflights are not delayed; misses are', async () => {
    const service = await start({ LIST_DELAY_MS: '1500' }, true);
    try {
      for (const url of ['/', '/docs', '/openapi.json', '/healthz', '/readyz']) {
        const began = Date.now();
        const response = await fetch(service.url + url);
        assert.equal(response.status, 200, url);
        assert.ok(Date.now() - began < 1000, `${url} took ${Date.now() - began} ms`);
      }
      let began = Date.now();
      const preflight = await fetch(`${service.url}/list`, {
        method: 'OPTIONS',
        headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' },
      });
      assert.equal(preflight.status, 204);
      assert.ok(Date.now() - began < 1000);

      began = Date.now();
      const miss = await fetch(`${service.url}/nothing-here`);
      assert.equal(miss.status, 404);
      assert.deepEqual(await miss.json(), {});
      assert.ok(Date.now() - began >= 1500);
    } finally {
      await service.close();
    }
  });

  test('1,000 concurrent clients are all answered after about the delay', async () => {
    const service = await start({ LIST_DELAY_MS: '1500' }, true);
    try {
      const began = Date.now();
      const statuses = await Promise.all(
        Array.from({ length: 1000 }, () => fetch(`${service.url}/list/1`).then((r) => r.status)),
      );
      const took = Date.now() - began;
      assert.deepEqual(new Set(statuses), new Set([200]));
      // Served one after another they would take 25 minutes; the bound is loose because test machines are busy.
      assert.ok(took >= 1500 && took < 60_000, `took ${took} ms`);
    } finally {
      await service.close();
    }
  });
});

describe('items (delay 0)', () => {
  let service: TestService<ListSettings>;
  before(async () => {
    service = await start();
  });
  after(async () => {
    await service.close();
  });

  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    service.app.inject({ method, url, payload: payload as object });

  test('GET /list/:id returns the item; unknown and non-integer ids are 404 {}', async () => {
    const found = await send('GET', '/list/2');
    assert.equal(found.statusCode, 200);
    assert.equal(found.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(found.json(), { id: 2, item: 'grapes' });
    for (const id of ['99', 'abc', '1.5', '-1', '01']) {
      const missing = await send('GET', `/list/${id}`);
      assert.equal(missing.statusCode, 404, id);
      assert.equal(missing.body, '{}');
    }
  });

  test('POST keeps the body order then the id, extra fields are stored, a free client id is used', async () => {
    const created = await send('POST', '/list', { item: 'eggs', qty: 12 });
    assert.equal(created.statusCode, 201);
    assert.equal(JSON.stringify(created.json()), '{"item":"eggs","qty":12,"id":3}');
    assert.equal(created.headers.location, 'http://localhost:80/list/3');
    const chosen = await send('POST', '/list', { id: 10, item: 'salt' });
    assert.equal(chosen.statusCode, 201);
    assert.equal(JSON.stringify(chosen.json()), '{"id":10,"item":"salt"}');
    const next = await send('POST', '/list', { item: 'rice' });
    assert.equal(next.json().id, 11);
    assert.deepEqual(
      stored(service).list.map((i: { id: number }) => i.id),
      [1, 2, 3, 10, 11],
    );
  });

  test('bad bodies are 400 {error}, a taken id is 409, and nothing is stored', async () => {
    const before = readFileSync(fileOf(service), 'utf8');
    const cases: [unknown, string | undefined, number, RegExp][] = [
      [{}, undefined, 400, /item/],
      [{ item: 5 }, undefined, 400, /item must be string/],
      [{ item: null }, undefined, 400, /item/],
      [['bread'], undefined, 400, /must be object/],
      ['"bread"', 'application/json', 400, /must be object/],
      ['{"item": "x"', 'application/json', 400, /JSON/],
      ['', 'application/json', 400, /empty/i],
      [{ item: 'x', id: 'seven' }, undefined, 400, /id/],
      [{ item: 'x', id: 2 }, undefined, 409, /id 2 already exists/],
      ['item=x', 'text/plain', 415, /Unsupported Media Type: text\/plain; send application\/json/],
      ['<item>x</item>', 'application/xml', 415, /unsupported media type/i],
    ];
    for (const [payload, type, status, message] of cases) {
      const response = await service.app.inject({
        method: 'POST',
        url: '/list',
        payload: payload as string,
        headers: type ? { 'content-type': type } : {},
      });
      assert.equal(response.statusCode, status, JSON.stringify(payload));
      assert.deepEqual(Object.keys(response.json()), ['error']);
      assert.match(response.json().error, message);
    }
    const noBody = await service.app.inject({ method: 'POST', url: '/list' });
    assert.equal(noBody.statusCode, 400);
    assert.equal(readFileSync(fileOf(service), 'utf8'), before);
  });

  test('a urlencoded form adds an item too', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/list',
      payload: 'item=flour&__proto__=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.statusCode, 201);
    assert.equal(JSON.stringify(response.json()), `{"item":"flour","id":12}`);
  });

  test('PUT replaces (id kept), PATCH merges (id kept), DELETE removes; unknown ids are 404 {}', async () => {
    const replaced = await send('PUT', '/list/3', { item: 'brown eggs', id: 99 });
    assert.equal(replaced.statusCode, 200);
    assert.equal(JSON.stringify(replaced.json()), '{"item":"brown eggs","id":3}');
    const patched = await send('PATCH', '/list/3', { done: true, id: 42 });
    assert.equal(JSON.stringify(patched.json()), '{"item":"brown eggs","id":3,"done":true}');
    assert.deepEqual(
      stored(service).list.find((i: { id: number }) => i.id === 3),
      { item: 'brown eggs', id: 3, done: true },
    );
    const badPut = await send('PUT', '/list/3', { done: false });
    assert.equal(badPut.statusCode, 400);
    const badPatch = await send('PATCH', '/list/3', { item: 1 });
    assert.equal(badPatch.statusCode, 400);

    const deleted = await send('DELETE', '/list/3');
    assert.equal(deleted.statusCode, 200);
    assert.equal(deleted.body, '{}');
    assert.equal(
      stored(service).list.some((i: { id: number }) => i.id === 3),
      false,
    );
    for (const [method, payload] of [
      ['PUT', { item: 'x' }],
      ['PATCH', { item: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const missing = await send(method, '/list/3', payload);
      assert.equal(missing.statusCode, 404, method);
      assert.equal(missing.body, '{}');
    }
    const collectionPut = await send('PUT', '/list', { item: 'x' });
    assert.equal(collectionPut.statusCode, 404);
  });

  test('GET /db is the whole file and / lists the resources with counts and links', async () => {
    const whole = await send('GET', '/db');
    assert.equal(whole.statusCode, 200);
    assert.deepEqual(whole.json(), stored(service));
    const home = await send('GET', '/');
    assert.equal(home.statusCode, 200);
    assert.equal(home.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(home.headers['x-frame-options'], 'SAMEORIGIN');
    const count = stored(service).list.length;
    assert.match(home.body, new RegExp(`<a href="/list">/list</a> <span>${count}x</span>`));
    assert.match(home.body, /href="\/db"/);
  });

  test('OpenAPI documents the /list routes', async () => {
    const doc = (await send('GET', '/openapi.json')).json();
    assert.deepEqual(Object.keys(doc.paths).sort(), ['/db', '/list', '/list/{id}']);
    assert.deepEqual(Object.keys(doc.paths['/list']).sort(), ['get', 'post']);
    assert.deepEqual(Object.keys(doc.paths['/list/{id}']).sort(), ['delete', 'get', 'patch', 'put']);
  });
});

test('_delay adds to LIST_DELAY_MS: both are the harness delay of one request', async () => {
  const service = await start({ LIST_DELAY_MS: '300' }, true);
  try {
    const began = Date.now();
    const response = await fetch(`${service.url}/list?_delay=400`);
    const ms = Date.now() - began;
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), [
      { id: 1, item: 'bread' },
      { id: 2, item: 'grapes' },
    ]);
    assert.ok(ms >= 700 && ms < 1500, `answered after ${ms} ms`);
  } finally {
    await service.close();
  }
});

test('LIST_PUBLIC names the static folder; without an index.html, / stays the home page', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'backlot-list-public-'));
  writeFileSync(path.join(dir, 'app.js'), 'console.log(1)');
  const service = await start({ LIST_PUBLIC: dir });
  try {
    const file = await service.app.inject('/app.js');
    assert.equal(file.statusCode, 200);
    assert.equal(file.body, 'console.log(1)');
    assert.match(String(file.headers['content-type']), /^(text|application)\/javascript/);
    const home = await service.app.inject('/');
    assert.equal(home.statusCode, 200);
    assert.match(home.body, /<h1>backlot list<\/h1>/);
    assert.equal((await service.app.inject('/list/1')).statusCode, 200);
  } finally {
    await service.close();
  }
});

test('JSONP is off unless LIST_JSONP is set: ?callback= is then ignored and the answer is JSON', async () => {
  const service = await start();
  try {
    const response = await service.app.inject('/list/1?callback=steal');
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.body, '{\n  "id": 1,\n  "item": "bread"\n}');
  } finally {
    await service.close();
  }
  assert.equal(list.settings({}).jsonp, false);
  assert.equal(list.settings({ LIST_JSONP: 'true' }).jsonp, true);
  assert.throws(() => list.settings({ LIST_JSONP: 'maybe' }), /LIST_JSONP/);
});

test('_embed stays linear on a large file, and more than 10 names in _embed or _expand is 400', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'backlot-list-embed-')), 'list.json');
  const posts = Array.from({ length: 20_000 }, (_, i) => ({ id: i + 1, title: `post ${i + 1}` }));
  const comments = Array.from({ length: 20_000 }, (_, i) => ({ id: i + 1, postId: (i % 20_000) + 1 }));
  writeFileSync(file, JSON.stringify({ posts, comments }));
  const service = await start({ LIST_FILE: file });
  try {
    const began = Date.now();
    const embedded = await service.app.inject('/posts?_embed=comments&_embed=comments&_expand=nothing');
    assert.equal(embedded.statusCode, 200);
    const body = embedded.json();
    assert.equal(body.length, 20_000);
    assert.deepEqual(body[19_999], {
      id: 20_000,
      title: 'post 20000',
      comments: [{ id: 20_000, postId: 20_000 }],
    });
    assert.ok(Date.now() - began < 5_000, `took ${Date.now() - began} ms`);
    const names = Array.from({ length: 11 }, (_, i) => `_embed=r${i}`).join('&');
    for (const url of [
      `/posts?${names}`,
      `/posts/1?${names}`,
      `/posts?${names.replaceAll('_embed', '_expand')}`,
    ]) {
      const refused = await service.app.inject(url);
      assert.equal(refused.statusCode, 400, url);
      assert.match(refused.json().error, /^_(embed|expand): at most 10 different names, got 11$/);
    }
    assert.equal(
      (await service.app.inject(`/posts/1?${names.replace('&_embed=r10', '&_embed=r0')}`)).statusCode,
      200,
    );
  } finally {
    await service.close();
  }
});

describe('generated ids at the 2^53 - 1 limit', () => {
  const max = Number.MAX_SAFE_INTEGER;
  const idsOf = (service: TestService<ListSettings>, name: string) =>
    stored(service)[name].map((item: { id: unknown }) => item.id);

  test('after a client sends id 2^53 - 1, each new item gets the largest free safe id, never an unsafe one', async () => {
    const service = await start();
    try {
      const post = (url: string, payload: object) => service.app.inject({ method: 'POST', url, payload });
      assert.equal((await post('/list', { id: max, item: 'last' })).statusCode, 201);
      for (const expected of [max - 1, max - 2]) {
        const created = await post('/list', { item: 'next' });
        assert.equal(created.statusCode, 201);
        assert.equal(created.body, `{\n  "item": "next",\n  "id": ${expected}\n}`);
      }
      assert.deepEqual(idsOf(service, 'list'), [1, 2, max, max - 1, max - 2]);
    } finally {
      await service.close();
    }
  });

  test('a hand-edited file with ids at or past the limit still gets safe new ids', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'backlot-list-ids-')), 'list.json');
    writeFileSync(file, `{"shops": [{"id": ${max}}, {"id": ${max - 1}}, {"id": 1e300}]}`);
    const service = await start({ LIST_FILE: file });
    try {
      const created = await service.app.inject({ method: 'POST', url: '/shops', payload: { name: 'Deli' } });
      assert.equal(created.statusCode, 201);
      assert.deepEqual(created.json(), { name: 'Deli', id: max - 2 });
      const again = await service.app.inject({ method: 'POST', url: '/shops', payload: { name: 'Deli' } });
      assert.deepEqual(again.json(), { name: 'Deli', id: max - 3 });
      assert.deepEqual(
        JSON.parse(readFileSync(file, 'utf8')).shops.map((shop: { id: number }) => shop.id),
        [max, max - 1, 1e300, max - 2, max - 3],
      );
    } finally {
      await service.close();
    }
  });
});

describe('queries', () => {
  let service: TestService<ListSettings>;
  let stored: () => { shops: unknown[] };
  const items = [
    { id: 1, item: 'bread', price: 3, shop: { name: 'Bakery' } },
    { id: 2, item: 'grapes', price: 5, shop: { name: 'Market' } },
    { id: 3, item: 'Brie', price: 9, shop: { name: 'Market' } },
    { id: 4, item: 'milk', price: 2 },
    { id: 5, item: 'broccoli', price: 5 },
  ];
  before(async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'backlot-list-')), 'data.json');
    writeFileSync(file, JSON.stringify({ list: items, shops: [{ id: 'a1', name: 'Bakery' }] }));
    service = await start({ LIST_FILE: file });
    stored = () => JSON.parse(readFileSync(file, 'utf8'));
  });
  after(async () => {
    await service.close();
  });

  const ids = async (url: string) => {
    const response = await service.app.inject(url);
    assert.equal(response.statusCode, 200, url);
    return response.json().map((i: { id: number }) => i.id);
  };

  test('field filters, operators, q and nested paths', async () => {
    assert.deepEqual(await ids('/list?price=5'), [2, 5]);
    assert.deepEqual(await ids('/list?id=1&id=4'), [1, 4]);
    assert.deepEqual(await ids('/list?price_gte=5'), [2, 3, 5]);
    assert.deepEqual(await ids('/list?price_lte=3&price_gte=3'), [1]);
    assert.deepEqual(await ids('/list?price_ne=5'), [1, 3, 4]);
    assert.deepEqual(await ids('/list?item_like=^br'), [1, 3, 5]);
    assert.deepEqual(await ids('/list?q=market'), [2, 3]);
    assert.deepEqual(await ids('/list?shop.name=Market'), [2, 3]);
    assert.deepEqual(await ids('/list?unknown=1'), [1, 2, 3, 4, 5]);
  });

  test('sorting, slicing and pagination headers', async () => {
    assert.deepEqual(await ids('/list?_sort=price,id&_order=desc,asc'), [3, 2, 5, 1, 4]);
    assert.deepEqual(await ids('/list?_sort=item'), [3, 1, 5, 2, 4]);
    const sliced = await service.app.inject('/list?_start=1&_end=3');
    assert.equal(sliced.headers['x-total-count'], '5');
    assert.deepEqual(
      sliced.json().map((i: { id: number }) => i.id),
      [2, 3],
    );
    const limited = await service.app.inject('/list?_start=3&_limit=5');
    assert.deepEqual(
      limited.json().map((i: { id: number }) => i.id),
      [4, 5],
    );
    const page = await service.app.inject({
      url: '/list?_page=2&_limit=2',
      headers: { host: 'api.test', origin: 'http://app.test' },
    });
    assert.equal(page.headers['x-total-count'], '5');
    assert.equal(
      page.headers.link,
      '<http://api.test/list?_page=1&_limit=2>; rel="first", <http://api.test/list?_page=1&_limit=2>; rel="prev", ' +
        '<http://api.test/list?_page=3&_limit=2>; rel="next", <http://api.test/list?_page=3&_limit=2>; rel="last"',
    );
    assert.match(String(page.headers['access-control-expose-headers']), /X-Total-Count/i);
    assert.match(String(page.headers['access-control-expose-headers']), /Link/i);
    assert.deepEqual(
      page.json().map((i: { id: number }) => i.id),
      [3, 4],
    );
    const plain = await service.app.inject('/list');
    assert.equal(plain.headers['x-total-count'], undefined);
  });

  test('a bad regular expression or a repeated control parameter is 400', async () => {
    const badLike = await service.app.inject('/list?item_like=(');
    assert.equal(badLike.statusCode, 400);
    assert.match(badLike.json().error, /item_like/);
    const twice = await service.app.inject('/list?_sort=id&_sort=item');
    assert.equal(twice.statusCode, 400);
    assert.deepEqual(Object.keys(twice.json()), ['error']);
  });

  test('other arrays in the file are resources too, with string ids and generated ids', async () => {
    const shop = await service.app.inject('/shops/a1');
    assert.deepEqual(shop.json(), { id: 'a1', name: 'Bakery' });
    const created = await service.app.inject({ method: 'POST', url: '/shops', payload: { name: 'Deli' } });
    assert.equal(created.statusCode, 201);
    assert.match(created.json().id, /^[\w-]{7}$/);
    const anything = await service.app.inject({ method: 'POST', url: '/shops', payload: { name: 5 } });
    assert.equal(anything.statusCode, 201);
    const notObject = await service.app.inject({ method: 'POST', url: '/shops', payload: [1] });
    assert.equal(notObject.statusCode, 400);
    const unknown = await service.app.inject('/nothing');
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.body, '{}');
    assert.equal(stored().shops.length, 3);
  });
});

describe('patterns and query limits', () => {
  let service: TestService<ListSettings>;
  const long = `${'a'.repeat(30)}!`;
  before(async () => {
    service = await start();
    for (const item of [long, 'aaaa', 'Banana']) {
      const created = await service.app.inject({ method: 'POST', url: '/list', payload: { item } });
      assert.equal(created.statusCode, 201);
    }
  });
  after(async () => {
    await service.close();
  });

  const items = async (url: string) => {
    const response = await service.app.inject(url);
    assert.equal(response.statusCode, 200, url);
    return response.json().map((i: { item: string }) => i.item);
  };

  test('_like runs in linear time: ^(a+)+$ over a 30-character "aaa…!" gets its answer', async () => {
    assert.deepEqual(await items(`/list?item_like=${encodeURIComponent('^(a+)+$')}`), ['aaaa']);
    assert.deepEqual(await items(`/list?item_like=${encodeURIComponent('^(A+)+!$')}`), [long]);
    assert.deepEqual(await items(`/list?item_like=${encodeURIComponent('(a|aa)+$')}`), ['aaaa', 'Banana']);
    assert.deepEqual(await items('/list?item_like=^b&item_like=!$'), ['bread', long, 'Banana']);
  });

  test('a pattern RE2 cannot run is 400 {error}: backreferences, lookaround, bad syntax, oversize', async () => {
    const syntax = (reason: string) =>
      `not a valid regular expression (${reason}; RE2 syntax: no backreferences or lookaround)`;
    const cases: [string, string][] = [
      ['(a)\\1', syntax('invalid escape sequence: `\\1`')],
      ['a(?=a)', syntax('invalid or unsupported Perl syntax: `(?=`')],
      ['(', syntax('missing closing ): `(`')],
      ['a'.repeat(257), 'pattern longer than 256 characters'],
      ['(.?){900}', 'pattern too complex (compiled size 3602, at most 1000)'],
    ];
    for (const [pattern, reason] of cases) {
      const response = await service.app.inject(`/list?item_like=${encodeURIComponent(pattern)}`);
      assert.equal(response.statusCode, 400, pattern);
      assert.deepEqual(response.json(), { error: `item_like: ${reason}: ${pattern}` }, pattern);
    }
  });

  test('_sort keys count once and only the first 10 are used', async () => {
    const useless = Array.from({ length: 1500 }, (_, i) => `nothing${i}`);
    assert.deepEqual(await items(`/list?_sort=${['item', ...useless].join(',')}`), [
      'Banana',
      'aaaa',
      long,
      'bread',
      'grapes',
    ]);
    // Beyond the tenth distinct key, keys are ignored: file order stays.
    assert.deepEqual(await items(`/list?_sort=${[...useless.slice(0, 10), 'item'].join(',')}`), [
      'bread',
      'grapes',
      long,
      'aaaa',
      'Banana',
    ]);
    // Repeats do not count towards the ten.
    const repeated = [...Array(1500).fill('nothing'), 'item'].join(',');
    assert.deepEqual(await items(`/list?_sort=${repeated}&_order=${Array(1501).fill('desc').join(',')}`), [
      'grapes',
      'bread',
      long,
      'aaaa',
      'Banana',
    ]);
  });
});

describe('settings', () => {
  test('LIST_DELAY_MS and LIST_FILE are read from the environment given', () => {
    assert.deepEqual(list.settings({}), {
      file: undefined,
      delay: '1500',
      lockWaitMs: 6000,
      routes: undefined,
      publicDir: undefined,
      jsonp: false,
    });
    assert.equal(list.settings({ LIST_PUBLIC: 'web' }).publicDir, path.resolve('web'));
    assert.deepEqual(
      list.settings({ LIST_FILE: '/tmp/x.json', LIST_DELAY_MS: '0', LIST_LOCK_WAIT_MS: '10' }),
      {
        file: '/tmp/x.json',
        delay: '0',
        lockWaitMs: 10,
        routes: undefined,
        publicDir: undefined,
        jsonp: false,
      },
    );
    assert.throws(() => list.settings({ LIST_DELAY_MS: 'slow' }), /LIST_DELAY_MS/);
    assert.throws(() => list.settings({ LIST_DELAY_MS: '-1' }), /LIST_DELAY_MS/);
    assert.throws(() => list.settings({ LIST_DELAY_MS: '300-100' }), /LIST_DELAY_MS/);
    assert.equal(list.settings({ LIST_DELAY_MS: '100-300' }).delay, '100-300');
  });

  test('LIST_ROUTES is read and checked at startup: a bad routes file is one line naming it and the rule', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'backlot-list-routes-'));
    const routesFile = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const good = routesFile('good.json', '{"/api/*": "/$1", "/blog/:resource/:id/show": "/:resource/:id"}');
    assert.deepEqual(list.settings({ LIST_ROUTES: good }).routes, {
      file: good,
      rules: { '/api/*': '/$1', '/blog/:resource/:id/show': '/:resource/:id' },
    });
    const cases: [file: string, message: string][] = [
      [path.join(dir, 'missing.json'), 'cannot read (ENOENT'],
      [routesFile('bad.json', '{"/api/*": '), 'not valid JSON'],
      [routesFile('array.json', '["/a"]'), 'must hold one JSON object of "<route>": "<destination>"'],
      [routesFile('number.json', '{"/a": 1}'), '"/a": the destination must be a non-empty string'],
      [routesFile('slash.json', '{"api/*": "/$1"}'), '"api/*": a route must start with "/"'],
      [routesFile('group.json', '{"/a/:id(\\\\d+)": "/b/:id"}'), 'groups such as "(\\d+)" are not supported'],
      [
        routesFile('name.json', '{"/a/:id": "/b/:slug"}'),
        '"/b/:slug" uses ":slug", which "/a/:id" does not name',
      ],
      [routesFile('number2.json', '{"/a/*": "/b/$2"}'), '"/b/$2" uses "$2", but "/a/*" has 1 group(s)'],
    ];
    for (const [file, message] of cases) {
      assert.throws(
        () => list.settings({ LIST_ROUTES: file }),
        (error: Error) =>
          error.name === 'ConfigError' &&
          error.message.startsWith(`LIST_ROUTES: ${file}: `) &&
          error.message.includes(message) &&
          !error.message.includes('\n'),
        file,
      );
    }
  });
});
