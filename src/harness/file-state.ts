import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  checkpointPrefix,
  createS3Client,
  type ObjectSpace,
  ownsLocalFile,
  type S3Settings,
} from '../platform/objects.js';

/**
 * State that lives in files: the list's JSON file, and profiles' images and content's media (a local folder or
 * an S3 bucket shared by both, each service owning its part: see ObjectSpace). A checkpoint keeps copies under
 * `<dataDir>/checkpoints/<key>/<service>/`, or, for a bucket, in the bucket itself under
 * `.backlot-checkpoints/<key>/` (a prefix no upload can write).
 */

export interface FileState {
  capture(dir: string): Promise<void>;
  /** `marked`: the database holds this checkpoint's completion mark (so it is of this version, whatever `dir` holds). */
  restore(dir: string, marked?: boolean): Promise<void>;
  /** Kept where every process sharing the database finds it (a bucket), not in one data directory. */
  shared?: boolean;
  /** Removes what the checkpoint stored outside its folder (a bucket's copies). */
  drop?(key: string): Promise<void>;
  /** The bytes the checkpoint stored outside its folder. */
  bytes?(key: string): Promise<number>;
}

/** Writes `text` beside `file` and renames it into place, so a reader never sees half of it. */
async function replaceFile(file: string, text: string) {
  const partial = `${file}.${process.pid}.checkpoint.tmp`;
  await writeFile(partial, text, { mode: 0o600 });
  await rename(partial, file);
}

/**
 * The list file. With the service running, its store saves and reloads the data (it holds it in memory);
 * without one (the CLI), the file is copied.
 */
export function listFileState(
  file: string,
  live?: { save(): Promise<string>; restore(saved: string): Promise<void> },
): FileState {
  const saved = (dir: string) => path.join(dir, 'list.json');
  return {
    async capture(dir) {
      const text = live ? await live.save() : existsSync(file) ? await readFile(file, 'utf8') : undefined;
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // No file yet (never served): the checkpoint says so, and restoring removes the file.
      if (text === undefined) await rm(saved(dir), { force: true });
      else await replaceFile(saved(dir), text);
    },
    async restore(dir) {
      const text = existsSync(saved(dir)) ? await readFile(saved(dir), 'utf8') : undefined;
      if (live) {
        // Restoring before every test is common: an unchanged file is not written again.
        if (text !== undefined && text !== (await live.save())) await live.restore(text);
        return;
      }
      if (text === undefined) await rm(file, { force: true });
      else await replaceFile(file, text);
    },
  };
}

/**
 * One service's objects in the embedded store's folder (`space`: the files it owns; the other service's, the
 * staging folder and partial uploads are never touched). A checkpoint copies them to `<dir>/objects/`; a
 * checkpoint without that folder (content's, from before checkpoints held its media) leaves them as they are.
 * Checkpoints of profiles from then held every service's files: only profiles' are restored from them.
 */
export function localObjectsState(root: string, space: ObjectSpace): FileState {
  const saved = (dir: string) => path.join(dir, 'objects');
  const owned = async (folder: string) =>
    existsSync(folder) ? (await readdir(folder)).filter((name) => ownsLocalFile(space, name)) : [];
  return {
    async capture(dir) {
      await rm(saved(dir), { recursive: true, force: true });
      await mkdir(saved(dir), { recursive: true, mode: 0o700 });
      for (const name of await owned(root)) {
        // A file deleted meanwhile is simply not in the checkpoint.
        await copyFile(path.join(root, name), path.join(saved(dir), name)).catch((error) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        });
      }
    },
    async restore(dir) {
      if (!existsSync(saved(dir))) return;
      await mkdir(root, { recursive: true, mode: 0o700 });
      // The folder stays (the running services serve from it); only this service's files are replaced.
      const kept = await owned(saved(dir));
      const keep = new Set(kept);
      for (const name of await owned(root))
        if (!keep.has(name)) await rm(path.join(root, name), { force: true });
      for (const name of kept) await copyFile(path.join(saved(dir), name), path.join(root, name));
    },
  };
}

/** Names the checkpoint of a bucket: its objects are copied in the bucket, this file says which service's. */
const bucketMarker = 'bucket-objects';

/**
 * One service's objects in an S3 bucket, copied within the bucket (no bytes pass through backlot) to
 * `.backlot-checkpoints/<checkpoint key>/<object key>`: each service captures, restores and drops only the keys of its space.
 * A checkpoint without the marker file is from before checkpoints were per service: profiles' held every key
 * (only profiles' are restored), content's held none (its objects are left as they are).
 */
export function s3ObjectsState(
  settings: S3Settings,
  space: ObjectSpace,
  options: { capturedBefore: boolean } = { capturedBefore: false },
): FileState & { close(): Promise<void> } {
  const s3 = createS3Client(settings);
  s3.catch(() => {});
  const Bucket = settings.bucket;
  const objects = async (prefix: string) => {
    const { sdk, client } = await s3;
    const found: { key: string; size: number }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? [])
        if (item.Key) found.push({ key: item.Key, size: item.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found.filter((o) => space.owns(o.key.slice(prefix.length)));
  };
  const keys = async (prefix: string) => (await objects(prefix)).map((o) => o.key);
  /** Copies an object; `acl` unset leaves the copy private (the bucket's default), as checkpoint copies are. */
  const copy = async (from: string, to: string, acl?: S3Settings['acl']) => {
    const { sdk, client } = await s3;
    const source = `${Bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await client.send(new sdk.CopyObjectCommand({ Bucket, Key: to, CopySource: source, ACL: acl }));
  };
  const remove = async (list: string[]) => {
    const { sdk, client } = await s3;
    for (let i = 0; i < list.length; i += 1000) {
      const Objects = list.slice(i, i + 1000).map((Key) => ({ Key }));
      await client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
    }
  };
  // The checkpoint's key is the last part but one of its folder (`<dataDir>/checkpoints/<key>/<service>`).
  const prefixOf = (dir: string) => `${checkpointPrefix}${path.basename(path.dirname(dir))}/`;
  return {
    async capture(dir) {
      const prefix = prefixOf(dir);
      await remove(await keys(prefix));
      const live = await keys('');
      // Saved copies are private whatever STORAGE_ACL says: only the restored live objects get it back.
      await Promise.all(live.map((key) => copy(key, prefix + key)));
      await writeFile(path.join(dir, bucketMarker), `${space.owner}\n`, { mode: 0o600 });
    },
    shared: true,
    async restore(dir, marked) {
      if (!options.capturedBefore && !marked && !existsSync(path.join(dir, bucketMarker))) return;
      const prefix = prefixOf(dir);
      const [live, saved] = await Promise.all([keys(''), keys(prefix)]);
      const kept = new Set(saved.map((k) => k.slice(prefix.length)));
      await remove(live.filter((k) => !kept.has(k)));
      await Promise.all(saved.map((key) => copy(key, key.slice(prefix.length), settings.acl)));
    },
    async drop(key) {
      await remove(await keys(`${checkpointPrefix}${key}/`));
    },
    async bytes(key) {
      return (await objects(`${checkpointPrefix}${key}/`)).reduce((sum, o) => sum + o.size, 0);
    },
    async close() {
      (await s3.catch(() => undefined))?.client.destroy();
    },
  };
}
