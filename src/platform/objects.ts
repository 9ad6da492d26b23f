import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

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
    mkdirSync(root, { recursive: true });
  }

  private pathOf(key: string) {
    const name = encodeURIComponent(key).replace(/^\./, '%2E');
    return path.join(this.root, name);
  }

  async put(key: string, body: Readable) {
    const target = this.pathOf(key);
    // Written beside the target and renamed into place, so a failed upload never replaces or leaves a file.
    const partial = `${target}.${process.pid}.${Date.now()}.partial`;
    try {
      await pipeline(body, createWriteStream(partial, { mode: 0o644 }));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
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

  async close() {}
}

export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  readonly client: S3Client;

  constructor(readonly settings: S3Settings) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Many S3-compatible stores reject the newer default checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  async put(key: string, body: Readable, options: PutOptions = {}) {
    // lib-storage holds at most queueSize parts of partSize bytes in memory; small files go as one PutObject.
    const upload = new Upload({
      client: this.client,
      // One part in flight per upload: memory stays near one 5 MiB part (S3's minimum) per concurrent upload.
      queueSize: 1,
      partSize: 5 * 1024 * 1024,
      leavePartsOnError: false,
      params: {
        Bucket: this.settings.bucket,
        Key: key,
        Body: body,
        ContentType: options.contentType,
        ACL: this.settings.acl,
      },
    });
    let bodyError: unknown;
    body.once('error', (error) => {
      bodyError = error;
      void upload.abort().catch(() => {});
    });
    try {
      await upload.done();
    } catch (error) {
      throw bodyError ?? error;
    }
    if (bodyError) throw bodyError;
  }

  async close() {
    this.client.destroy();
  }
}
