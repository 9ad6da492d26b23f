import { randomBytes } from 'node:crypto';
import type { Env } from '../src/config.js';
import { createTestDatabase, usingPostgres } from './db.js';
import { storeEnv } from './profiles.js';

/**
 * Settings for one `start()` of the programmatic API in a test: on PostgreSQL (test/with-services.ts) a database
 * of its own, and with S3 a bucket of its own (a restore removes the objects a checkpoint does not hold).
 */
export async function harnessEnv(): Promise<Env> {
  const env: Env = { ...storeEnv() };
  if (env.STORAGE_BUCKET) {
    env.STORAGE_BUCKET = `h-${randomBytes(6).toString('hex')}`;
    env.STORAGE_PUBLIC_URL = `${env.STORAGE_ENDPOINT}/${env.STORAGE_BUCKET}/{key}`;
    const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
    const client = new S3Client({
      endpoint: env.STORAGE_ENDPOINT,
      region: env.STORAGE_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: env.STORAGE_ACCESS_KEY!, secretAccessKey: env.STORAGE_SECRET_KEY! },
    });
    await client.send(new CreateBucketCommand({ Bucket: env.STORAGE_BUCKET }));
    client.destroy();
  }
  if (!usingPostgres) return env;
  const db = await createTestDatabase();
  await db.close();
  const url = new URL(db.url!);
  return {
    ...env,
    DATABASE_URL: db.url,
    DB_SSL_CA: process.env.BACKLOT_TEST_DATABASE_CA,
    DATASTORE_SECRET: decodeURIComponent(url.password),
  };
}
