import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
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

  const app = jsonServer.create();
  app.use(jsonServer.defaults({ logger: false }));
  app.use(jsonServer.router(referenceFile));
  reference = await new Promise<Server>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
  referenceUrl = `http://127.0.0.1:${(reference.address() as { port: number }).port}`;

  db = await createTestDatabase();
  backlot = await startTestService(list, {
    db,
    listen: true,
    env: { LIST_DELAY_MS: '0', LIST_FILE: backlotFile },
  });
});

after(async () => {
  reference?.closeAllConnections();
  await new Promise((resolve) => reference?.close(resolve));
  await backlot?.close();
  await db?.close();
});

type Step = [method: string, path: string, body?: unknown];

// Key order matters to clients that print what they get, so bodies are compared as re-serialized text.
const canonical = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text; // json-server answers its own failures with a stack trace
  }
};

/** Status, body (with its key order) and the headers json-server clients read; the host is the only difference. */
async function answer(base: string, [method, url, body]: Step) {
  const response = await fetch(base + url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
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

test('where the issue decides otherwise: validation is 400 and a taken id 409, where json-server stored or failed', async () => {
  const deviations: [Step, number, number][] = [
    [['POST', '/list', { item: 5 }], 201, 400],
    [['POST', '/list', { qty: 1 }], 201, 400],
    [['POST', '/list', ['bread']], 201, 400],
    [['POST', '/list', { id: 1, item: 'again' }], 500, 409],
    [['POST', '/list', { id: 0, item: 'tea' }], 201, 400],
    [['GET', '/list?item_like=('], 500, 400],
  ];
  for (const [step, referenceStatus, backlotStatus] of deviations) {
    const expected = await answer(referenceUrl, step);
    const actual = await answer(backlot.url, step);
    assert.equal(expected.status, referenceStatus, `json-server: ${step[1]} ${JSON.stringify(step[2])}`);
    assert.equal(actual.status, backlotStatus, `backlot: ${step[1]} ${JSON.stringify(step[2])}`);
    assert.deepEqual(Object.keys(JSON.parse(actual.body)), ['error']);
  }
});
