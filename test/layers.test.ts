import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';

// The layer rules live in .dependency-cruiser.cjs (`npm run layers`): imports point down, services stay apart,
// src/ never imports tests or the bench, and no import closes a cycle, type-only ones included.
test('imports point down and form no cycle (dependency-cruiser)', async () => {
  const run = promisify(execFile);
  const result = await run(
    process.execPath,
    [
      'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
      'src',
      'test',
      'bench',
      'support',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'err',
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { stdout: string; code: number }) => ({ stdout: error.stdout, code: error.code }));
  assert.equal('code' in result ? result.code : 0, 0, result.stdout);
});
