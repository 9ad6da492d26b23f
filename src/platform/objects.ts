import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout } from 'node:timers/promises';
import type { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { makeDirectory } from './directories.js';

/** An S3-compatible bucket (DigitalOcean Spaces, AWS, MinIO, R2, s3rver). */
export interface S3Settings {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Canned ACL sent with each object; undefined for stores without object ACLs. */
  acl?: 'public-read';
}

/** Where checkpoints keep a bucket's objects (`<prefix><name>/<key>`); no upload can write there. */
export const checkpointPrefix = '.backlot-checkpoints/';

/**
 * The keys of the shared store (one bucket, or `<dataDir>/objects`) that one service owns: its uploads go only
 * there, and its reset and checkpoints touch only those. content keeps its media under `content/`; profiles'
 * images are `<userId>-<file>` at the root, as the original service stores them, so profiles owns every other
 * key but the checkpoints'. Objects stored by earlier versions already follow this split, so they stay where
 * they are and are served as before.
 */
export interface ObjectSpace {
  readonly owner: string;
  owns(key: string): boolean;
}

const contentPrefix = 'content/';

export function objectSpace(owner: 'profiles' | 'content'): ObjectSpace {
  if (owner === 'content') return { owner, owns: (key) => key.startsWith(contentPrefix) };
  return {
    owner,
    owns: (key) => key !== '' && !key.startsWith(contentPrefix) && !key.startsWith(checkpointPrefix),
  };
}

/** A key outside the store's space: refused before anything is written. */
export class ForeignKeyError extends Error {
  constructor(key: string, space: ObjectSpace) {
    super(`the key "${key}" belongs to another service's files, not ${space.owner}'s`);
  }
}

/** The file name a key is stored under in the embedded store (URL-encoded, so no key can leave the folder). */
export function localFileName(key: string) {
  let name = encodeURIComponent(key).replace(/^\./, '%2E');
  // File systems cap names at 255 bytes: a long key keeps a readable start and a hash that tells keys apart.
  if (name.length > 200) name = `${name.slice(0, 120)}~${createHash('sha256').update(key).digest('hex')}`;
  return name;
}

/**
 * Whether a file of the embedded store's folder holds a key of `space`: not the staging folder or a partial
 * upload, and a key (the readable start of a long one) that the space owns.
 */
export function ownsLocalFile(space: ObjectSpace, name: string) {
  if (name.startsWith('.') || name.endsWith('.partial')) return false;
  const start = name.replace(/~[0-9a-f]{64}$/, '').replace(/%[0-9A-Fa-f]?$/, '');
  try {
    return space.owns(decodeURIComponent(start));
  } catch {
    return false;
  }
}

/** The folder of uploads being written; its name starts with a dot, which no key's file name does. */
export const stagingFolder = '.uploading';

/** Partial files older than this are removed at start even when their process id is taken again. */
const stalePartialMs = 24 * 3600 * 1000;

function processAlive(pid: number) {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes uploads a killed process left half written: files of the staging folder (`<pid>-<random>.partial`) and
 * the `<file>.<pid>.<time>.partial` files earlier versions wrote beside the objects, whose process is gone (or
 * that are a day old). Uploads of a live process, this one or another sharing the folder, are left alone.
 */
export function removeStalePartials(root: string) {
  const removed: string[] = [];
  const sweep = (folder: string, pidOf: (name: string) => number | undefined) => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const pid = pidOf(name);
      if (pid === undefined) continue;
      const file = path.join(folder, name);
      let old = false;
      try {
        old = Date.now() - statSync(file).mtimeMs > stalePartialMs;
      } catch {
        continue;
      }
      if (!old && processAlive(pid)) continue;
      rmSync(file, { force: true });
      removed.push(name);
    }
  };
  sweep(path.join(root, stagingFolder), (name) => {
    const match = /^(\d+)-[0-9a-f]+\.partial$/.exec(name);
    return match ? Number(match[1]) : undefined;
  });
  sweep(root, (name) => {
    const match = /\.(\d+)\.\d+\.partial$/.exec(name);
    return match ? Number(match[1]) : undefined;
  });
  return removed;
}

export interface PutOptions {
  contentType?: string;
}

/** Where uploaded files go: a local directory served over HTTP, or an S3 bucket. */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** The keys this store may write: its service's part of the shared store. */
  readonly space: ObjectSpace;
  /** Streams the body into the store under `key`; a body that errors leaves nothing stored. */
  put(key: string, body: Readable, options?: PutOptions): Promise<void>;
  /** Stores a complete file (the upload's spooled copy) under `key`. */
  putFile(key: string, file: string, options?: PutOptions): Promise<void>;
  /** Removes the object under `key`; a key with no object is not an error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface StoredFile {
  path: string;
  size: number;
  modified: Date;
}

/**
 * Files under `<dataDir>/objects`, one file per key; names are URL-encoded so no key can leave the folder. An
 * upload is written to `.uploading/<pid>-<random>.partial` and renamed into place once complete; partials a
 * killed process left are removed when a store opens the folder.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local';
  constructor(
    readonly root: string,
    readonly space: ObjectSpace = objectSpace('profiles'),
  ) {
    makeDirectory(path.join(root, stagingFolder));
    removeStalePartials(root);
    removeStaleSpools();
  }

  private pathOf(key: string) {
    return path.join(this.root, localFileName(key));
  }

  async put(key: string, body: Readable) {
    if (!this.space.owns(key)) throw new ForeignKeyError(key, this.space);
    const target = this.pathOf(key);
    // Renamed into place once whole, so a failed upload never replaces or leaves a file.
    const partial = path.join(
      this.root,
      stagingFolder,
      `${process.pid}-${randomBytes(6).toString('hex')}.partial`,
    );
    try {
      await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      // The body's own failure is the client's story; a file-system one must not show the server's paths.
      const code = (error as NodeJS.ErrnoException).code;
      if (code && /^E[A-Z]+$/.test(code)) throw new Error(`the file could not be stored (${code})`);
      throw error;
    }
  }

  /** Copies a complete file in as the object `key`. */
  async putFile(key: string, file: string) {
    await this.put(key, createReadStream(file));
  }

  /** The stored file for `key`, or undefined when there is none. */
  async find(key: string): Promise<StoredFile | undefined> {
    if (!this.space.owns(key) || key.endsWith('.partial')) return undefined;
    const file = this.pathOf(key);
    try {
      const info = await stat(file);
      return info.isFile() ? { path: file, size: info.size, modified: info.mtime } : undefined;
    } catch {
      return undefined;
    }
  }

  open(file: StoredFile) {
    return createReadStream(file.path);
  }

  async delete(key: string) {
    if (!this.space.owns(key)) throw new ForeignKeyError(key, this.space);
    await rm(this.pathOf(key), { force: true });
  }

  async close() {}
}

/** S3 refuses a single PutObject over 5 GiB; uploads are capped below that (PROFILES_MAX_FILE_BYTES). */
export const maxSinglePutBytes = 5 * 1024 ** 3;

const putAttempts = 3;

/** Throttling, a server error or a broken connection: worth another attempt. Any other refusal is final. */
function isTransient(error: unknown) {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === undefined || status === 429 || status >= 500;
}

/**
 * An S3 client for `settings`, the SDK (a few hundred modules) imported on first use. One place builds them, for
 * the stores and for checkpoints of a bucket.
 */
export async function createS3Client(settings: S3Settings, options: { maxAttempts?: number } = {}) {
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Many S3-compatible stores reject the newer default checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...options,
  });
  return { sdk, client };
}

/** A temporary folder for one upload: `backlot-upload-<pid>-…`, so one a killed process left can be told apart. */
export function makeSpool(root = tmpdir()) {
  return mkdtemp(path.join(root, `backlot-upload-${process.pid}-`));
}

/** Removes the temporary upload folders of processes that are gone (a kill -9 leaves them behind). */
export function removeStaleSpools(root = tmpdir()) {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^backlot-upload-(\d+)-/.exec(name)?.[1];
    if (pid && !processAlive(Number(pid))) rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  /** The SDK is loaded once a bucket is configured, while the service starts; a failure shows at first use. */
  private readonly sdk: Promise<{
    client: S3Client;
    Put: typeof PutObjectCommand;
    Delete: typeof DeleteObjectCommand;
  }>;

  /** `spoolRoot` is where uploads wait while they are checked; the system's temporary folder by default. */
  constructor(
    readonly settings: S3Settings,
    private readonly spoolRoot = tmpdir(),
    readonly space: ObjectSpace = objectSpace('profiles'),
  ) {
    // The SDK cannot replay a stream body (a retry hangs or fails), so put() retries with a fresh stream.
    this.sdk = createS3Client(settings, { maxAttempts: 1 }).then(({ sdk, client }) => ({
      client,
      Put: sdk.PutObjectCommand,
      Delete: sdk.DeleteObjectCommand,
    }));
    this.sdk.catch(() => {});
    removeStaleSpools(spoolRoot);
  }

  /**
   * Spools the body to a temporary file, then sends it as one streamed PutObject of known length. Memory stays
   * at a few stream buffers per upload, where a multipart upload holds a 5 MiB part for each; and a body that
   * fails (too large, client gone) is refused before anything reaches the bucket.
   */
  async put(key: string, body: Readable, options: PutOptions = {}) {
    if (!this.space.owns(key)) throw new ForeignKeyError(key, this.space);
    const spool = await makeSpool(this.spoolRoot);
    const file = path.join(spool, 'body');
    try {
      await pipeline(body, createWriteStream(file, { mode: 0o600 }));
      await this.putFile(key, file, options);
    } finally {
      await rm(spool, { recursive: true, force: true });
    }
  }

  /** Sends a complete file as the object `key` (retried with a fresh stream when the store fails for a moment). */
  async putFile(key: string, file: string, options: PutOptions = {}) {
    if (!this.space.owns(key)) throw new ForeignKeyError(key, this.space);
    const { size } = await stat(file);
    const { client, Put } = await this.sdk;
    for (let attempt = 1; ; attempt++) {
      try {
        await client.send(
          new Put({
            Bucket: this.settings.bucket,
            Key: key,
            Body: createReadStream(file),
            ContentLength: size,
            ContentType: options.contentType,
            ACL: this.settings.acl,
          }),
        );
        return;
      } catch (error) {
        if (attempt >= putAttempts || !isTransient(error)) throw error;
        await setTimeout(100 * 2 ** attempt);
      }
    }
  }

  async delete(key: string) {
    if (!this.space.owns(key)) throw new ForeignKeyError(key, this.space);
    const { client, Delete } = await this.sdk;
    await client.send(new Delete({ Bucket: this.settings.bucket, Key: key }));
  }

  async close() {
    const sdk = await this.sdk.catch(() => undefined);
    sdk?.client.destroy();
  }
}
