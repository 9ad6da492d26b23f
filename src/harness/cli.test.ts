import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { usingPostgres } from '../../test/db.js';
import { harnessEnv } from '../../test/harness.js';
import type { Env } from '../config.js';
import { type Backlot, start } from '../index.js';
import { sampleEmployees } from '../services/employees/seed.js';

// `backlot reset` and `backlot checkpoint` on a data directory that start() (the same code as `backlot serve`)
// served, with the server stopped; and what they say while it runs.

const cli = ['--import', import.meta.resolve('tsx'), path.resolve('src/cli.ts')];

function backlot(args: string[], env: Env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cli, ...args], {
      env: { PATH: process.env.PATH, BACKLOT_HASH_COST: 'low', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

let dataDir: string;
let env: Env;
const services = ['list', 'employees'] as const;
before(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-cli-state-'));
  env = await harnessEnv();
});
after(() => rmSync(dataDir, { recursive: true, force: true }));

type Item = { id: number; item: string };
async function session<T>(work: (b: Backlot) => Promise<T>): Promise<T> {
  const b = await start({ services: [...services], dataDir, env });
  try {
    return await work(b);
  } finally {
    await b.close();
  }
}
const json = { 'content-type': 'application/json' };
const addItem = async (url: string, item: string) =>
  (
    (await (
      await fetch(`${url}/list`, { method: 'POST', headers: json, body: JSON.stringify({ item }) })
    ).json()) as Item
  ).id;
const items = async (url: string) =>
  ((await (await fetch(`${url}/list`)).json()) as Item[]).map((i) => i.item);
async function addEmployee(b: Backlot, name: string) {
  const { username, password } = b.services.employees!.credentials;
  const response = await fetch(`${b.url('employees')}/api/2/create`, {
    method: 'POST',
    headers: { ...json, authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
    body: JSON.stringify({ name, age: 30 }),
  });
  assert.equal(response.status, 201);
  return ((await response.json()) as { data: { id: number } }).data.id;
}
const employees = async (b: Backlot) =>
  (
    (await (await fetch(`${b.url('employees')}/api/2/employees`)).json()) as { data: { id: number }[] }
  ).data.map((e) => e.id);

function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(path.join(entry.parentPath, entry.name)).size, 0);
}

describe('backlot reset and backlot checkpoint', () => {
  test('save, restore and reset round trips on a stopped server', async () => {
    await session(async (b) => {
      await addItem(b.url('list'), 'milk');
      await addEmployee(b, 'Ada');
    });
    const saved = await backlot(['checkpoint', 'save', 'one', '--data-dir', dataDir], env);
    assert.deepEqual(saved, { code: 0, stdout: 'saved checkpoint "one" of list, employees\n', stderr: '' });
    const next = await session(async (b) => ({
      item: await addItem(b.url('list'), 'eggs'),
      employee: await addEmployee(b, 'Grace'),
    }));

    const restored = await backlot(['checkpoint', 'restore', 'one', '--data-dir', dataDir], env);
    assert.deepEqual(restored, { code: 0, stdout: 'restored checkpoint "one"\n', stderr: '' });
    await session(async (b) => {
      assert.deepEqual(await items(b.url('list')), ['bread', 'grapes', 'milk']);
      assert.equal((await employees(b)).length, sampleEmployees.length + 1);
      // The ids continue as they did after the checkpoint.
      assert.equal(await addItem(b.url('list'), 'eggs'), next.item);
      assert.equal(await addEmployee(b, 'Grace'), next.employee);
    });
    const listed = await backlot(['checkpoint', 'list', '--data-dir', dataDir], env);
    assert.deepEqual([listed.code, listed.stderr], [0, '']);
    // Each name with its size in bytes: the files on disk and, for employees, the tables' copies.
    const [, bytes] = /^one {2}(\d+) bytes\n$/.exec(listed.stdout) ?? [];
    assert.ok(Number(bytes) > folderBytes(path.join(dataDir, 'checkpoints', 'one')), listed.stdout);

    const reset = await backlot(['reset', 'list', '--data-dir', dataDir], env);
    assert.deepEqual(reset, { code: 0, stdout: 'reset list to the first-start state\n', stderr: '' });
    await session(async (b) => {
      assert.deepEqual(await items(b.url('list')), ['bread', 'grapes']);
      assert.equal((await employees(b)).length, sampleEmployees.length + 2);
    });
    assert.equal((await backlot(['reset', '--data-dir', dataDir], env)).code, 0);
    await session(async (b) => {
      assert.equal((await employees(b)).length, sampleEmployees.length);
      // The generated password (kept) still works after the reset.
      assert.equal(await addEmployee(b, 'Linus'), sampleEmployees.length + 1);
    });
  });

  test('delete removes a checkpoint; names keep their case and may hold dots', async () => {
    for (const name of ['Login.v2', 'login.v2', 'x'.repeat(64)]) {
      const saved = await backlot(['checkpoint', 'save', name, '--data-dir', dataDir], env);
      assert.deepEqual(saved, {
        code: 0,
        stdout: `saved checkpoint "${name}" of list, employees\n`,
        stderr: '',
      });
    }
    const listed = await backlot(['checkpoint', 'list', '--data-dir', dataDir], env);
    assert.deepEqual(
      listed.stdout.split('\n').map((line) => line.split(' ')[0]),
      ['Login.v2', 'login.v2', 'one', 'x'.repeat(64), ''],
    );
    const deleted = await backlot(['checkpoint', 'delete', 'Login.v2', '--data-dir', dataDir], env);
    assert.deepEqual(deleted, {
      code: 0,
      stdout: 'deleted checkpoint "Login.v2" of list, employees\n',
      stderr: '',
    });
    const again = await backlot(['checkpoint', 'delete', 'Login.v2', '--data-dir', dataDir], env);
    assert.deepEqual(again, { code: 1, stdout: '', stderr: 'backlot: no checkpoint named "Login.v2"\n' });
    const restore = await backlot(['checkpoint', 'restore', 'Login.v2', '--data-dir', dataDir], env);
    assert.deepEqual(restore, { code: 1, stdout: '', stderr: 'backlot: no checkpoint named "Login.v2"\n' });
    for (const name of ['login.v2', 'x'.repeat(64)]) {
      assert.equal((await backlot(['checkpoint', 'delete', name, '--data-dir', dataDir], env)).code, 0);
    }
    const left = await backlot(['checkpoint', 'list', '--data-dir', dataDir], env);
    assert.match(left.stdout, /^one {2}\d+ bytes\n$/);
  });

  test('while the server runs, the command says to use the admin API or start()', async () => {
    await session(async () => {
      const list = await backlot(['reset', 'list', '--data-dir', dataDir], env);
      assert.equal(list.code, 1);
      assert.equal(
        list.stderr,
        `backlot: the list file ${path.join(dataDir, 'list.json')} is in use by a running backlot: reset and checkpoints of a running backlot go through its admin API or the programmatic start(); or stop it first\n`,
      );
      const tables = await backlot(['reset', 'employees', '--data-dir', dataDir], env);
      if (usingPostgres) {
        // On PostgreSQL the tables can be reset under a running server, which sees the change at once.
        assert.equal(tables.code, 0, tables.stderr);
      } else {
        assert.equal(tables.code, 1);
        assert.match(
          tables.stderr,
          /^backlot: a backlot \(pid \d+\) is serving .*: reset and checkpoints of a running backlot go through its admin API/,
        );
      }
    });
  });

  test('mistakes are refused with what to do', async () => {
    const cases: [string[], number, RegExp][] = [
      [
        ['checkpoint', 'frob'],
        2,
        /^backlot: checkpoint: expected save, restore, delete or list, got "frob"\nusage:/,
      ],
      [['checkpoint', 'save'], 2, /^backlot: checkpoint save: NAME is required/],
      [['checkpoint', 'delete'], 2, /^backlot: checkpoint delete: NAME is required/],
      [['reset', 'nope'], 2, /^backlot: unknown service "nope" \(valid: profiles, /],
      [['reset', '--force'], 2, /^backlot: Unknown option '--force'/],
      ...['Bad Name', '_seed', '.x', 'x'.repeat(65)].flatMap((name) =>
        ['save', 'restore', 'delete'].map((verb): [string[], number, RegExp] => [
          ['checkpoint', verb, name, '--data-dir', dataDir],
          1,
          new RegExp(
            `^backlot: checkpoint name "${name.replace('.', '\\.')}": use 1 to 64 letters, digits, "\\.", "-" and "_", starting with a letter or digit\n$`,
          ),
        ]),
      ),
      [
        ['checkpoint', 'restore', 'never', '--data-dir', dataDir],
        1,
        /^backlot: no checkpoint named "never"\n$/,
      ],
      // On PostgreSQL the database knows which services were served, from any data directory (below).
      ...(usingPostgres
        ? []
        : [
            [
              ['reset', '--data-dir', path.join(dataDir, 'empty')],
              1,
              /^backlot: no service has been served from .*empty yet/,
            ] as [string[], number, RegExp],
          ]),
    ];
    for (const [args, code, stderr] of cases) {
      const run = await backlot(args, env);
      assert.equal(run.code, code, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, stderr);
      assert.equal(run.stdout, '');
    }
    if (usingPostgres) {
      const run = await backlot(['reset', '--data-dir', path.join(dataDir, 'empty')], env);
      assert.deepEqual(run, { code: 0, stdout: 'reset employees to the first-start state\n', stderr: '' });
    }
  });
});
