import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout } from 'node:timers/promises';
import type { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

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

export interface PutOptions {
  contentType?: string;
}

/** Where uploaded files go: a local directory served over HTTP, or an S3 bucket. */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Streams the body into the store under `key`; a body that errors leaves nothing stored. */
  put(key: string, body: Readable, options?: PutOptions): Promise<void>;
  /** Removes the object under `key`; a key with no object is not an error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface StoredFile {
  path: string;
  size: number;
  modified: Date;
}

/** Files under `<dataDir>/objects`, one file per key; names are URL-encoded so no key can leave the folder. */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local';
  constructor(readonly root: string) {
    mkdirSync(root, { recursive: true, mode: 0o700 });
  }

  private pathOf(key: string) {
    let name = encodeURIComponent(key).replace(/^\./, '%2E');
    // File systems cap names at 255 bytes: a long key keeps a readable start and a hash that tells keys apart.
    if (name.length > 200) name = `${name.slice(0, 120)}~${createHash('sha256').update(key).digest('hex')}`;
    return path.join(this.root, name);
  }

  async put(key: string, body: Readable) {
    const target = this.pathOf(key);
    // Written beside the target and renamed into place, so a failed upload never replaces or leaves a file.
    const partial = `${target}.${process.pid}.${Date.now()}.partial`;
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

  /** The stored file for `key`, or undefined when there is none. */
  async find(key: string): Promise<StoredFile | undefined> {
    if (key === '' || key.endsWith('.partial')) return undefined;
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

export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  /**
   * The SDK (a few hundred modules) is imported only once a bucket is configured, while the service starts;
   * a failure to load it is reported by the first upload.
   */
  private readonly sdk: Promise<{
    client: S3Client;
    Put: typeof PutObjectCommand;
    Delete: typeof DeleteObjectCommand;
  }>;

  /** `spoolRoot` is where uploads wait while they are checked; the system's temporary folder by default. */
  constructor(
    readonly settings: S3Settings,
    private readonly spoolRoot = tmpdir(),
  ) {
    this.sdk = import('@aws-sdk/client-s3').then((sdk) => ({
      client: this.createClient(sdk.S3Client),
      Put: sdk.PutObjectCommand,
      Delete: sdk.DeleteObjectCommand,
    }));
    this.sdk.catch(() => {});
  }

  private createClient(S3: typeof S3Client) {
    const { settings } = this;
    return new S3({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Many S3-compatible stores reject the newer default checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The SDK cannot replay a stream body (a retry hangs or fails), so put() retries with a fresh stream.
      maxAttempts: 1,
    });
  }

  /**
   * Spools the body to a temporary file, then sends it as one streamed PutObject of known length. Memory stays
   * at a few stream buffers per upload, where a multipart upload holds a 5 MiB part for each; and a body that
   * fails (too large, client gone) is refused before anything reaches the bucket.
   */
  async put(key: string, body: Readable, options: PutOptions = {}) {
    const spool = await mkdtemp(path.join(this.spoolRoot, 'backlot-upload-'));
    const file = path.join(spool, 'body');
    try {
      await pipeline(body, createWriteStream(file, { mode: 0o600 }));
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
    } finally {
      await rm(spool, { recursive: true, force: true });
    }
  }

  async delete(key: string) {
    const { client, Delete } = await this.sdk;
    await client.send(new Delete({ Bucket: this.settings.bucket, Key: key }));
  }

  async close() {
    const sdk = await this.sdk.catch(() => undefined);
    sdk?.client.destroy();
  }
}
