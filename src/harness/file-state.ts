import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { S3Settings } from '../platform/objects.js';

/**
 * State that lives in files: the list's JSON file and profiles' stored images (a local folder or an S3 bucket).
 * A checkpoint keeps copies under `<dataDir>/checkpoints/<key>/<service>/` (`checkpointKey`: the name, or a hash
 * of it), or, for a bucket, in the bucket itself under `.backlot-checkpoints/<key>/` (a prefix no upload can
 * produce: profiles' keys start with a user id).
 */

export interface FileState {
  capture(dir: string): Promise<void>;
  restore(dir: string): Promise<void>;
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

/** Profiles' images in the embedded store's folder. */
export function localObjectsState(root: string): FileState {
  const saved = (dir: string) => path.join(dir, 'objects');
  return {
    async capture(dir) {
      await rm(saved(dir), { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      if (existsSync(root)) await cp(root, saved(dir), { recursive: true });
      else await mkdir(saved(dir), { mode: 0o700 });
    },
    async restore(dir) {
      await mkdir(root, { recursive: true, mode: 0o700 });
      // The folder stays (the running service serves from it); what is in it is replaced.
      const current = await readdir(root);
      await Promise.all(current.map((name) => rm(path.join(root, name), { recursive: true, force: true })));
      if (existsSync(saved(dir))) await cp(saved(dir), root, { recursive: true });
    },
  };
}

const checkpointPrefix = '.backlot-checkpoints/';

/** Profiles' images in an S3 bucket: copied within the bucket, so no bytes pass through backlot. */
export function s3ObjectsState(settings: S3Settings): FileState & { close(): Promise<void> } {
  const sdk = import('@aws-sdk/client-s3').then((s3) => ({
    s3,
    client: new s3.S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  }));
  const Bucket = settings.bucket;
  const objects = async (prefix: string) => {
    const { s3, client } = await sdk;
    const found: { key: string; size: number }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new s3.ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? [])
        if (item.Key) found.push({ key: item.Key, size: item.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return prefix ? found : found.filter((o) => !o.key.startsWith(checkpointPrefix));
  };
  const keys = async (prefix: string) => (await objects(prefix)).map((o) => o.key);
  const copy = async (from: string, to: string) => {
    const { s3, client } = await sdk;
    const source = `${Bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await client.send(new s3.CopyObjectCommand({ Bucket, Key: to, CopySource: source, ACL: settings.acl }));
  };
  const remove = async (list: string[]) => {
    const { s3, client } = await sdk;
    for (let i = 0; i < list.length; i += 1000) {
      const Objects = list.slice(i, i + 1000).map((Key) => ({ Key }));
      await client.send(new s3.DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
    }
  };
  // The checkpoint's key is the last part of its folder (`<dataDir>/checkpoints/<key>/profiles`).
  const prefixOf = (dir: string) => `${checkpointPrefix}${path.basename(path.dirname(dir))}/`;
  return {
    async capture(dir) {
      const prefix = prefixOf(dir);
      await remove(await keys(prefix));
      const live = await keys('');
      await Promise.all(live.map((key) => copy(key, prefix + key)));
    },
    async restore(dir) {
      const prefix = prefixOf(dir);
      const [live, saved] = await Promise.all([keys(''), keys(prefix)]);
      const kept = new Set(saved.map((k) => k.slice(prefix.length)));
      await remove(live.filter((k) => !kept.has(k)));
      await Promise.all(saved.map((key) => copy(key, key.slice(prefix.length))));
    },
    async drop(key) {
      await remove(await keys(`${checkpointPrefix}${key}/`));
    },
    async bytes(key) {
      return (await objects(`${checkpointPrefix}${key}/`)).reduce((sum, o) => sum + o.size, 0);
    },
    async close() {
      (await sdk).client.destroy();
    },
  };
}
