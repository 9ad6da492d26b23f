import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ListStore } from '../services/list/store.js';
import { openEmbedded } from './database.js';
import { LockHeldError, lockHolder, takeLock } from './lock-file.js';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'backlot-lock-'));
const moduleUrl = new URL('./lock-file.ts', import.meta.url).href;
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Another process that takes the lock at `lockPath` through the same module and holds it until killed. */
async function holder(lockPath: string): Promise<ChildProcess> {
  const script = `import { takeLock } from ${JSON.stringify(moduleUrl)};
await takeLock(${JSON.stringify(lockPath)});
process.stdout.write('held\\n');
setInterval(() => {}, 60_000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before taking the lock`)));
  });
  return child;
}

async function killHard(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const noLog = { info() {}, warn() {}, error() {} } as never;

describe('the one lock file', () => {
  test('a live holder in another process refuses, naming its pid; once it is killed (-9) the lock is taken at once', async () => {
    const lockPath = path.join(tempDir(), 'x.lock');
    const child = await holder(lockPath);
    await assert.rejects(takeLock(lockPath), (error: LockHeldError) => {
      assert.ok(error instanceof LockHeldError);
      assert.equal(error.holder?.pid, child.pid);
      return true;
    });
    assert.equal(lockHolder(lockPath)?.holder?.pid, child.pid);
    // Waiting does not help while it lives.
    const started = Date.now();
    await assert.rejects(takeLock(lockPath, { waitMs: 600 }), LockHeldError);
    assert.ok(Date.now() - started >= 550);
    await killHard(child);
    // Its file is still there (nothing ran at its exit), fresh: its holder is gone, so it is taken over anyway.
    assert.ok(existsSync(lockPath));
    assert.equal(lockHolder(lockPath), undefined);
    const started2 = Date.now();
    const lock = await takeLock(lockPath);
    assert.ok(Date.now() - started2 < 500);
    assert.equal(JSON.parse(readFileSync(lockPath, 'utf8')).pid, process.pid);
    lock.release();
    assert.equal(existsSync(lockPath), false);
  });

  test('a waiting taker gets the lock when its holder is killed', async () => {
    const lockPath = path.join(tempDir(), 'x.lock');
    const child = await holder(lockPath);
    const taking = takeLock(lockPath, { waitMs: 5000 });
    await sleep(300);
    await killHard(child);
    (await taking).release();
  });

  test('one process cannot take its own lock twice; a leftover with its own pid is taken over', async () => {
    const lockPath = path.join(tempDir(), 'x.lock');
    const lock = await takeLock(lockPath);
    await assert.rejects(takeLock(lockPath), LockHeldError);
    lock.release();
    // An earlier process with this pid (a container's PID 1 after a restart), in the older format: a bare pid.
    writeFileSync(lockPath, String(process.pid));
    (await takeLock(lockPath)).release();
  });

  test('a holder on another host counts until its lock is 5 s without a refresh', async () => {
    const lockPath = path.join(tempDir(), 'x.lock');
    writeFileSync(lockPath, JSON.stringify({ pid: 1, host: 'elsewhere.example', token: 't' }));
    await assert.rejects(takeLock(lockPath), (error: LockHeldError) => {
      assert.match(error.message, /pid 1 on elsewhere\.example/);
      return true;
    });
    const old = new Date(Date.now() - 6000);
    utimesSync(lockPath, old, old);
    (await takeLock(lockPath)).release();
    // An abandoned proper-lockfile lock (a directory) of an earlier version is taken over too.
    mkdirSync(lockPath);
    utimesSync(lockPath, old, old);
    (await takeLock(lockPath)).release();
  });

  test('a removed lock is reported once to its holder', async () => {
    const lockPath = path.join(tempDir(), 'x.lock');
    let lost: Error | undefined;
    const lock = await takeLock(lockPath, { staleMs: 500, onLost: (error) => (lost = error) });
    writeFileSync(lockPath, JSON.stringify({ pid: 1, host: 'elsewhere.example', token: 'other' }));
    for (let i = 0; i < 40 && !lost; i++) await sleep(25);
    assert.match(lost?.message ?? '', /another process holds it now/);
    lock.release();
    assert.ok(existsSync(lockPath), 'the other holder keeps its lock');
  });

  test('the embedded database: a second process is refused naming the directory; a killed one is taken over', async () => {
    const dir = tempDir();
    const child = await holder(path.join(dir, 'backlot.lock'));
    await assert.rejects(
      openEmbedded(dir),
      new RegExp(
        `^DatabaseError: the embedded database in ${dir} is in use by another backlot process \\(pid ${child.pid}\\); stop it first`,
      ),
    );
    await killHard(child);
    const db = await openEmbedded(dir);
    try {
      await assert.rejects(openEmbedded(dir), /is in use by another backlot process/);
      assert.deepEqual((await db.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
    } finally {
      await db.close();
    }
    assert.equal(existsSync(path.join(dir, 'backlot.lock')), false);
  });

  test('the list file: a live holder refuses, a killed one is taken over without waiting', async () => {
    const file = path.join(tempDir(), 'list.json');
    const child = await holder(`${file}.lock`);
    const options = { log: noLog, lockWaitMs: 0 } as never;
    await assert.rejects(ListStore.open(file, options), new RegExp(`${file} is in use by another process`));
    await killHard(child);
    const store = await ListStore.open(file, options);
    await store.close();
  });
});
