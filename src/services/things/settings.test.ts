import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../config.js';
import { thingsSettings } from './settings.js';

test('defaults: shared database, no expiry, 10 attempts a minute', () => {
  assert.deepEqual(thingsSettings({}), {
    datastore: { kind: 'shared', secret: undefined },
    secretTtlSeconds: undefined,
    rateLimit: { windowSeconds: 60, login: 10, signup: 10 },
  });
});

test('a networked datastore needs DATASTORE_SECRET, its password', () => {
  assert.throws(
    () => thingsSettings({ DATASTORE_URL: 'postgres://svc@db.example:5432/app' }),
    (e: Error) =>
      e instanceof ConfigError &&
      e.message ===
        'DATASTORE_SECRET: required when DATASTORE_URL is set (it is the password of the database role things connects as)',
  );
  assert.throws(
    () => thingsSettings({ DATABASE_URL: 'postgres://svc:pw@db.example/app' }),
    /^ConfigError: DATASTORE_SECRET: required when DATABASE_URL is set/,
  );
  assert.deepEqual(
    thingsSettings({ DATABASE_URL: 'postgres://svc:old@db.example/app', DATASTORE_SECRET: 's3cret' })
      .datastore,
    { kind: 'networked', url: 'postgres://svc@db.example/app', source: 'DATABASE_URL', secret: 's3cret' },
  );
  // DATASTORE_URL wins over DATABASE_URL.
  assert.equal(
    (
      thingsSettings({
        DATABASE_URL: 'postgres://a@one/app',
        DATASTORE_URL: 'postgresql://b@two/things?sslmode=require',
        DATASTORE_SECRET: 'x',
      }).datastore as { url: string }
    ).url,
    'postgresql://b@two/things?sslmode=require',
  );
  assert.throws(
    () => thingsSettings({ DATASTORE_URL: 'mysql://x@y/z', DATASTORE_SECRET: 'x' }),
    /^ConfigError: DATASTORE_URL: not a valid PostgreSQL URL/,
  );
});

test('with the embedded database a configured DATASTORE_SECRET is kept', () => {
  assert.deepEqual(thingsSettings({ DATASTORE_SECRET: 'mine' }).datastore, {
    kind: 'shared',
    secret: 'mine',
  });
});

test('THINGS_SECRET_TTL takes seconds or a unit', () => {
  const ttl = (value: string) => thingsSettings({ THINGS_SECRET_TTL: value }).secretTtlSeconds;
  assert.equal(ttl('3600'), 3600);
  assert.equal(ttl('90s'), 90);
  assert.equal(ttl('30m'), 1800);
  assert.equal(ttl('12h'), 43_200);
  assert.equal(ttl('7d'), 604_800);
  assert.equal(ttl('0'), undefined);
  assert.equal(ttl('never'), undefined);
  assert.throws(() => ttl('soon'), /^ConfigError: THINGS_SECRET_TTL: must be a duration/);
  assert.throws(() => ttl('-5'), /^ConfigError: THINGS_SECRET_TTL/);
});

test('rate limit settings are validated', () => {
  const limits = thingsSettings({
    THINGS_RATE_LIMIT_WINDOW: '300',
    THINGS_LOGIN_RATE_LIMIT: '0',
    THINGS_SIGNUP_RATE_LIMIT: '3',
  }).rateLimit;
  assert.deepEqual(limits, { windowSeconds: 300, login: 0, signup: 3 });
  assert.throws(
    () => thingsSettings({ THINGS_LOGIN_RATE_LIMIT: 'lots' }),
    /^ConfigError: THINGS_LOGIN_RATE_LIMIT/,
  );
  assert.throws(
    () => thingsSettings({ THINGS_RATE_LIMIT_WINDOW: '0' }),
    /^ConfigError: THINGS_RATE_LIMIT_WINDOW/,
  );
});
