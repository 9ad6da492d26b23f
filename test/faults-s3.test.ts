import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../src/platform/database.js';
import { profiles } from '../src/services/profiles/index.js';
import { createTestDatabase } from './db.js';
import { freePort } from '../support/postgres.js';
import { multipart, png, uploadParts } from './profiles.js';
import { faultyS3Endpoint } from '../support/s3.js';
import { startTestService, type TestService } from './service.js';

// The 500 case lives beside the profiles service (src/services/profiles/s3.test.ts); these are the others.

const placeholder = 'https://bit.ly/3mCSn2i';

const storageEnv = (endpoint: string) => ({
  STORAGE_ENDPOINT: endpoint,
  STORAGE_REGION: 'us-east-1',
  STORAGE_BUCKET: 'avatars',
  STORAGE_ACCESS_KEY: 'AKIAFAULTTEST',
  STORAGE_SECRET_KEY: 'fault-test-secret',
  STORAGE_FORCE_PATH_STYLE: 'true',
});

async function graphql(service: TestService, body: Buffer | string, contentType: string) {
  const res = await service.app.inject({
    method: 'POST',
    url: '/query',
    headers: { 'content-type': contentType },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
}

async function createUser(service: TestService) {
  const { body } = await graphql(
    service,
    JSON.stringify({
      query: 'mutation { createUser(input: {fullName: "Ada", email: "ada@example.com"}) { id } }',
    }),
    'application/json',
  );
  return body.data.createUser.id as string;
}

async function imgUri(db: Database, id: string) {
  const { rows } = await db.query<{ img_uri: string }>('SELECT img_uri FROM profiles.users WHERE id = $1', [
    id,
  ]);
  return rows[0]?.img_uri;
}

/** Uploads a valid PNG; the store fails it. Returns the error message after checking the rest of the answer. */
async function failedUpload(service: TestService, id: string) {
  const { body, contentType } = multipart(uploadParts(id, png, 'face.png'));
  const started = Date.now();
  const result = await graphql(service, body, contentType);
  const elapsed = Date.now() - started;
  assert.ok(elapsed < 15_000, `the failure is reported in ${elapsed} ms`);
  assert.equal(result.status, 200);
  assert.equal(result.body.data, null);
  assert.equal(result.body.errors.length, 1);
  assert.deepEqual(result.body.errors[0].path, ['uploadProfileImage']);
  return result.body.errors[0].message as string;
}

let db: Database;
before(async () => {
  db = await createTestDatabase();
});
after(() => db.close());

describe('profiles uploads when the S3 endpoint fails', () => {
  test('endpoint down (connection refused): "error uploading file: …", the user keeps the placeholder', async () => {
    const closedPort = await freePort();
    const service = await startTestService(profiles, {
      db,
      env: storageEnv(`http://127.0.0.1:${closedPort}`),
    });
    try {
      const id = await createUser(service);
      const message = await failedUpload(service, id);
      assert.match(message, /^error uploading file: .*ECONNREFUSED/);
      assert.equal(await imgUri(db, id), placeholder);
      // The service itself is unharmed: reads and new users still work.
      const users = await graphql(
        service,
        JSON.stringify({ query: '{ users { id img_uri } }' }),
        'application/json',
      );
      assert.equal(users.status, 200);
      assert.ok(users.body.data.users.some((u: { id: string }) => u.id === id));
      assert.equal((await service.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    } finally {
      await service.close();
    }
  });

  test('endpoint answering 403 AccessDenied: "error uploading file: Access Denied", the user unchanged', async () => {
    const forbidding = await faultyS3Endpoint(403, 'AccessDenied', 'Access Denied');
    const service = await startTestService(profiles, { db, env: storageEnv(forbidding.url) });
    try {
      const id = await createUser(service);
      const message = await failedUpload(service, id);
      assert.match(message, /^error uploading file: Access Denied/);
      assert.ok(forbidding.requests() >= 1, 'the upload reached the store');
      assert.equal(await imgUri(db, id), placeholder);
    } finally {
      await service.close();
      await forbidding.close();
    }
  });
});
