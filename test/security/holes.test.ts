import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { multipart, png, uploadParts } from '../profiles.js';
import { basic, credentials, startSecured } from './fixtures.js';

describe('smaller holes', () => {
  test("content: anonymous /users?search= does not match private e-mail addresses; an administrator's does", async () => {
    const service = await startSecured('content');
    try {
      const search = (headers = {}) =>
        service.app.inject({ url: '/wp-json/wp/v2/users?search=example.com', headers });
      const anonymous = await search();
      assert.equal(anonymous.statusCode, 200);
      assert.deepEqual(anonymous.json(), []);
      const admin = await search({ ...credentials.content, 'x-forwarded-for': '1' });
      assert.equal(admin.statusCode, 200);
      assert.equal(admin.json().length, 5);
    } finally {
      await service.close();
    }
  });

  test('a NUL in a Basic user name is a 401, not a 500 (employees, content)', async () => {
    for (const [id, url] of [
      ['employees', '/api/2/employee/1'],
      ['content', '/wp-json/wp/v2/users/me'],
    ] as const) {
      const service = await startSecured(id);
      try {
        const res = await service.app.inject({ url, headers: { authorization: basic('ad\u0000min', 'x') } });
        assert.equal(res.statusCode, 401, `${id}: ${res.body}`);
      } finally {
        await service.close();
      }
    }
  });

  test("a malformed Host is no 500 on machines' paginated lists: links fall back to localhost", async () => {
    const service = await startSecured('machines');
    try {
      for (const host of ['exa mple', '[::1', 'a@b', 'x:99999999']) {
        const res = await service.app.inject({
          url: '/v2/regions?per_page=1',
          headers: { ...credentials.machines, host },
        });
        assert.equal(res.statusCode, 200, `${host}: ${res.body}`);
        assert.match(res.json().links.pages.next, /^http:\/\/localhost\/v2\/regions\?/);
      }
    } finally {
      await service.close();
    }
  });

  test("a 300-character upload name is stored, and no answer shows the server's data path", async () => {
    const service = await startSecured('profiles', { listen: true });
    try {
      const created = await service.app.inject({
        method: 'POST',
        url: '/query',
        payload: { query: 'mutation { createUser(input: {fullName: "A", email: "a@example.com"}) { id } }' },
      });
      const userId = created.json().data.createUser.id;
      const { body, contentType } = multipart(uploadParts(userId, png, `${'n'.repeat(300)}.png`));
      const res = await fetch(`${service.url}/query`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.deepEqual(JSON.parse(text), { data: { uploadProfileImage: true } });
      assert.ok(!text.includes(service.dataDir), text);
    } finally {
      await service.close();
    }
  });

  test('/me/settings/ refuses inherited names such as "constructor" as a language', async () => {
    const service = await startSecured('content');
    try {
      for (const language of ['constructor', '__proto__', 'toString']) {
        const res = await service.app.inject({
          method: 'POST',
          url: '/me/settings/',
          headers: credentials.content,
          payload: { language },
        });
        assert.equal(res.statusCode, 400, `${language}: ${res.body}`);
        assert.equal(res.json().message, `Unknown language: ${language.toLowerCase()}`);
      }
    } finally {
      await service.close();
    }
  });

  test('the data directory is private: the embedded database folder 0700, the list file 0600', async () => {
    const service = await startSecured('list');
    const employees = await startSecured('employees');
    try {
      await service.app.inject({ method: 'POST', url: '/list', payload: { item: 'salt' } });
      assert.equal(statSync(path.join(service.dataDir, 'list.json')).mode & 0o777, 0o600);
      if (!process.env.DATABASE_URL) {
        const { openDatabase } = await import('../../src/platform/database.js');
        const db = await openDatabase({}, employees.dataDir);
        try {
          assert.equal(statSync(path.join(employees.dataDir, 'pg')).mode & 0o777, 0o700);
        } finally {
          await db.close();
        }
      }
    } finally {
      await service.close();
      await employees.close();
    }
  });

  test('a multipart map with more than 10 files is answered once, with 413', async () => {
    const logLines: string[] = [];
    const service = await startSecured('profiles', { listen: true, logLines });
    try {
      const map = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`${i}`, [`variables.f${i}`]]));
      const { body, contentType } = multipart([
        { name: 'operations', value: JSON.stringify({ query: '{ users { id } }', variables: {} }) },
        { name: 'map', value: JSON.stringify(map) },
        ...Array.from({ length: 11 }, (_, i) => ({
          name: `${i}`,
          value: png,
          filename: `f${i}.png`,
          contentType: 'image/png',
        })),
      ]);
      const res = await fetch(`${service.url}/query`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
      assert.equal(res.status, 413);
      const answer = (await res.json()) as { errors: { message: string }[] };
      assert.match(answer.errors[0]?.message ?? '', /at most 10 files/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const doubled = logLines.filter((l) => /already sent|ERR_HTTP_HEADERS_SENT/.test(l));
      assert.deepEqual(doubled, []);
    } finally {
      await service.close();
    }
  });

  test('list ids must be safe integers: 2^53 and 1e308 are 400, and id-less creates keep working', async () => {
    const service = await startSecured('list');
    try {
      for (const payload of ['{"id":9007199254740993,"item":"x"}', '{"id":1e308,"item":"x"}']) {
        const res = await service.app.inject({
          method: 'POST',
          url: '/list',
          headers: { 'content-type': 'application/json' },
          payload,
        });
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), { error: 'body/id must be at most 9007199254740991 (2^53 - 1)' });
      }
      const next = await service.app.inject({ method: 'POST', url: '/list', payload: { item: 'pepper' } });
      assert.equal(next.statusCode, 201);
      assert.equal(next.json().id, 3);
    } finally {
      await service.close();
    }
  });
});
