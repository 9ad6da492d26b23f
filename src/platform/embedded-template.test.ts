import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { installedPGliteVersion, openEmbedded, seedFromTemplate } from './database.js';
import { readTar } from './tar.js';

// The build's scripts/embedded-template.mjs and a first embedded start's unpacking of its output, end to end.

const work = mkdtempSync(path.join(tmpdir(), 'backlot-template-'));
after(() => rmSync(work, { recursive: true, force: true }));
const script = path.resolve(import.meta.dirname, '../../scripts/embedded-template.mjs');

test('a first embedded start unpacks the cluster the build made, which then opens and keeps what is written', async () => {
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
  mkdirSync(template);
  copyFileSync(
    path.join(work, 'dist', 'embedded-template', 'data.tar.gz'),
    path.join(template, 'data.tar.gz'),
  );
  writeFileSync(path.join(template, 'pglite-version'), '0.0.1\n');
  assert.equal(await seedFromTemplate(path.join(work, 'fresh', 'data'), template), false);
  assert.ok(!existsSync(path.join(work, 'fresh')));
});

test('the template is one archive npm packs as it is, holding the empty folders PostgreSQL needs', async () => {
  const template = path.join(work, 'dist', 'embedded-template');
  // npm leaves empty folders out of a package: a folder of the cluster must not depend on being packed.
  assert.deepEqual(readdirSync(template).sort(), ['data.tar.gz', 'pglite-version']);
  const entries = [...readTar(gunzipSync(readFileSync(path.join(template, 'data.tar.gz'))))];
  const folders = entries.filter((entry) => entry.directory).map((entry) => entry.name);
  const empty = folders.filter((folder) => !entries.some((entry) => entry.name.startsWith(`${folder}/`)));
  assert.ok(empty.includes('pg_notify') && empty.includes('pg_tblspc'), `empty folders: ${empty.join(', ')}`);
  assert.ok(empty.length >= 10, 'initdb leaves empty folders');

  const dir = path.join(work, 'from-package');
  assert.equal(await seedFromTemplate(path.join(dir, 'data'), template), true);
  for (const folder of empty) assert.ok(existsSync(path.join(dir, 'data', folder)), folder);
  assert.equal(statSync(path.join(dir, 'data', 'PG_VERSION')).mode & 0o777, 0o600);
  const db = await openEmbedded(dir);
  try {
    assert.deepEqual((await db.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
  } finally {
    await db.close();
  }
});

test('an archive entry that would land outside the cluster is refused', () => {
  const header = Buffer.alloc(1024);
  header.write('../escape', 0);
  header.write('00000000000\0', 124);
  header.write('0', 156);
  assert.throws(() => [...readTar(header)], /tar entry \.\.\/escape leaves the folder/);
});
