import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Reads the one kind of tar archive backlot ships: the embedded database's template cluster, which
 * scripts/embedded-template.mjs writes (ustar; folders and regular files only, names relative). A folder is an
 * entry of its own, so the empty ones PostgreSQL needs (pg_notify, pg_tblspc, …) survive npm, which leaves empty
 * folders out of a package.
 */
export interface TarEntry {
  /** Relative, `/`-separated, without a trailing `/`. */
  name: string;
  directory: boolean;
  data: Buffer;
}

const BLOCK = 512;

/** A NUL-terminated text field of a header. */
function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** The entries of `archive`, in order; throws on anything but relative folders and files. */
export function* readTar(archive: Buffer): Generator<TarEntry> {
  for (let at = 0; at + BLOCK <= archive.length; ) {
    const header = archive.subarray(at, at + BLOCK);
    // Two zero blocks end an archive; the first is enough to stop.
    if (header.every((byte) => byte === 0)) return;
    const prefix = field(header, 257, 6) === 'ustar' ? field(header, 345, 155) : '';
    const raw = prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100);
    const name = path.posix.normalize(raw).replace(/\/$/, '');
    if (path.posix.isAbsolute(name) || name === '..' || name.startsWith('../')) {
      throw new Error(`tar entry ${raw} leaves the folder it is unpacked into`);
    }
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const data = archive.subarray(at + BLOCK, at + BLOCK + size);
    if (Number.isNaN(size) || data.length !== size) throw new Error(`tar entry ${raw} is truncated`);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    const type = String.fromCharCode(header[156] ?? 0);
    if (type === '5') yield { name, directory: true, data };
    else if (type === '0' || type === '\0') yield { name, directory: false, data };
    else throw new Error(`tar entry ${raw} is of type ${JSON.stringify(type)}, not a folder or a file`);
  }
}

/**
 * Unpacks `archive` into `to` (created): folders first, then the files by two writers on the thread pool, whose
 * two other threads stay free for the services' modules loading meanwhile. Folders are made 0700 and files 0600,
 * as PostgreSQL keeps its data directory.
 */
export async function unpackTar(archive: Buffer, to: string): Promise<void> {
  const files: TarEntry[] = [];
  await mkdir(to, { recursive: true, mode: 0o700 });
  for (const entry of readTar(archive)) {
    if (entry.directory) await mkdir(path.join(to, entry.name), { recursive: true, mode: 0o700 });
    else files.push(entry);
  }
  for (const folder of new Set(files.map((file) => path.posix.dirname(file.name)))) {
    await mkdir(path.join(to, folder), { recursive: true, mode: 0o700 });
  }
  files.reverse();
  const writer = async () => {
    for (let file = files.pop(); file !== undefined; file = files.pop()) {
      await writeFile(path.join(to, file.name), file.data, { mode: 0o600 });
    }
  };
  await Promise.all([writer(), writer()]);
}
