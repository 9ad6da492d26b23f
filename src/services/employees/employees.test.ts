import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTestDatabase } from '../../../test/db.js';
import { startTestService, type TestService } from '../../../test/service.js';
import type { Database } from '../../platform/database.js';
import { employees } from './index.js';
import { sampleEmployees } from './seed.js';

const basic = (name: string, password: string) =>
  `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
const editor = basic('ed', 'ed-pass:with-colon');
const viewer = basic('vi', 'vi-pass');
const users = 'ed:ed-pass:with-colon:editor, vi:vi-pass:viewer';

const seeded = sampleEmployees.map((e, i) => ({ id: i + 1, name: e.name, age: e.age, image: null }));
const error = (message: string) => ({ status: 'error', data: null, message });

function assertJson(res: LightMyRequestResponse, status: number, body: unknown) {
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.deepEqual({ status: res.statusCode, body: res.json() }, { status, body });
}

async function countRows(db: Database) {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM employees.employees');
  return rows[0].n;
}

describe('employees with configured accounts', () => {
  let db: Database;
  let service: TestService;
  const inject = (options: InjectOptions) => service.app.inject(options);

  before(async () => {
    db = await createTestDatabase();
    service = await startTestService(employees, { db, env: { EMPLOYEES_USERS: users } });
  });
  after(async () => {
    await service.close();
    await db.close();
  });

  test('GET /api/2/employees lists the sample employees in the envelope', async () => {
    const res = await inject({ method: 'GET', url: '/api/2/employees' });
    assertJson(res, 200, {
      status: 'success',
      data: seeded,
      message: 'Successfully! All records has been fetched.',
    });
    assert.ok(seeded.every((e) => e.age >= 19 && e.age <= 66));
  });

  test('GET /api/2/employees/{id} is public; /employee/{id} needs credentials of any role', async () => {
    const one = { status: 'success', data: seeded[2], message: 'Successfully! Record has been fetched.' };
    assertJson(await inject({ method: 'GET', url: '/api/2/employees/3' }), 200, one);
    assertJson(
      await inject({ method: 'GET', url: '/api/2/employee/3', headers: { authorization: viewer } }),
      200,
      one,
    );
    assertJson(
      await inject({ method: 'GET', url: '/api/2/employee/3', headers: { authorization: editor } }),
      200,
      one,
    );
    assertJson(
      await inject({ method: 'GET', url: '/api/2/employee/999', headers: { authorization: editor } }),
      404,
      error('Not found! No record with id 999'),
    );

    const cases: Array<[string | undefined, string]> = [
      [undefined, 'Unauthorized! This request needs HTTP Basic credentials'],
      [basic('vi', 'wrong'), 'Unauthorized! Wrong user name or password'],
      [basic('nobody', 'vi-pass'), 'Unauthorized! Wrong user name or password'],
      ['Bearer abc', 'Unauthorized! Wrong user name or password'],
      ['Basic %%%', 'Unauthorized! Wrong user name or password'],
    ];
    for (const [authorization, message] of cases) {
      const res = await inject({
        method: 'GET',
        url: '/api/2/employee/3',
        headers: authorization ? { authorization } : {},
      });
      assertJson(res, 401, error(message));
      assert.equal(res.headers['www-authenticate'], 'Basic realm="employees"');
    }
  });

  test('POST /api/2/create adds a record: 201, Location, age as integer, "" image as null', async () => {
    const before = await countRows(db);
    const res = await inject({
      method: 'POST',
      url: '/api/2/create',
      headers: { authorization: editor },
      payload: { name: 'Ada Lovelace', age: '36', image: '', salary: '123' },
    });
    const created = res.json();
    assert.equal(typeof created.data.id, 'number');
    assertJson(res, 201, {
      status: 'success',
      data: { id: created.data.id, name: 'Ada Lovelace', age: 36, image: null },
      message: 'Successfully! Record has been added.',
    });
    assert.equal(res.headers.location, `/api/2/employees/${created.data.id}`);
    assert.ok(created.data.id > sampleEmployees.length);
    assert.equal(await countRows(db), before + 1);
    const { rows } = await db.query('SELECT name, age, image FROM employees.employees WHERE id = $1', [
      created.data.id,
    ]);
    assert.deepEqual(rows, [{ name: 'Ada Lovelace', age: 36, image: null }]);

    const withImage = await inject({
      method: 'POST',
      url: '/api/2/create',
      headers: { authorization: editor },
      payload: { name: 'Grace Hopper', age: 85, image: 'https://example.com/grace.png' },
    });
    assert.equal(withImage.statusCode, 201);
    assert.deepEqual(withImage.json().data, {
      id: created.data.id + 1,
      name: 'Grace Hopper',
      age: 85,
      image: 'https://example.com/grace.png',
    });
  });

  test('POST /api/2/create with an id: 409 when it exists, otherwise that id (and later ids go past it)', async () => {
    const before = await countRows(db);
    assertJson(
      await inject({
        method: 'POST',
        url: '/api/2/create',
        headers: { authorization: editor },
        payload: { id: 5, name: 'Duplicate', age: 30 },
      }),
      409,
      error('Conflict! A record with id 5 already exists'),
    );
    assert.equal(await countRows(db), before);
    const { rows } = await db.query('SELECT name FROM employees.employees WHERE id = 5');
    assert.deepEqual(rows, [{ name: seeded[4].name }]);

    const chosen = await inject({
      method: 'POST',
      url: '/api/2/create',
      headers: { authorization: editor },
      payload: { id: 5000, name: 'Chosen', age: 30 },
    });
    assertJson(chosen, 201, {
      status: 'success',
      data: { id: 5000, name: 'Chosen', age: 30, image: null },
      message: 'Successfully! Record has been added.',
    });
    assert.equal(chosen.headers.location, '/api/2/employees/5000');
    const next = await inject({
      method: 'POST',
      url: '/api/2/create',
      headers: { authorization: editor },
      payload: { name: 'After chosen', age: 31 },
    });
    assert.equal(next.statusCode, 201);
    assert.equal(next.json().data.id, 5001);

    // The highest possible id can be chosen; after it no id can be generated, which is a conflict, not a 500.
    const highest = await inject({
      method: 'POST',
      url: '/api/2/create',
      headers: { authorization: editor },
      payload: { id: 2147483647, name: 'Last', age: 1 },
    });
    assert.equal(highest.statusCode, 201);
    assertJson(
      await inject({
        method: 'POST',
        url: '/api/2/create',
        headers: { authorization: editor },
        payload: { name: 'More', age: 1 },
      }),
      409,
      error('Conflict! Every id up to the highest (2147483647) is in use: send an unused id'),
    );
    assertJson(
      await inject({
        method: 'POST',
        url: '/api/2/create',
        headers: { authorization: editor },
        payload: { id: 2147483648, name: 'Too far', age: 1 },
      }),
      400,
      error('Invalid field "id": must be a positive integer up to 2147483647'),
    );
    // Put the id sequence back (as after a restore) so the other tests get ordinary ids.
    await db.query('DELETE FROM employees.employees WHERE id >= 5000');
    await db.query(
      "SELECT setval(pg_get_serial_sequence('employees.employees', 'id'), (SELECT max(id) FROM employees.employees))",
    );
  });

  test('PUT /api/2/update/{id} replaces the whole record', async () => {
    const res = await inject({
      method: 'PUT',
      url: '/api/2/update/7',
      headers: { authorization: editor },
      payload: { name: 'Herrod C.', age: '60', image: 'h.png' },
    });
    assertJson(res, 200, {
      status: 'success',
      data: { id: 7, name: 'Herrod C.', age: 60, image: 'h.png' },
      message: 'Successfully! Record has been updated.',
    });
    const cleared = await inject({
      method: 'PUT',
      url: '/api/2/update/7',
      headers: { authorization: editor },
      payload: { id: 7, name: 'Herrod C.', age: 60, image: '' },
    });
    assert.deepEqual(cleared.json().data, { id: 7, name: 'Herrod C.', age: 60, image: null });
    const { rows } = await db.query('SELECT name, age, image FROM employees.employees WHERE id = 7');
    assert.deepEqual(rows, [{ name: 'Herrod C.', age: 60, image: null }]);

    const cases: Array<[string, unknown, number, string]> = [
      [
        '/api/2/update/7',
        { name: 'X', age: 1 },
        400,
        'Missing field "image" (PUT replaces the whole record: send name, age and image)',
      ],
      [
        '/api/2/update/7',
        { name: 'X', image: null },
        400,
        'Missing field "age" (PUT replaces the whole record: send name, age and image)',
      ],
      [
        '/api/2/update/7',
        { age: 1, image: null },
        400,
        'Missing field "name" (PUT replaces the whole record: send name, age and image)',
      ],
      [
        '/api/2/update/7',
        { id: 8, name: 'X', age: 1, image: null },
        400,
        'The id in the body (8) does not match the id in the path (7)',
      ],
      [
        '/api/2/update/424242',
        { name: 'X', age: 1, image: null },
        404,
        'Not found! No record with id 424242',
      ],
      ['/api/2/update/abc', { name: 'X', age: 1, image: null }, 404, 'Not found! No record with id abc'],
      ['/api/2/update/0', { name: 'X', age: 1, image: null }, 404, 'Not found! No record with id 0'],
    ];
    for (const [url, payload, status, message] of cases) {
      assertJson(
        await inject({ method: 'PUT', url, headers: { authorization: editor }, payload: payload as object }),
        status,
        error(message),
      );
    }
    const after = await db.query('SELECT name, age, image FROM employees.employees WHERE id = 7');
    assert.deepEqual(after.rows, [{ name: 'Herrod C.', age: 60, image: null }]);
  });

  test('DELETE /api/2/delete/{id} answers the id as a string, and the record is gone', async () => {
    const res = await inject({
      method: 'DELETE',
      url: '/api/2/delete/9',
      headers: { authorization: editor },
    });
    assertJson(res, 200, { status: 'success', data: '9', message: 'Successfully! Record has been deleted' });
    assertJson(
      await inject({ method: 'GET', url: '/api/2/employees/9' }),
      404,
      error('Not found! No record with id 9'),
    );
    assertJson(
      await inject({ method: 'DELETE', url: '/api/2/delete/9', headers: { authorization: editor } }),
      404,
      error('Not found! No record with id 9'),
    );
    const { rows } = await db.query('SELECT id FROM employees.employees WHERE id = 9');
    assert.deepEqual(rows, []);
  });

  test('bad bodies on POST /api/2/create are 400 in the envelope and store nothing', async () => {
    const before = await countRows(db);
    const invalid = (field: string, rule: string) => `Invalid field "${field}": must be ${rule}`;
    const ageRule = 'an integer from 0 to 150, or a string of digits with such a value';
    const nameRule = 'a non-empty string of at most 255 characters';
    const cases: Array<[unknown, string]> = [
      [{ age: 3 }, 'Missing field "name"'],
      [{ name: '', age: 3 }, invalid('name', nameRule)],
      [{ name: '   ', age: 3 }, invalid('name', nameRule)],
      [{ name: 42, age: 3 }, invalid('name', nameRule)],
      [{ name: null, age: 3 }, invalid('name', nameRule)],
      [{ name: 'x'.repeat(256), age: 3 }, invalid('name', nameRule)],
      [{ name: 'N' }, 'Missing field "age"'],
      [{ name: 'N', age: 12.5 }, invalid('age', ageRule)],
      [{ name: 'N', age: '12a' }, invalid('age', ageRule)],
      [{ name: 'N', age: '' }, invalid('age', ageRule)],
      [{ name: 'N', age: '-1' }, invalid('age', ageRule)],
      [{ name: 'N', age: -1 }, invalid('age', ageRule)],
      [{ name: 'N', age: 151 }, invalid('age', ageRule)],
      [{ name: 'N', age: '151' }, invalid('age', ageRule)],
      [{ name: 'N', age: '99999999999999999999' }, invalid('age', ageRule)],
      [{ name: 'N', age: true }, invalid('age', ageRule)],
      [{ name: 'N', age: null }, invalid('age', ageRule)],
      [{ name: 'N', age: 3, image: 5 }, invalid('image', 'a string or null')],
      [{ name: 'N', age: 3, id: 0 }, invalid('id', 'a positive integer up to 2147483647')],
      [{ name: 'N', age: 3, id: 'x' }, invalid('id', 'a positive integer up to 2147483647')],
      [[{ name: 'N', age: 3 }], 'The request body must be a JSON object'],
      ['just text', 'The request body must be a JSON object'],
    ];
    for (const [payload, message] of cases) {
      const res = await inject({
        method: 'POST',
        url: '/api/2/create',
        headers: { authorization: editor, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      assertJson(res, 400, error(message));
    }
    assertJson(
      await inject({ method: 'POST', url: '/api/2/create', headers: { authorization: editor } }),
      400,
      error('The request body must be a JSON object'),
    );
    assertJson(
      await inject({
        method: 'POST',
        url: '/api/2/create',
        headers: { authorization: editor, 'content-type': 'application/json' },
        payload: '{"name": "N", "age": ',
      }),
      400,
      error("Body is not valid JSON but content-type is set to 'application/json'"),
    );
    assertJson(
      await inject({
        method: 'POST',
        url: '/api/2/create',
        headers: { authorization: editor, 'content-type': 'text/plain' },
        payload: 'name=N&age=3',
      }),
      400,
      error('The request body is not valid JSON'),
    );
    const huge = await inject({
      method: 'POST',
      url: '/api/2/create',
      headers: { authorization: editor, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Big', age: 3, image: 'x'.repeat(1024 * 1024) }),
    });
    assert.equal(huge.statusCode, 413);
    assert.equal(huge.json().status, 'error');
    assert.equal(huge.json().data, null);
    assert.equal(await countRows(db), before);

    // fetch() without a content type sends text/plain: the JSON in it is still read.
    const plain = await inject({
      method: 'POST',
      url: '/api/2/create',
      headers: { authorization: editor, 'content-type': 'text/plain;charset=UTF-8' },
      payload: '{"name":"Plain","age":"40","image":""}',
    });
    assert.equal(plain.statusCode, 201);
    assert.deepEqual(plain.json().data, { id: plain.json().data.id, name: 'Plain', age: 40, image: null });
  });

  test('unknown ids and unknown paths under /api/2 are 404 in the envelope', async () => {
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999', '2147483648']) {
      assertJson(
        await inject({ method: 'GET', url: `/api/2/employees/${id}` }),
        404,
        error(`Not found! No record with id ${id}`),
      );
    }
    assertJson(
      await inject({ method: 'GET', url: '/api/2/nothing' }),
      404,
      error('No route for GET /api/2/nothing'),
    );
    assertJson(
      await inject({ method: 'POST', url: '/api/2/update' }),
      404,
      error('No route for POST /api/2/update'),
    );
    assertJson(
      await inject({ method: 'GET', url: '/api/1/employees' }),
      404,
      error('No route for GET /api/1/employees'),
    );
  });

  test('a known path with the wrong method is 405 with Allow', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['DELETE', '/api/2/employees', 'GET, HEAD', '/employees'],
      ['POST', '/api/2/employees', 'GET, HEAD', '/employees'],
      ['PUT', '/api/2/employees/1', 'GET, HEAD', '/employees/{id}'],
      ['PATCH', '/api/2/employee/1', 'GET, HEAD', '/employee/{id}'],
      ['GET', '/api/2/create', 'POST', '/create'],
      ['PUT', '/api/2/create', 'POST', '/create'],
      ['GET', '/api/2/update/1', 'PUT', '/update/{id}'],
      ['POST', '/api/2/update/1', 'PUT', '/update/{id}'],
      ['PATCH', '/api/2/update/1', 'PUT', '/update/{id}'],
      ['GET', '/api/2/delete/1', 'DELETE', '/delete/{id}'],
      ['POST', '/api/2/delete/1', 'DELETE', '/delete/{id}'],
    ];
    for (const [method, url, allow, path] of cases) {
      const res = await inject({ method: method as 'GET', url });
      assertJson(res, 405, error(`Method not allowed! ${path} answers ${allow}, not ${method}`));
      assert.equal(res.headers.allow, allow, `${method} ${url}`);
    }
    const head = await inject({ method: 'HEAD', url: '/api/2/delete/1' });
    assert.equal(head.statusCode, 405);
    assert.equal(head.headers.allow, 'DELETE');
    assert.equal((await inject({ method: 'HEAD', url: '/api/2/employees' })).statusCode, 200);
  });

  test('writes need editor credentials: 401 without or with wrong ones, 403 for a viewer', async () => {
    const before = await db.query('SELECT * FROM employees.employees ORDER BY id');
    const writes = [
      { method: 'POST' as const, url: '/api/2/create', payload: { name: 'N', age: 3 } },
      { method: 'PUT' as const, url: '/api/2/update/1', payload: { name: 'N', age: 3, image: null } },
      { method: 'DELETE' as const, url: '/api/2/delete/1' },
    ];
    for (const write of writes) {
      const missing = await inject(write);
      assertJson(missing, 401, error('Unauthorized! This request needs HTTP Basic credentials'));
      assert.equal(missing.headers['www-authenticate'], 'Basic realm="employees"');
      const wrong = await inject({ ...write, headers: { authorization: basic('ed', 'ed-pass') } });
      assertJson(wrong, 401, error('Unauthorized! Wrong user name or password'));
      assert.equal(wrong.headers['www-authenticate'], 'Basic realm="employees"');
      const forbidden = await inject({ ...write, headers: { authorization: viewer } });
      assertJson(forbidden, 403, error('Forbidden! vi has the viewer role, which may not change records'));
      assert.equal(forbidden.headers['www-authenticate'], undefined);
    }
    // Credentials are checked before the body: a viewer with a bad body is still 403.
    assertJson(
      await inject({
        method: 'POST',
        url: '/api/2/create',
        headers: { authorization: viewer },
        payload: 'nope',
      }),
      403,
      error('Forbidden! vi has the viewer role, which may not change records'),
    );
    const afterRows = await db.query('SELECT * FROM employees.employees ORDER BY id');
    assert.deepEqual(afterRows.rows, before.rows);
  });

  test('passwords are stored only as Argon2id hashes', async () => {
    const { rows } = await db.query<{ name: string; password_hash: string; role: string }>(
      'SELECT name, password_hash, role FROM employees.accounts ORDER BY name',
    );
    assert.deepEqual(
      rows.map((r) => [r.name, r.role]),
      [
        ['ed', 'editor'],
        ['vi', 'viewer'],
      ],
    );
    for (const row of rows) {
      assert.match(row.password_hash, /^\$argon2id\$/);
      assert.ok(!row.password_hash.includes('pass'));
    }
  });

  test('100 concurrent creates give 100 distinct ids and 100 rows', async () => {
    const before = await countRows(db);
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        inject({
          method: 'POST',
          url: '/api/2/create',
          headers: { authorization: editor },
          payload: { name: `Concurrent ${i}`, age: i },
        }),
      ),
    );
    assert.deepEqual(new Set(replies.map((r) => r.statusCode)), new Set([201]));
    const ids = new Set(replies.map((r) => r.json().data.id));
    assert.equal(ids.size, 100);
    assert.equal(await countRows(db), before + 100);
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(DISTINCT id)::int AS n FROM employees.employees WHERE name LIKE 'Concurrent %'",
    );
    assert.equal(rows[0].n, 100);
  });

  test('EMPLOYEES_OPEN_WRITES=true lets anyone write; /employee/{id} still needs credentials', async () => {
    const open = await startTestService(employees, {
      db,
      env: { EMPLOYEES_USERS: users, EMPLOYEES_OPEN_WRITES: 'true' },
    });
    try {
      const created = await open.app.inject({
        method: 'POST',
        url: '/api/2/create',
        payload: { name: 'Open', age: 20 },
      });
      assert.equal(created.statusCode, 201);
      const id = created.json().data.id;
      const updated = await open.app.inject({
        method: 'PUT',
        url: `/api/2/update/${id}`,
        headers: { authorization: viewer },
        payload: { name: 'Open 2', age: 21, image: null },
      });
      assertJson(updated, 200, {
        status: 'success',
        data: { id, name: 'Open 2', age: 21, image: null },
        message: 'Successfully! Record has been updated.',
      });
      const deleted = await open.app.inject({ method: 'DELETE', url: `/api/2/delete/${id}` });
      assertJson(deleted, 200, {
        status: 'success',
        data: String(id),
        message: 'Successfully! Record has been deleted',
      });
      assert.equal((await open.app.inject({ method: 'GET', url: '/api/2/employee/1' })).statusCode, 401);
      assert.ok(open.banner.some((line) => line.includes('EMPLOYEES_OPEN_WRITES=true')));
    } finally {
      await open.close();
    }
  });

  test('the OpenAPI document describes the API', async () => {
    const res = await inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/api/2/create',
      '/api/2/delete/{id}',
      '/api/2/employee/{id}',
      '/api/2/employees',
      '/api/2/employees/{id}',
      '/api/2/update/{id}',
    ]);
    assert.deepEqual(Object.keys(doc.paths['/api/2/create']), ['post']);
  });
});

describe('employees without configured accounts', () => {
  test('a generated admin editor, records that persist across a restart, and a seed that happens once', async () => {
    const db = await createTestDatabase();
    const logLines: string[] = [];
    // Our own data directory: a service closes and removes the one it made itself.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-employees-restart-'));
    // EMPLOYEES_SEED=false leaves the database empty, and does not count as the first-start seed.
    const unseeded = await startTestService(employees, { db, dataDir, env: { EMPLOYEES_SEED: 'false' } });
    assertJson(await unseeded.app.inject({ method: 'GET', url: '/api/2/employees' }), 200, {
      status: 'success',
      data: [],
      message: 'Successfully! All records has been fetched.',
    });
    await unseeded.close();

    const first = await startTestService(employees, { db, dataDir, logLines });
    assertJson(await first.app.inject({ method: 'GET', url: '/api/2/employees' }), 200, {
      status: 'success',
      data: seeded,
      message: 'Successfully! All records has been fetched.',
    });
    try {
      const line = first.banner.find((l) => l.startsWith('Basic credentials (editor): admin / '));
      assert.ok(line, `banner: ${first.banner.join(' | ')}`);
      const password = line.slice('Basic credentials (editor): admin / '.length);
      assert.match(password, /^[0-9a-f]{24}$/);
      const admin = basic('admin', password);

      const created = await first.app.inject({
        method: 'POST',
        url: '/api/2/create',
        headers: { authorization: admin },
        payload: { name: 'Persisted', age: 44, image: 'p.png' },
      });
      assert.equal(created.statusCode, 201);
      const id = created.json().data.id;
      assert.equal(id, sampleEmployees.length + 1);
      const updated = await first.app.inject({
        method: 'PUT',
        url: `/api/2/update/${id}`,
        headers: { authorization: admin },
        payload: { name: 'Persisted 2', age: 45, image: null },
      });
      assert.equal(updated.statusCode, 200);
      // Delete all the sample employees: a restart must not bring them back.
      for (let i = 1; i <= sampleEmployees.length; i++) {
        const res = await first.app.inject({
          method: 'DELETE',
          url: `/api/2/delete/${i}`,
          headers: { authorization: admin },
        });
        assert.equal(res.statusCode, 200);
      }
      await first.close();

      const second = await startTestService(employees, { db, dataDir, logLines });
      try {
        assert.ok(second.banner.includes(`Basic credentials (editor): admin / ${password}`));
        assert.equal(statSync(path.join(dataDir, 'credentials.json')).mode & 0o777, 0o600);
        assertJson(await second.app.inject({ method: 'GET', url: '/api/2/employees' }), 200, {
          status: 'success',
          data: [{ id, name: 'Persisted 2', age: 45, image: null }],
          message: 'Successfully! All records has been fetched.',
        });
        const read = await second.app.inject({
          method: 'GET',
          url: `/api/2/employee/${id}`,
          headers: { authorization: admin },
        });
        assert.equal(read.statusCode, 200);
        const deleted = await second.app.inject({
          method: 'DELETE',
          url: `/api/2/delete/${id}`,
          headers: { authorization: admin },
        });
        assertJson(deleted, 200, {
          status: 'success',
          data: String(id),
          message: 'Successfully! Record has been deleted',
        });
        assertJson(
          await second.app.inject({ method: 'GET', url: `/api/2/employees/${id}` }),
          404,
          error(`Not found! No record with id ${id}`),
        );
        assertJson(await second.app.inject({ method: 'GET', url: '/api/2/employees' }), 200, {
          status: 'success',
          data: [],
          message: 'Successfully! All records has been fetched.',
        });
      } finally {
        await second.close();
      }
      const { rows } = await db.query<{ password_hash: string }>(
        'SELECT password_hash FROM employees.accounts',
      );
      assert.equal(rows.length, 1);
      assert.match(rows[0].password_hash, /^\$argon2id\$/);
      assert.ok(logLines.length > 0);
      assert.ok(
        !logLines.some((l) => l.includes(password) || l.includes(admin.slice(6))),
        'no secret in the logs',
      );
    } finally {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
