import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { installedPGliteVersion, openEmbedded, seedFromTemplate } from './database.js';

// The build's scripts/embedded-template.mjs and a first embedded start's copy of its output, end to end.

const work = mkdtempSync(path.join(tmpdir(), 'backlot-template-'));
after(() => rmSync(work, { recursive: true, force: true }));
const script = path.resolve(import.meta.dirname, '../../scripts/embedded-template.mjs');

test('a first embedded start copies the cluster the build made, which then opens and keeps what is written', async () => {
  await promisify(execFile)(process.execPath, [script], { cwd: work });
  const template = path.join(work, 'dist', 'embedded-template');
  assert.equal(readFileSync(path.join(template, 'pglite-version'), 'utf8').trim(), installedPGliteVersion());

  const dir = path.join(work, 'pg');
  assert.equal(await seedFromTemplate(path.join(dir, 'data'), template), true);
  assert.ok(existsSync(path.join(dir, 'data', 'PG_VERSION')));
  assert.ok(!existsSync(path.join(dir, 'data.partial')));
  let db = await openEmbedded(dir);
  await db.exec('CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$written$$);');
  await db.close();

  assert.equal(
    await seedFromTemplate(path.join(dir, 'data'), template),
    false,
    'a cluster is never replaced',
  );
  db = await openEmbedded(dir);
  try {
    assert.deepEqual((await db.query('SELECT note FROM kept')).rows, [{ note: 'written' }]);
    assert.equal(
      (await db.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]?.shared_buffers,
      '16MB',
    );
  } finally {
    await db.close();
  }
});

test('a template made by another PGlite version is not used', async () => {
  const template = path.join(work, 'other');
  await seedFromTemplate(path.join(template, 'data'), path.join(work, 'dist', 'embedded-template'));
  writeFileSync(path.join(template, 'pglite-version'), '0.0.1\n');
  assert.equal(await seedFromTemplate(path.join(work, 'fresh', 'data'), template), false);
  assert.ok(!existsSync(path.join(work, 'fresh')));
});
