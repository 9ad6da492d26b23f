import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../config.js';
import { employeesSettings } from './settings.js';

test('defaults: no accounts (an admin is generated), writes need credentials, sample seed on', () => {
  assert.deepEqual(employeesSettings({}), { accounts: [], openWrites: false, seed: true });
});

test('EMPLOYEES_USERS lists name:password:role; the password may contain colons', () => {
  const settings = employeesSettings({
    EMPLOYEES_USERS: ' alice:s3cret:editor , bob:pa:ss:viewer,',
    EMPLOYEES_OPEN_WRITES: 'true',
    EMPLOYEES_SEED: 'no',
  });
  assert.deepEqual(settings, {
    accounts: [
      { name: 'alice', password: 's3cret', role: 'editor' },
      { name: 'bob', password: 'pa:ss', role: 'viewer' },
    ],
    openWrites: true,
    seed: false,
  });
});

test('bad settings name the variable', () => {
  const cases: Array<[Record<string, string>, string]> = [
    [
      { EMPLOYEES_USERS: 'alice:editor' },
      'EMPLOYEES_USERS: each account must be name:password:role, got "alice:…"',
    ],
    [{ EMPLOYEES_USERS: ':pw:editor' }, 'EMPLOYEES_USERS: each account must be name:password:role, got ":…"'],
    [{ EMPLOYEES_USERS: 'alice::editor' }, 'EMPLOYEES_USERS: account "alice" has an empty password'],
    [
      { EMPLOYEES_USERS: 'alice:pw:admin' },
      'EMPLOYEES_USERS: account "alice" has role "admin"; use editor or viewer',
    ],
    [{ EMPLOYEES_USERS: 'a:x:editor,a:y:viewer' }, 'EMPLOYEES_USERS: account "a" is listed twice'],
    [{ EMPLOYEES_OPEN_WRITES: 'maybe' }, 'EMPLOYEES_OPEN_WRITES: must be true or false, got "maybe"'],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => employeesSettings(env),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.message, message);
        return true;
      },
    );
  }
});
