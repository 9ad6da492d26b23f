import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../../support/postgres.js';
import { withEmbeddedCluster } from '../../test/db.js';

/**
 * Operator commands beside a running `backlot serve` on the embedded database: the running process holds the data,
 * so each command goes through its admin API (found through `<data>/admin.json`) and prints what it prints offline.
 */
const cli = ['--import', import.meta.resolve('tsx'), path.resolve('src/cli.ts')];
const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-running-'));
const adminToken = 'operator-chosen-admin-token';
const base = { PATH: process.env.PATH ?? '', BACKLOT_HASH_COST: 'low', BACKLOT_DATA_DIR: dataDir };
let machines = '';
let stop: () => Promise<unknown> = async () => {};

function backlot(args: string[], env: Record<string, string> = { ADMIN_TOKEN: adminToken }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...cli, ...args], { env: { ...base, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

before(async () => {
  await withEmbeddedCluster(dataDir); // what a first start of the built package copies, instead of initdb
  const [machinesPort, listPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(process.execPath, [...cli, 'serve', 'machines', 'list'], {
    env: {
      ...base,
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_MS: '0',
      MACHINES_PORT: String(machinesPort),
      LIST_PORT: String(listPort),
      ADMIN_PORT: String(adminPort),
      ADMIN_TOKEN: adminToken,
    },
  });
  let out = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('admin ')) resolve();
    });
    child.on('exit', () => reject(new Error(`exited before the banner: ${out}`)));
  });
  machines = `http://127.0.0.1:${machinesPort}`;
  stop = () => {
    child.kill('SIGINT');
    return exited;
  };
});
after(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const account = async (token: string) =>
  (await fetch(`${machines}/v2/account`, { headers: { authorization: `Bearer ${token}` } })).status;

test('machines token create goes through the running server, and the token works there at once', async () => {
  const run = await backlot(['machines', 'token', 'create', '--name', 'ci', '--scopes', 'account:read']);
  assert.equal(run.stderr, '');
  assert.equal(run.code, 0);
  const lines = run.stdout.split('\n');
  assert.deepEqual(lines.slice(0, 3), [
    'Created token "ci" (scopes: account:read).',
    'Copy it now: it is stored only as a hash and cannot be shown again.',
    '',
  ]);
  assert.match(lines[3] as string, /^dop_v1_[0-9a-f]{64}$/);
  assert.equal(await account(lines[3] as string), 200);

  const listed = await backlot(['machines', 'token', 'list']);
  assert.equal(listed.code, 0);
  assert.match(
    listed.stdout,
    /^ID +NAME +SCOPES +SOURCE +CREATED\n(.*\n)*\d+ +ci +account:read +cli +\d{4}-/,
  );
  const twice = await backlot(['machines', 'token', 'create', '--name', 'ci']);
  assert.deepEqual(twice, { code: 2, stdout: '', stderr: 'backlot: a token named "ci" already exists\n' });
});

test('checkpoint save, list, restore, delete and reset go through the running server', async () => {
  assert.deepEqual(await backlot(['checkpoint', 'save', 'Before.v1']), {
    code: 0,
    stdout: 'saved checkpoint "Before.v1" of machines, list\n',
    stderr: '',
  });
  const token = (await backlot(['machines', 'token', 'create', '--name', 'later'])).stdout
    .trim()
    .split('\n')
    .at(-1);
  assert.equal(await account(token as string), 200);
  const listed = await backlot(['checkpoint', 'list']);
  assert.match(listed.stdout, /^Before\.v1 {2}\d+ bytes\n$/);
  assert.deepEqual(await backlot(['checkpoint', 'restore', 'Before.v1']), {
    code: 0,
    stdout: 'restored checkpoint "Before.v1"\n',
    stderr: '',
  });
  assert.equal(await account(token as string), 401, 'the token made after the checkpoint is gone');
  assert.deepEqual(await backlot(['checkpoint', 'delete', 'Before.v1']), {
    code: 0,
    stdout: 'deleted checkpoint "Before.v1" of machines, list\n',
    stderr: '',
  });
  assert.deepEqual(await backlot(['checkpoint', 'restore', 'Before.v1']), {
    code: 1,
    stdout: '',
    stderr: 'backlot: no checkpoint named "Before.v1"\n',
  });
  assert.deepEqual(await backlot(['reset', 'list']), {
    code: 0,
    stdout: 'reset list to the first-start state\n',
    stderr: '',
  });
  assert.deepEqual(await backlot(['reset']), {
    code: 0,
    stdout: 'reset machines, list to the first-start state\n',
    stderr: '',
  });
  assert.deepEqual(await backlot(['checkpoint', 'list']), {
    code: 0,
    stdout: `no checkpoints in ${dataDir}\n`,
    stderr: '',
  });
});

test('without the ADMIN_TOKEN the running server set, the command is refused and prints no token', async () => {
  const run = await backlot(['checkpoint', 'list'], {});
  assert.deepEqual(run, {
    code: 1,
    stdout: '',
    stderr:
      "backlot: the running backlot's admin API refused the token: set ADMIN_TOKEN to the one it uses\n",
  });
  const wrong = await backlot(['machines', 'token', 'list'], { ADMIN_TOKEN: 'not-it' });
  assert.equal(wrong.code, 1);
  assert.ok(!`${wrong.stderr}${run.stderr}`.includes(adminToken));
});

test('the server removes its admin record when it stops', async () => {
  assert.ok(existsSync(path.join(dataDir, 'admin.json')));
  await stop();
  assert.ok(!existsSync(path.join(dataDir, 'admin.json')));
  stop = async () => {};
});
