import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from '../../../test/db.js';
import { startTestService } from '../../../test/service.js';
import type { Database } from '../../platform/database.js';
import { list } from './index.js';

let db: Database;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db.close();
});

const tempFile = (name = 'list.json') => path.join(mkdtempSync(path.join(tmpdir(), 'backlot-list-')), name);
const start = (file: string, env: Record<string, string> = {}, logLines?: string[]) =>
  startTestService(list, { db, logLines, env: { LIST_DELAY_MS: '0', LIST_FILE: file, ...env } });
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  for (const until = Date.now() + timeoutMs; Date.now() < until; ) {
    if (await check()) return;
    await sleep(50);
  }
  assert.fail(`timed out waiting: ${what}`);
}

const post = (url: string, item: string) =>
  fetch(`${url}/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ item }),
  });

describe('concurrent writers', () => {
  test('200 concurrent POSTs: every item is in the file, with distinct ids', async () => {
    const file = tempFile();
    const service = await startTestService(list, {
      db,
      listen: true,
      env: { LIST_DELAY_MS: '0', LIST_FILE: file },
    });
    try {
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, i) => post(service.url, `item ${i}`)),
      );
      const created = (await Promise.all(responses.map((r) => r.json()))) as { id: number; item: string }[];
      assert.deepEqual(new Set(responses.map((r) => r.status)), new Set([201]));
      const items: { id: number; item: string }[] = read(file).list;
      assert.equal(items.length, 202);
      assert.equal(new Set(items.map((i) => i.id)).size, 202);
      for (const { id, item } of created) assert.deepEqual(items.find((i) => i.id === id)?.item, item);
      assert.deepEqual(
        items.map((i) => i.id).sort((a, b) => a - b),
        Array.from({ length: 202 }, (_, i) => i + 1),
      );
    } finally {
      await service.close();
    }
  });

  test('a write that cannot be saved is 503 and leaves no trace', async () => {
    const file = tempFile();
    const service = await start(file);
    const before = readFileSync(file, 'utf8');
    // A directory where the temporary file must go makes the save fail, as a full disk would.
    const blocker = path.join(path.dirname(file), `.list.json.${process.pid}.tmp`);
    mkdirSync(blocker);
    try {
      const failed = await service.app.inject({ method: 'POST', url: '/list', payload: { item: 'lost' } });
      assert.equal(failed.statusCode, 503);
      assert.match(failed.json().error, /could not be saved/);
      assert.equal(readFileSync(file, 'utf8'), before);
      const listed = await service.app.inject('/list');
      assert.equal(listed.json().length, 2);
      rmSync(blocker, { recursive: true });
      const saved = await service.app.inject({ method: 'POST', url: '/list', payload: { item: 'kept' } });
      assert.equal(saved.statusCode, 201);
      assert.deepEqual(saved.json(), { item: 'kept', id: 3 });
      assert.deepEqual(read(file).list[2], { item: 'kept', id: 3 });
    } finally {
      rmSync(blocker, { recursive: true, force: true });
      await service.close();
    }
  });
});

describe('the data file', () => {
  test('a missing file (and directory) is created with the starting list', async () => {
    const file = path.join(tempFile('nested'), 'deeper', 'groceries.json');
    const service = await start(file);
    try {
      assert.deepEqual(read(file), {
        list: [
          { id: 1, item: 'bread' },
          { id: 2, item: 'grapes' },
        ],
      });
      assert.equal(readFileSync(file, 'utf8').split('\n')[1], '  "list": [');
    } finally {
      await service.close();
    }
  });

  test('temporary files left by a crashed save are removed at startup', async () => {
    const file = tempFile();
    const leftover = path.join(path.dirname(file), '.list.json.12345.tmp');
    writeFileSync(leftover, '{"list": [');
    const service = await start(file);
    try {
      assert.equal(existsSync(leftover), false);
      assert.equal(read(file).list.length, 2);
    } finally {
      await service.close();
    }
  });

  test('an invalid or unreadable file stops startup with a line naming the file and the problem', async () => {
    const cases: [string, RegExp][] = [
      ['{"list": [', /not valid JSON/],
      ['[1, 2]', /must hold one JSON object, found an array/],
      ['{"a/b": []}', /key "a\/b" contains "\/"/],
    ];
    for (const [content, problem] of cases) {
      const file = tempFile();
      writeFileSync(file, content);
      await assert.rejects(start(file), (error: Error) => {
        assert.ok(error.message.startsWith(`${file}: `), error.message);
        assert.match(error.message, problem);
        assert.doesNotMatch(error.message, /\n/);
        return true;
      });
      assert.equal(readFileSync(file, 'utf8'), content);
    }
    const directory = tempFile();
    mkdirSync(directory);
    await assert.rejects(start(directory), new RegExp(`${directory}: cannot read`));
  });

  test('a second process on the same file is refused until the first one stops', async () => {
    const file = tempFile();
    const first = await start(file);
    await assert.rejects(
      start(file, { LIST_LOCK_WAIT_MS: '0' }),
      new RegExp(`${file} is in use by another process`),
    );
    await first.close();
    const second = await start(file, { LIST_LOCK_WAIT_MS: '0' });
    await second.close();
  });

  test('a lock removed from under the service is taken back before the next save', async () => {
    const file = tempFile();
    const logLines: string[] = [];
    const service = await start(file, {}, logLines);
    try {
      rmSync(`${file}.lock`, { recursive: true });
      await eventually(
        async () => logLines.some((l) => l.includes('took the lock')),
        'the lock is taken back',
      );
      assert.ok(logLines.some((l) => l.includes('was lost')));
      assert.ok(existsSync(`${file}.lock`));
      const saved = await service.app.inject({ method: 'POST', url: '/list', payload: { item: 'kept' } });
      assert.equal(saved.statusCode, 201);
      assert.deepEqual(read(file).list[2], { item: 'kept', id: 3 });
    } finally {
      await service.close();
    }
  });

  test('edits by hand are picked up; an invalid edit is logged and the last good data kept', async () => {
    const file = tempFile();
    const logLines: string[] = [];
    const service = await start(file, {}, logLines);
    try {
      writeFileSync(file, JSON.stringify({ list: [{ id: 7, item: 'tea' }], notes: [] }));
      await eventually(async () => (await service.app.inject('/list')).json().length === 1, 'reload');
      assert.deepEqual((await service.app.inject('/list')).json(), [{ id: 7, item: 'tea' }]);
      assert.deepEqual((await service.app.inject('/notes')).json(), []);

      writeFileSync(file, '{"list": [{"id": 8, "item": "half-writ');
      await eventually(
        async () => logLines.some((l) => l.includes('now invalid')),
        'the invalid edit is logged',
      );
      assert.match(logLines.find((l) => l.includes('now invalid')) ?? '', /last good data/);
      assert.deepEqual((await service.app.inject('/list')).json(), [{ id: 7, item: 'tea' }]);

      const created = await service.app.inject({ method: 'POST', url: '/list', payload: { item: 'milk' } });
      assert.deepEqual(created.json(), { item: 'milk', id: 8 });
      assert.deepEqual(read(file), {
        list: [
          { id: 7, item: 'tea' },
          { item: 'milk', id: 8 },
        ],
        notes: [],
      });
    } finally {
      await service.close();
    }
  });
});

describe('a crash in the middle of a write burst', () => {
  test('SIGKILL leaves a valid file holding every acknowledged write', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-list-crash-'));
    const file = path.join(dataDir, 'list.json');
    const cli = path.resolve(import.meta.dirname, '../../cli.ts');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, 'serve', 'list', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir],
      {
        env: {
          ...process.env,
          LIST_DELAY_MS: '0',
          LIST_FILE: file,
          LOG_LEVEL: 'warn',
          // The CLI opens a database for every process; the test server (when there is one) starts faster than PGlite.
          DATABASE_URL: process.env.BACKLOT_TEST_DATABASE_URL ?? '',
          DB_SSL_CA: process.env.BACKLOT_TEST_DATABASE_CA ?? '',
        },
      },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const found = /list\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (found) resolve(found[1]);
        });
        child.on('exit', (code) => reject(new Error(`the service exited (${code}) before starting: ${out}`)));
      });

      const acknowledged: { item: string; id: number }[] = [];
      let killed = false;
      const worker = async (w: number) => {
        for (let n = 0; !killed; n++) {
          try {
            const response = await post(url, `burst ${w}-${n}`);
            if (response.status === 201)
              acknowledged.push((await response.json()) as { item: string; id: number });
          } catch {
            return; // the connection died with the process
          }
        }
      };
      const workers = Array.from({ length: 20 }, (_, w) => worker(w));
      await eventually(async () => acknowledged.length >= 100, '100 acknowledged writes', 60_000);
      child.kill('SIGKILL');
      killed = true;
      await Promise.all(workers);
      await exited;

      const items: { id: number; item: string }[] = read(file).list;
      const byId = new Map(items.map((i) => [i.id, i.item]));
      assert.equal(byId.size, items.length, 'ids are distinct');
      for (const { id, item } of acknowledged)
        assert.equal(byId.get(id), item, `acknowledged ${item} is kept`);
      assert.ok(items.length >= acknowledged.length + 2);
    } finally {
      child.kill('SIGKILL');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
