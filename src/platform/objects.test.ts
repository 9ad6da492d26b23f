import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { faultyS3Endpoint, startS3, type TestS3 } from '../../support/s3.js';
import { LocalObjectStore, objectSpace, S3ObjectStore, type S3Settings, stagingFolder } from './objects.js';

let s3: TestS3;
let spool: string;
before(async () => {
  s3 = await startS3('objects-test');
  spool = mkdtempSync(path.join(tmpdir(), 'backlot-spool-test-'));
});
after(async () => {
  await s3.stop();
  rmSync(spool, { recursive: true, force: true });
});

const settingsFor = (endpoint: string): S3Settings => ({
  endpoint,
  region: s3.region,
  bucket: s3.bucket,
  accessKeyId: s3.accessKey,
  secretAccessKey: s3.secretKey,
  forcePathStyle: true,
});

/** The body in uneven chunks, as it arrives from a socket. */
const chunked = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 65_521) yield bytes.subarray(at, at + 65_521);
    })(),
  );

describe('S3ObjectStore.put', () => {
  test('stores the exact bytes with their content type, and leaves no spooled file behind', async () => {
    const store = new S3ObjectStore(settingsFor(s3.endpoint), spool);
    const bytes = randomBytes(6 * 1024 * 1024 + 17);
    try {
      await store.put('dir/a b.png', chunked(bytes), { contentType: 'image/png' });
      const stored = await fetch(`${s3.endpoint}/${s3.bucket}/dir/a%20b.png`);
      assert.equal(stored.status, 200);
      assert.equal(stored.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await stored.arrayBuffer()), bytes);
      assert.deepEqual(readdirSync(spool), []);
    } finally {
      await store.close();
    }
  });

  test('a store answering 500 gets three attempts, each with the whole file, then the error', async () => {
    const failing = await faultyS3Endpoint(500, 'InternalError', 'We encountered an internal error.');
    const store = new S3ObjectStore(settingsFor(failing.url), spool);
    const bytes = randomBytes(300_000);
    try {
      await assert.rejects(store.put('k', chunked(bytes)), /We encountered an internal error\./);
      assert.deepEqual(failing.bodyLengths(), [bytes.length, bytes.length, bytes.length]);
      assert.deepEqual(readdirSync(spool), []);
    } finally {
      await store.close();
      await failing.close();
    }
  });

  test('a refusal (403) is final: one attempt', async () => {
    const forbidding = await faultyS3Endpoint(403, 'AccessDenied', 'Access Denied');
    const store = new S3ObjectStore(settingsFor(forbidding.url), spool);
    try {
      await assert.rejects(store.put('k', chunked(Buffer.from('hello'))), /Access Denied/);
      assert.equal(forbidding.requests(), 1);
    } finally {
      await store.close();
      await forbidding.close();
    }
  });

  test('a body that fails midway sends nothing to the store and leaves no spooled file', async () => {
    const watching = await faultyS3Endpoint(500, 'InternalError', 'unreachable');
    const store = new S3ObjectStore(settingsFor(watching.url), spool);
    const broken = Readable.from(
      (async function* () {
        yield Buffer.alloc(100_000);
        throw new Error('the client went away');
      })(),
    );
    try {
      await assert.rejects(store.put('k', broken), /the client went away/);
      assert.equal(watching.requests(), 0);
      assert.deepEqual(readdirSync(spool), []);
    } finally {
      await store.close();
      await watching.close();
    }
  });
});

describe('ObjectStore.delete', () => {
  test('S3: the object is gone afterwards; a key with no object is not an error', async () => {
    const store = new S3ObjectStore(settingsFor(s3.endpoint), spool);
    try {
      await store.put('gone/photo-150x150.jpg', Readable.from([Buffer.from('bytes')]));
      const url = `${s3.endpoint}/${s3.bucket}/gone/photo-150x150.jpg`;
      assert.equal((await fetch(url)).status, 200);
      await store.delete('gone/photo-150x150.jpg');
      assert.equal((await fetch(url)).status, 404);
      await store.delete('gone/never-stored.jpg');
    } finally {
      await store.close();
    }
  });

  test('local: the file is gone afterwards; a key with no file is not an error', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'backlot-objects-test-'));
    try {
      const store = new LocalObjectStore(root, objectSpace('content'));
      await store.put('content/uploads/a.png', Readable.from([Buffer.from('bytes')]));
      assert.equal((await store.find('content/uploads/a.png'))?.size, 5);
      await store.delete('content/uploads/a.png');
      assert.equal(await store.find('content/uploads/a.png'), undefined);
      await store.delete('content/uploads/never-stored.png');
      assert.deepEqual(readdirSync(root), [stagingFolder]);
      assert.deepEqual(readdirSync(path.join(root, stagingFolder)), []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
