import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { list } from '../src/services/list/index.js';
import { startTestService } from './service.js';

const isRoot = process.getuid?.() === 0;

/** Fills the file system holding `dir` to the last byte; returns the filler's path. */
function fill(dir: string) {
  const filler = path.join(dir, 'filler');
  const chunk = Buffer.alloc(4096, 1);
  const parts: Buffer[] = [];
  // Grow the filler until the file system refuses another byte.
  for (;;) {
    parts.push(chunk);
    try {
      writeFileSync(filler, Buffer.concat(parts));
    } catch (error) {
      assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
      break;
    }
  }
  // Top up with single bytes: the last partial page must be gone too.
  for (;;) {
    try {
      writeFileSync(filler, Buffer.alloc(1), { flag: 'a' });
    } catch {
      return filler;
    }
  }
}

describe('the list file on a full disk', () => {
  test('a write that cannot be saved answers 507 {"error": …}; the file stays untouched and valid; space back, writes work', {
    skip: isRoot
      ? false
      : 'needs root to mount a small tmpfs (mount -t tmpfs); run the suite as root to cover it',
  }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'backlot-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir]);
    try {
      const file = path.join(dir, 'list.json');
      const service = await startTestService(list, { env: { LIST_DELAY_MS: '0', LIST_FILE: file } });
      const post = (item: string) => service.app.inject({ method: 'POST', url: '/list', payload: { item } });
      try {
        assert.equal((await post('oat milk')).statusCode, 201);
        const before = readFileSync(file, 'utf8');
        const filler = fill(dir);

        const refused = await post('sourdough');
        assert.equal(refused.statusCode, 507);
        assert.match(refused.headers['content-type'] as string, /^application\/json/);
        const body = refused.json();
        assert.deepEqual(Object.keys(body), ['error']);
        assert.match(body.error, /^the change could not be saved: .*ENOSPC/);

        assert.equal(readFileSync(file, 'utf8'), before, 'the file is untouched');
        assert.ok(JSON.parse(before).list.some((i: { item: string }) => i.item === 'oat milk'));
        assert.deepEqual(
          readdirSync(dir).filter((name) => name.endsWith('.tmp')),
          [],
          'no temporary file is left behind',
        );
        // The refused change is not served either.
        const served = (await service.app.inject({ method: 'GET', url: '/list' })).json();
        assert.equal(
          served.some((i: { item: string }) => i.item === 'sourdough'),
          false,
        );

        rmSync(filler);
        const accepted = await post('sourdough');
        assert.equal(accepted.statusCode, 201);
        const items = JSON.parse(readFileSync(file, 'utf8')).list.map((i: { item: string }) => i.item);
        assert.ok(items.includes('oat milk') && items.includes('sourdough'));
      } finally {
        await service.close();
      }
    } finally {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
