import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { faultyS3Endpoint, startS3, type TestS3 } from '../../../support/s3.js';
import { createTestDatabase } from '../../../test/db.js';
import { multipart, png, uploadParts } from '../../../test/profiles.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { ConfigError } from '../../config.js';
import { s3ObjectsState } from '../../harness/file-state.js';
import type { Database } from '../../platform/database.js';
import { createS3Client, objectSpace, type S3Settings } from '../../platform/objects.js';
import { profiles } from './index.js';
import { profilesSettings } from './settings.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** A pass-through to the S3 server that records each request, to see the headers the service sends. */
async function recordingProxy(target: string) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const upstream = http.request(
      `${target}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => undefined),
    server,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

async function post(service: TestService<unknown>, body: Buffer | string, contentType: string) {
  const response = await fetch(`${service.url}/query`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function createUser(service: TestService<unknown>) {
  const { body } = await post(
    service,
    JSON.stringify({
      query: 'mutation { createUser(input: {fullName: "Ada", email: "ada@example.com"}) { id } }',
    }),
    'application/json',
  );
  return body.data.createUser.id as string;
}

async function uploadAs(service: TestService<unknown>, userId: string, name: string) {
  const { body, contentType } = multipart(uploadParts(userId, png, name));
  return post(service, body, contentType);
}

let s3: TestS3;
// One database for every service instance here: starting each on its own would only add start-up time.
let db: Database;
before(async () => {
  s3 = await startS3('avatars');
  db = await createTestDatabase();
});
after(async () => {
  await s3.stop();
  await db.close();
});

describe('S3-compatible storage', () => {
  test('the object lands at <userId>-<filename> with the bytes, content type and public-read ACL', async () => {
    const proxy = await recordingProxy(s3.endpoint);
    const env = { ...s3.env, STORAGE_ENDPOINT: proxy.url };
    delete (env as Record<string, string | undefined>).STORAGE_PUBLIC_URL;
    const service = await startTestService(profiles, { env, db, listen: true });
    try {
      const id = await createUser(service);
      const result = await uploadAs(service, id, 'face.png');
      assert.deepEqual(result.body, { data: { uploadProfileImage: true } });
      const key = `${id}-face.png`;
      const put = proxy.seen.find((r) => r.method === 'PUT');
      assert.ok(put, 'a PUT reached the store');
      assert.equal(put.url.split('?')[0], `/avatars/${key}`);
      assert.equal(put.headers['x-amz-acl'], 'public-read');
      assert.equal(put.headers['content-type'], 'image/png');
      const stored = await fetch(`${s3.endpoint}/avatars/${encodeURIComponent(key)}`);
      assert.equal(stored.status, 200);
      assert.deepEqual(Buffer.from(await stored.arrayBuffer()), png);
      // With no STORAGE_PUBLIC_URL the URL follows the original's DigitalOcean Spaces form.
      const { rows } = await service.db.query<{ img_uri: string }>(
        'SELECT img_uri FROM profiles.users WHERE id = $1',
        [id],
      );
      assert.equal(rows[0]?.img_uri, `https://avatars.us-east-1.digitaloceanspaces.com/${key}`);
    } finally {
      await service.close();
      await proxy.close();
    }
  });

  test('STORAGE_ACL=none sends no ACL, and STORAGE_PUBLIC_URL shapes img_uri with the key URL-encoded', async () => {
    const proxy = await recordingProxy(s3.endpoint);
    const env = {
      ...s3.env,
      STORAGE_ENDPOINT: proxy.url,
      STORAGE_ACL: 'none',
      STORAGE_PUBLIC_URL: 'https://cdn.example.com/img/{key}',
    };
    const service = await startTestService(profiles, { env, db, listen: true });
    try {
      const id = await createUser(service);
      const result = await uploadAs(service, id, 'my face #1.png');
      assert.deepEqual(result.body, { data: { uploadProfileImage: true } });
      const put = proxy.seen.find((r) => r.method === 'PUT');
      assert.equal(put?.headers['x-amz-acl'], undefined);
      const { rows } = await service.db.query<{ img_uri: string }>(
        'SELECT img_uri FROM profiles.users WHERE id = $1',
        [id],
      );
      assert.equal(rows[0]?.img_uri, `https://cdn.example.com/img/${id}-my%20face%20%231.png`);
      const stored = await fetch(`${s3.endpoint}/avatars/${encodeURIComponent(`${id}-my face #1.png`)}`);
      assert.deepEqual(Buffer.from(await stored.arrayBuffer()), png);
    } finally {
      await service.close();
      await proxy.close();
    }
  });

  test('a store that answers 500 is "error uploading file: " and the user keeps the placeholder', async () => {
    const failing = await faultyS3Endpoint(500, 'InternalError', 'We encountered an internal error.');
    const service = await startTestService(profiles, {
      env: { ...s3.env, STORAGE_ENDPOINT: failing.url },
      db,
      listen: true,
    });
    try {
      const id = await createUser(service);
      const { status, body } = await uploadAs(service, id, 'face.png');
      assert.equal(status, 200);
      assert.equal(body.data, null);
      assert.match(body.errors[0].message, /^error uploading file: We encountered an internal error\./);
      assert.deepEqual(body.errors[0].path, ['uploadProfileImage']);
      assert.ok(failing.requests() >= 1);
      const { rows } = await service.db.query<{ img_uri: string }>(
        'SELECT img_uri FROM profiles.users WHERE id = $1',
        [id],
      );
      assert.equal(rows[0]?.img_uri, 'https://bit.ly/3mCSn2i');
    } finally {
      await service.close();
      await failing.close();
    }
  });
});

describe('checkpoints on S3', () => {
  test('saved copies are private; objects restored to their live keys get STORAGE_ACL back', async () => {
    // s3rver keeps no ACLs (its GetObjectAcl is a stub), so the copies' x-amz-acl is read on the wire. A server
    // of its own: s3rver cannot copy the keys with '#' the other tests leave (it misreads the encoded source).
    const s3 = await startS3('checkpoints');
    const proxy = await recordingProxy(s3.endpoint);
    const settings: S3Settings = {
      endpoint: proxy.url,
      region: s3.region,
      bucket: s3.bucket,
      accessKeyId: s3.accessKey,
      secretAccessKey: s3.secretKey,
      forcePathStyle: true,
      acl: 'public-read',
    };
    const key = 'checkpoint-acl-face.png';
    const { sdk, client } = await createS3Client(settings);
    const state = s3ObjectsState(settings, objectSpace('profiles'));
    const root = await mkdtemp(path.join(tmpdir(), 'backlot-acl-'));
    const dir = path.join(root, 'checkpoints', 'acl', 'profiles');
    await mkdir(dir, { recursive: true });
    try {
      await client.send(
        new sdk.PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: png, ACL: 'public-read' }),
      );
      const copies = () =>
        proxy.seen
          .filter((r) => r.method === 'PUT' && r.headers['x-amz-copy-source'])
          .map((r) => ({ to: decodeURIComponent(r.url.split('?')[0] ?? ''), acl: r.headers['x-amz-acl'] }));
      await state.capture(dir);
      const saved = copies();
      assert.ok(
        saved.some((c) => c.to === `/${s3.bucket}/.backlot-checkpoints/acl/${key}`),
        'the object is saved',
      );
      for (const copy of saved) assert.equal(copy.acl, undefined, `${copy.to} is private`);
      proxy.seen.length = 0;
      await state.restore(dir);
      const restored = copies();
      assert.ok(
        restored.some((c) => c.to === `/${s3.bucket}/${key}`),
        'the object is restored',
      );
      for (const copy of restored) assert.equal(copy.acl, 'public-read', `${copy.to} is public again`);
      const live = await fetch(`${s3.endpoint}/${s3.bucket}/${key}`);
      assert.deepEqual(Buffer.from(await live.arrayBuffer()), png);
    } finally {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: s3.bucket, Key: key })).catch(() => {});
      client.destroy();
      await state.close();
      await proxy.close();
      await s3.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('storage settings', () => {
  test('some but not all of the five STORAGE_* variables is a startup error naming the missing ones', () => {
    assert.throws(
      () =>
        profilesSettings({ STORAGE_ENDPOINT: 'https://nyc3.digitaloceanspaces.com', STORAGE_BUCKET: 'b' }),
      (error: Error) =>
        error instanceof ConfigError &&
        error.message.startsWith('STORAGE_REGION, STORAGE_ACCESS_KEY, STORAGE_SECRET_KEY: must be set too'),
    );
  });

  test('none of them means the embedded store; all of them means S3', () => {
    assert.equal(profilesSettings({}).s3, undefined);
    const settings = profilesSettings(s3.env);
    assert.equal(settings.s3?.bucket, 'avatars');
    assert.equal(settings.s3?.forcePathStyle, true);
    assert.equal(settings.s3?.acl, 'public-read');
  });

  test('bad values name their variable', () => {
    assert.throws(
      () => profilesSettings({ ...s3.env, STORAGE_ACL: 'private' }),
      /^ConfigError: STORAGE_ACL: must be one of public-read, none/,
    );
    assert.throws(
      () => profilesSettings({ ...s3.env, STORAGE_PUBLIC_URL: 'https://x' }),
      /STORAGE_PUBLIC_URL: must contain \{key\}/,
    );
    assert.throws(
      () => profilesSettings({ PROFILES_MAX_FILE_BYTES: 'lots' }),
      /PROFILES_MAX_FILE_BYTES: must be a whole number/,
    );
    assert.throws(
      () => profilesSettings({ PROFILES_ALLOWED_TYPES: 'png' }),
      /PROFILES_ALLOWED_TYPES: "png" is not a MIME type/,
    );
  });
});
