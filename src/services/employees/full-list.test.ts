import assert from 'node:assert/strict';
import { getHeapStatistics } from 'node:v8';
import { after, before, test } from 'node:test';
import { createTestDatabase } from '../../../test/db.js';
import { startTestService, type TestService } from '../../../test/service.js';
import type { Database } from '../../platform/database.js';
import { batchRows } from './full-list.js';
import { employees } from './index.js';
import { messages } from './routes.js';
import { sampleEmployees } from './seed.js';

let db: Database;
let service: TestService;
before(async () => {
  db = await createTestDatabase();
  service = await startTestService(employees, { db, listen: true });
});
after(async () => {
  await service.close();
  await db.close();
});

const url = () => `${service.url}/api/2/employees`;

test('the seed comes back whole, byte for byte as before, with its length', async () => {
  const res = await fetch(url());
  const seeded = sampleEmployees.map((e, i) => ({ id: i + 1, name: e.name, age: e.age, image: null }));
  assert.equal(await res.text(), JSON.stringify({ status: 'success', data: seeded, message: messages.list }));
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.ok(res.headers.get('content-length'));
});

test('a list longer than one batch streams the same bytes the whole list would be', async () => {
  await db.query(
    `INSERT INTO employees.employees (name, age, image)
     SELECT 'Name "' || g || '" é\\ ' || chr(8232), g % 150, CASE WHEN g % 2 = 0 THEN 'img/' || g END
     FROM generate_series(1, $1::int) g`,
    [batchRows * 2 + 7],
  );
  const { rows } = await db.query('SELECT id, name, age, image FROM employees.employees ORDER BY id');
  const res = await fetch(url());
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(res.headers.get('content-length'), null, 'streamed');
  assert.equal(await res.text(), JSON.stringify({ status: 'success', data: rows, message: messages.list }));
  await db.query('DELETE FROM employees.employees WHERE id > $1', [sampleEmployees.length]);
});

test('a list of many megabytes is never built in memory', async (t) => {
  const rowsWanted = 200_000;
  await db.query(
    `INSERT INTO employees.employees (name, age) SELECT repeat('n', 240) || g, g % 150 FROM generate_series(1, $1::int) g`,
    [rowsWanted],
  );
  const heap = () => getHeapStatistics().used_heap_size;
  const start = heap();
  let peak = start;
  let bytes = 0;
  const reader = (await fetch(url())).body?.getReader();
  assert.ok(reader);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    peak = Math.max(peak, heap());
  }
  const mib = (n: number) => n / 2 ** 20;
  t.diagnostic(`${mib(bytes).toFixed(1)} MiB answered, heap grew ${mib(peak - start).toFixed(1)} MiB`);
  assert.ok(mib(bytes) > 50, `${mib(bytes).toFixed(1)} MiB answered`);
  // The whole list in memory would hold 200k records and a 50 MiB string at once (measured: +347 MiB before it streamed).
  assert.ok(mib(peak - start) < 40, `heap grew ${mib(peak - start).toFixed(1)} MiB`);
  await db.query('DELETE FROM employees.employees WHERE id > $1', [sampleEmployees.length]);
});
