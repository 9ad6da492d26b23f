// Runs PGlite's initdb once, at build time, into dist/embedded-template: a first start on the embedded database
// then copies this cluster (src/platform/database.ts) instead of spending seconds in initdb compiled to WASM.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

const target = path.join('dist', 'embedded-template');
const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
const version = JSON.parse(
  readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'),
).version;
const stamp = path.join(target, 'pglite-version');
const directoriesFile = path.join(target, 'directories');

if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === version && existsSync(directoriesFile))
  process.exit(0);
const partial = `${target}.partial`;
rmSync(partial, { recursive: true, force: true });
mkdirSync(partial, { recursive: true });
const db = await PGlite.create(path.join(partial, 'data'));
await db.close();
writeFileSync(path.join(partial, 'pglite-version'), `${version}\n`);
// initdb makes its files for its own user only; the template holds no data, and whoever runs backlot (the
// container's unprivileged user, not the root that built it) must be able to copy it.
const shareable = (dir) => {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) shareable(file);
    else chmodSync(file, 0o644);
  }
};
shareable(partial);
// npm leaves empty folders out of a package, and PostgreSQL will not start without its (pg_notify, pg_tblspc, …):
// the copy recreates every folder listed here (src/platform/database.ts).
const folders = [];
const listFolders = (relative) => {
  for (const entry of readdirSync(path.join(partial, 'data', relative), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const name = path.posix.join(relative, entry.name);
    folders.push(name);
    listFolders(name);
  }
};
listFolders('');
writeFileSync(path.join(partial, 'directories'), `${folders.join('\n')}\n`);
rmSync(target, { recursive: true, force: true });
renameSync(partial, target);
