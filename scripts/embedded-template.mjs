// Runs PGlite's initdb once, at build time, into dist/embedded-template: a first start on the embedded database
// then unpacks this cluster (src/platform/database.ts) instead of spending seconds in initdb compiled to WASM.
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
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';

const target = path.join('dist', 'embedded-template');
const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
const version = JSON.parse(
  readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'),
).version;
const stamp = path.join(target, 'pglite-version');
const archive = path.join(target, 'data.tar.gz');

if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === version && existsSync(archive))
  process.exit(0);
const partial = `${target}.partial`;
rmSync(partial, { recursive: true, force: true });
mkdirSync(partial, { recursive: true });
const dataDir = path.join(partial, 'data');
const db = await PGlite.create(dataDir);
await db.close();

/** A ustar header: the template holds folders and files only, with short relative names. */
function header(name, size, type) {
  if (Buffer.byteLength(name) > 100) throw new Error(`${name}: longer than a tar header's name field`);
  const block = Buffer.alloc(512);
  block.write(name, 0);
  block.write(`${(type === '5' ? 0o755 : 0o644).toString(8).padStart(7, '0')}\0`, 100);
  block.write('0000000\0', 108);
  block.write('0000000\0', 116);
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  // mtime 0: the same cluster makes the same archive.
  block.write('00000000000\0', 136);
  block.write(type, 156);
  block.write('ustar\0' + '00', 257);
  block.write('        ', 148);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

// The cluster as one tar.gz (39 MB of files, mostly zeros, in 4.5 MB): a folder is an entry of its own, so the
// empty ones PostgreSQL will not start without (pg_notify, pg_tblspc, …) survive npm, which drops empty folders
// from a package. A first start unpacks it (src/platform/database.ts, seedFromTemplate).
const blocks = [];
const pack = (relative) => {
  const entries = readdirSync(path.join(dataDir, relative), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const name = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) {
      blocks.push(header(`${name}/`, 0, '5'));
      pack(name);
    } else if (entry.isFile()) {
      const data = readFileSync(path.join(dataDir, name));
      blocks.push(header(name, data.length, '0'), data, Buffer.alloc((512 - (data.length % 512)) % 512));
    } else {
      throw new Error(`${name}: neither a folder nor a file`);
    }
  }
};
pack('');
blocks.push(Buffer.alloc(1024));
writeFileSync(path.join(partial, 'data.tar.gz'), gzipSync(Buffer.concat(blocks), { level: 9 }));
rmSync(dataDir, { recursive: true });
writeFileSync(path.join(partial, 'pglite-version'), `${version}\n`);
// Readable by whoever runs backlot (the container's unprivileged user, not the root that built it).
chmodSync(partial, 0o755);
for (const file of readdirSync(partial)) chmodSync(path.join(partial, file), 0o644);
rmSync(target, { recursive: true, force: true });
renameSync(partial, target);
