import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { harnessEnv } from '../../test/harness.js';
import { multipart, png, uploadParts } from '../../test/profiles.js';
import { type Backlot, StateError, start } from '../index.js';

// Reset and checkpoints of every stateful service, seen as a client sees them: what the API lists, the id the
// next created record gets (the sequences), the list file's next id, profiles' stored images.

let b: Backlot;
before(async () => {
  b = await start({
    services: ['profiles', 'things', 'list', 'employees', 'posts', 'machines', 'content'],
    env: { ...(await harnessEnv()), THINGS_SIGNUP_RATE_LIMIT: '0', THINGS_LOGIN_RATE_LIMIT: '0' },
  });
});
after(() => b?.close());

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function send(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

async function graphql(query: string, variables?: unknown) {
  return (await send(`${b.url('profiles')}/query`, 'POST', { query, variables })).json;
}

/** Per service: create one record (returning the id it got) and list what a client sees. */
interface Probe {
  create(label: string): Promise<string | number>;
  list(): Promise<unknown>;
}

const probes = (): Record<string, Probe> => {
  const employees = b.services.employees!.credentials;
  const editor = { authorization: basic(employees.username!, employees.password!) };
  const machines = { authorization: `Bearer ${b.services.machines!.credentials.token}` };
  const content = b.services.content!.credentials;
  const admin = { authorization: basic(content.username!, content.applicationPassword!) };
  return {
    employees: {
      async create(name) {
        const res = await send(`${b.url('employees')}/api/2/create`, 'POST', { name, age: 30 }, editor);
        assert.equal(res.status, 201);
        return res.json.data.id;
      },
      list: async () => (await send(`${b.url('employees')}/api/2/employees`, 'GET')).json,
    },
    list: {
      async create(item) {
        const res = await send(`${b.url('list')}/list`, 'POST', { item });
        assert.equal(res.status, 201);
        return res.json.id;
      },
      list: async () => (await send(`${b.url('list')}/list`, 'GET')).json,
    },
    machines: {
      async create(name) {
        const body = { name, region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64' };
        const res = await send(`${b.url('machines')}/v2/machines`, 'POST', body, machines);
        assert.equal(res.status, 202, JSON.stringify(res.json));
        return res.json.machine.id;
      },
      async list() {
        const { json } = await send(
          `${b.url('machines')}/v2/machines?per_page=200`,
          'GET',
          undefined,
          machines,
        );
        return json.machines.map((m: { id: number; name: string }) => [m.id, m.name]);
      },
    },
    content: {
      async create(title) {
        const body = { title, content: 'x', status: 'publish' };
        const res = await send(`${b.url('content')}/wp-json/wp/v2/posts`, 'POST', body, admin);
        assert.equal(res.status, 201);
        return res.json.id;
      },
      async list() {
        const { json } = await send(`${b.url('content')}/wp-json/wp/v2/posts?per_page=100`, 'GET');
        return json.map((p: { id: number; title: { rendered: string } }) => [p.id, p.title.rendered]);
      },
    },
    things: {
      async create(username) {
        const res = await send(`${b.url('things')}/signup`, 'POST', { username, password: 'pass word 1' });
        assert.equal(res.status, 200);
        return res.json.userId;
      },
      // Users are not listed by the API: who can log in is what a client sees.
      list: async () =>
        Promise.all(
          ['t1', 't2', 't3'].map(
            async (u) =>
              (await send(`${b.url('things')}/login`, 'POST', { username: u, password: 'pass word 1' }))
                .status,
          ),
        ),
    },
    profiles: {
      async create(fullName) {
        const created = await graphql('mutation ($i: NewUser!) { createUser(input: $i) { id } }', {
          i: { fullName, email: `${fullName}@example.com` },
        });
        const { id } = created.data.createUser;
        const { body, contentType } = multipart(uploadParts(id, png, `${fullName}.png`));
        const upload = await fetch(`${b.url('profiles')}/query`, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body,
        });
        assert.equal(upload.status, 200);
        return id;
      },
      async list() {
        const { data } = await graphql('{ users { id fullName img_uri } }');
        // Each user's image as stored: its status and size.
        return Promise.all(
          data.users.map(async (u: { id: string; fullName: string; img_uri: string }) => {
            const image = await fetch(u.img_uri);
            return [u.fullName, image.status, (await image.arrayBuffer()).byteLength];
          }),
        );
      },
    },
  };
};

describe('checkpoints', () => {
  test('restore brings back every service exactly, and the next ids continue from the checkpoint', async () => {
    const p = probes();
    const ids = Object.keys(p);
    const seeded = Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await p[id].list()])));
    for (const id of ids) await p[id].create('t1');
    await b.checkpoint('after-one');
    const saved = Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await p[id].list()])));
    const nextIds = Object.fromEntries(
      await Promise.all(ids.map(async (id) => [id, await p[id].create('t2')])),
    );
    for (const id of ids) assert.notDeepEqual(await p[id].list(), saved[id], `${id} changed`);
    await b.restore('after-one');
    for (const id of ids) assert.deepEqual(await p[id].list(), saved[id], `${id} restored`);
    // Restored twice: the same again (a restore consumes nothing).
    await b.restore('after-one');
    for (const id of ids) {
      assert.deepEqual(await p[id].list(), saved[id], `${id} restored again`);
      if (id !== 'profiles') assert.equal(await p[id].create('t3'), nextIds[id], `${id}'s next id`);
    }
    assert.deepEqual(await b.checkpoints(), ['after-one']);

    await b.reset();
    for (const id of ids) assert.deepEqual(await p[id].list(), seeded[id], `${id} reset to its seed`);
    // The credentials a test holds still work after a reset.
    for (const id of ids) await p[id].create('t1');
    await b.reset();
  });

  test('a checkpoint of some services leaves the others as they are', async () => {
    const p = probes();
    await p.employees.create('t1');
    await b.checkpoint('employees-only', ['employees']);
    const employees = await p.employees.list();
    await p.employees.create('t2');
    await p.list.create('t2');
    const list = await p.list.list();
    await b.restore('employees-only');
    assert.deepEqual(await p.employees.list(), employees);
    assert.deepEqual(await p.list.list(), list);
    await b.reset(['list']);
    assert.deepEqual(await p.list.list(), [
      { id: 1, item: 'bread' },
      { id: 2, item: 'grapes' },
    ]);
    assert.deepEqual(await p.employees.list(), employees);
    await assert.rejects(b.restore('employees-only', ['list']), {
      name: 'CheckpointNotFound',
      message: 'checkpoint "employees-only" has no data for list',
    });
    await b.reset();
  });

  test('posts keeps no state: naming it is allowed and does nothing', async () => {
    await b.checkpoint('posts', ['posts']);
    await b.restore('posts', ['posts']);
    await b.reset(['posts']);
    assert.ok(!(await b.checkpoints()).includes('posts'));
  });

  test('bad names, unknown services and checkpoints are refused with a message', async () => {
    for (const name of ['', '_seed', '_x', '.x', '-x', 'a b', '../x', 'ä', 'x'.repeat(65)]) {
      for (const attempt of [b.checkpoint(name), b.restore(name), b.deleteCheckpoint(name)]) {
        await assert.rejects(attempt, {
          name: 'StateError',
          message: `checkpoint name "${name}": use 1 to 64 letters, digits, ".", "-" and "_", starting with a letter or digit`,
        });
      }
    }
    for (const attempt of [b.restore('never-saved'), b.deleteCheckpoint('never-saved')]) {
      await assert.rejects(attempt, (e: Error) => {
        assert.ok(e instanceof StateError);
        assert.deepEqual([e.name, e.message], ['CheckpointNotFound', 'no checkpoint named "never-saved"']);
        return true;
      });
    }
    await assert.rejects(b.reset(['nope']), {
      name: 'StateError',
      message: 'unknown service "nope" (not served here)',
    });
  });

  test('names keep their case, may hold dots and 64 characters; sizes count the database copies; delete', async () => {
    const p = probes();
    const root = path.join(b.dataDir, 'checkpoints');
    const earlier = await b.checkpoints();
    const foldersBefore = (await readdir(root)).sort();
    const names = ['Upper', 'upper', 'Login.v2', 'x'.repeat(64)];
    const saved: Record<string, unknown> = {};
    for (const name of names) {
      await p.employees.create(name);
      await b.checkpoint(name, ['employees', 'list']);
      saved[name] = await p.employees.list();
    }
    assert.deepEqual(await b.checkpoints(), [...earlier, ...names].sort());
    for (const name of names) {
      await b.restore(name);
      assert.deepEqual(await p.employees.list(), saved[name], name);
    }
    const added = (await readdir(root)).filter((f) => !foldersBefore.includes(f));
    assert.equal(added.length, names.length, 'one folder per name, whatever its case');
    const sizes = (await b.checkpointSizes()).filter((c) => names.includes(c.name));
    assert.deepEqual(
      sizes.map((c) => c.name),
      [...names].sort(),
    );
    for (const { name, bytes } of sizes) {
      const folder = added.find((f) => readFileSync(path.join(root, f, 'name'), 'utf8') === name);
      assert.ok(folder, `${name} has a folder`);
      // The employees tables' copies are in the database: the size is more than the folder's files.
      assert.ok(bytes > (await folderBytes(path.join(root, folder))) + 8192, `${name}: ${bytes}`);
    }
    for (const name of names) await b.deleteCheckpoint(name);
    assert.deepEqual(await b.checkpoints(), earlier);
    assert.deepEqual((await readdir(root)).sort(), foldersBefore);
    await assert.rejects(b.restore('Upper'), { name: 'CheckpointNotFound' });
    await b.reset();
  });
});

async function folderBytes(dir: string) {
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}
