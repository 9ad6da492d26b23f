import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ConfigError, globalSettings, requirePeer } from './config.js';
import { s3Settings } from './platform/object-settings.js';

// The S3 client and pg are optional peers of the npm package: a project that sets STORAGE_* or DATABASE_URL
// without them installed stops at start with one line. test/package/run.sh checks the same from a real install.

const empty = mkdtempSync(path.join(tmpdir(), 'backlot-peers-'));
after(() => rmSync(empty, { recursive: true, force: true }));
/** A module in a folder with no node_modules above it: nothing is installed for it. */
const nowhere = pathToFileURL(path.join(empty, 'module.js')).href;

test('a setting whose package is missing names the setting and the install, in one line', () => {
  assert.throws(
    () => requirePeer('STORAGE_ENDPOINT', 'S3 storage', '@aws-sdk/client-s3', nowhere),
    (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(
        error.message,
        'STORAGE_ENDPOINT: S3 storage needs the @aws-sdk/client-s3 package, which backlot does not install itself: npm i @aws-sdk/client-s3',
      );
      return true;
    },
  );
  assert.throws(
    () => requirePeer('DATABASE_URL', 'PostgreSQL', 'pg', nowhere),
    /^ConfigError: DATABASE_URL: PostgreSQL needs the pg package, which backlot does not install itself: npm i pg$/,
  );
});

test('with the packages installed (this clone has them as dev dependencies), S3 and PostgreSQL settings load', () => {
  const s3 = s3Settings({
    STORAGE_ENDPOINT: 'http://127.0.0.1:9000',
    STORAGE_REGION: 'us-east-1',
    STORAGE_BUCKET: 'b',
    STORAGE_ACCESS_KEY: 'k',
    STORAGE_SECRET_KEY: 's',
  });
  assert.equal(s3?.bucket, 'b');
  const { database } = globalSettings({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' });
  assert.deepEqual(database, {
    url: 'postgres://u@127.0.0.1:5432/db',
    source: 'DATABASE_URL',
    sslCaFile: undefined,
  });
  assert.equal(globalSettings({ DB_HOST: 'db' }).database.source, 'DB_HOST');
  assert.deepEqual(globalSettings({}).database, { sslCaFile: undefined });
});
