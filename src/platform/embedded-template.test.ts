import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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

/** Removes the empty folders under `dir`, as npm does when it packs a package; returns how many. */
function dropEmptyFolders(dir: string): number {
  let dropped = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = path.join(dir, entry.name);
    dropped += dropEmptyFolders(folder);
    if (readdirSync(folder).length === 0) {
      rmdirSync(folder);
      dropped++;
    }
  }
  return dropped;
}

test('the template still starts when installed from the npm package, which has no empty folders', async () => {
  const packed = path.join(work, 'packed');
  cpSync(path.join(work, 'dist', 'embedded-template'), packed, { recursive: true });
  assert.ok(dropEmptyFolders(path.join(packed, 'data')) >= 10, 'initdb leaves empty folders');
  const dir = path.join(work, 'from-package');
  assert.equal(await seedFromTemplate(path.join(dir, 'data'), packed), true);
  assert.ok(existsSync(path.join(dir, 'data', 'pg_notify')));
  const db = await openEmbedded(dir);
  try {
    assert.deepEqual((await db.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
  } finally {
    await db.close();
  }
});
