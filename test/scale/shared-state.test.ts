import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runStateCommand } from '../../src/harness/cli.js';
import { type Backlot, start } from '../../src/index.js';
import { sampleEmployees } from '../../src/services/employees/seed.js';
import { usingPostgres } from '../db.js';
import { harnessEnv } from '../harness.js';

// Processes with data directories of their own on one PostgreSQL share the first-start state (what `reset`
// restores) and the checkpoints of database-backed services: the database holds them, not a data directory.
// The embedded database is one per data directory, so there is nothing to share there.

const services = ['employees', 'things'] as const;
const dirs: string[] = [];
const running: Backlot<(typeof services)[number]>[] = [];
const dir = () => {
  const made = mkdtempSync(path.join(tmpdir(), 'backlot-shared-'));
  dirs.push(made);
  return made;
};
let env: Awaited<ReturnType<typeof harnessEnv>>;

before(async () => {
  env = { ...(await harnessEnv()), THINGS_SIGNUP_RATE_LIMIT: '0' };
});
after(async () => {
  for (const b of running) await b.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const launch = async (dataDir: string) => {
  const b = await start({ services, dataDir, env });
  running.push(b);
  return b;
};

async function employeeCount(b: Backlot) {
  const res = await fetch(`${b.url('employees')}/api/2/employees`);
  return ((await res.json()) as { data: unknown[] }).data.length;
}

test('a second data directory on the same database keeps the first-start state and sees the checkpoints', {
  skip: usingPostgres ? false : 'the embedded database belongs to one data directory',
}, async () => {
  const first = await launch(dir());
  const { username, password } = first.services.employees.credentials;
  const auth = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  for (const name of ['Ann', 'Bo', 'Cy']) {
    const res = await fetch(`${first.url('employees')}/api/2/create`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name, age: 30 }),
    });
    assert.equal(res.status, 201);
  }
  await first.checkpoint('k1');
  const seeded = sampleEmployees.length;

  // Joins with an empty data directory while the database holds three more employees than at first start.
  const second = await launch(dir());
  assert.deepEqual(await second.checkpoints(), ['k1']);
  await second.reset();
  assert.equal(await employeeCount(first), seeded, 'reset brings back the first start, not the join');
  await second.restore('k1');
  assert.equal(await employeeCount(first), seeded + 3);

  // The command line from a third data directory: the same list, and restore and reset work from there.
  const cli = { ...env, BACKLOT_DATA_DIR: dir() };
  assert.match(await runStateCommand('checkpoint', ['list'], cli), /^k1 {2}\d+ bytes$/);
  await runStateCommand('reset', [], cli);
  assert.equal(await employeeCount(second), seeded);
  assert.equal(await runStateCommand('checkpoint', ['restore', 'k1'], cli), 'restored checkpoint "k1"');
  assert.equal(await employeeCount(second), seeded + 3);
  assert.equal(
    await runStateCommand('checkpoint', ['delete', 'k1'], cli),
    'deleted checkpoint "k1" of things, employees',
  );
  assert.deepEqual(await first.checkpoints(), []);
});
