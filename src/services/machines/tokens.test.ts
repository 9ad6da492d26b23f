import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createTestDatabase } from '../../../test/db.js';
import { startTestService } from '../../../test/service.js';
import { ConfigError } from '../../config.js';
import { runCommand } from '../../platform/commands.js';
import type { Database } from '../../platform/database.js';
import { UsageError } from '../../platform/service.js';
import { machines } from './index.js';
import { allScopes } from './scopes.js';
import { machinesSettings } from './settings.js';
import { auth, tokens } from './support.test.js';

/** What `--scopes machine:read,droplet:create` grants: every read scope (the legacy name) and droplet:create. */
const readScopes = allScopes.filter((s) => s.endsWith(':read') || s === 'droplet:create');

let db: Database;
let dataDir: string;
before(async () => {
  db = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-machines-tokens-'));
});
after(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const tokenFormat = /^dop_v1_[0-9a-f]{64}$/;

test('first start without tokens generates one full-scope token, shows it in the banner, keeps it across restarts', async () => {
  const logLines: string[] = [];
  const first = await startTestService(machines, {
    db,
    dataDir,
    logLines,
    env: { MACHINES_PROVISION_MS: '0' },
  });
  let token: string;
  try {
    assert.equal(first.banner.length, 1);
    const match = /^token \(full access, generated on first start\): (dop_v1_[0-9a-f]{64})$/.exec(
      first.banner[0] as string,
    );
    assert.ok(match, first.banner[0]);
    token = match[1] as string;
    const created = await first.app.inject({
      method: 'POST',
      url: '/v2/machines',
      headers: auth(token),
      payload: { name: 'gen', size: 's-1vcpu-1gb', image: 'debian-12-x64' },
    });
    assert.equal(created.statusCode, 202);
    assert.equal(
      (await first.app.inject({ method: 'DELETE', url: '/v2/machines?tag_name=x', headers: auth(token) }))
        .statusCode,
      204,
    );
    const credentials = path.join(dataDir, 'credentials.json');
    assert.equal(JSON.parse(readFileSync(credentials, 'utf8')).machines.token, token);
    assert.equal(statSync(credentials).mode & 0o777, 0o600);
  } finally {
    await first.close();
  }
  // Stored only as a sha256 hash, and never logged.
  const stored = await db.query<{ token_hash: string; scopes: string[]; source: string }>(
    'SELECT token_hash, scopes, source FROM machines.tokens',
  );
  assert.equal(stored.rows.length, 1);
  assert.match(stored.rows[0]?.token_hash as string, /^[0-9a-f]{64}$/);
  assert.notEqual(stored.rows[0]?.token_hash, token.slice(7));
  assert.deepEqual(stored.rows[0]?.scopes, [...allScopes]);
  assert.ok(logLines.length > 0);
  assert.equal(logLines.join('\n').includes(token.slice(7)), false);

  const again = await startTestService(machines, { db, dataDir, env: { MACHINES_PROVISION_MS: '0' } });
  try {
    assert.deepEqual(again.banner, [`token (full access, generated on first start): ${token}`]);
    assert.equal((await db.query('SELECT 1 FROM machines.tokens')).rows.length, 1);
  } finally {
    await again.close();
  }
});

test('operator commands: token create prints a token once, list shows no secrets, revoke takes effect at once', async () => {
  const service = await startTestService(machines, { db, dataDir, env: { MACHINES_PROVISION_MS: '0' } });
  const run = (...args: string[]) => runCommand(machines, ['token', ...args], service.ctx);
  try {
    const output = await run('create', '--name', 'ci', '--scopes', 'machine:read,droplet:create');
    const lines = output.split('\n');
    assert.equal(lines[0], `Created token "ci" (scopes: ${readScopes.join(', ')}).`);
    const token = lines.at(-1) as string;
    assert.match(token, tokenFormat);

    const listed = await service.app.inject({ url: '/v2/machines', headers: auth(token) });
    assert.equal(listed.statusCode, 200);
    const denied = await service.app.inject({
      method: 'DELETE',
      url: '/v2/machines/1',
      headers: auth(token),
    });
    assert.equal(denied.statusCode, 403);

    const table = await run('list');
    assert.match(table, /^ID\s+NAME\s+SCOPES\s+SOURCE\s+CREATED$/m);
    assert.match(table, new RegExp(`\\bci\\s+${readScopes.join(',')}\\s+cli\\b`));
    assert.match(table, /\bgenerated\s+all\s+generated\b/);
    assert.equal(table.includes(token.slice(7)), false);

    await assert.rejects(run('create', '--name', 'ci'), UsageError);
    await assert.rejects(run('create'), /--name is required/);
    await assert.rejects(
      run('create', '--name', 'x', '--scope', 'machine:read'),
      /unknown option --scope \(valid options: --name, --scopes, --data-dir, --help\)/,
    );
    await assert.rejects(
      run('create', '--name', 'x', '--scopes', 'machine:reboot'),
      /unknown scope "machine:reboot"/,
    );
    await assert.rejects(run('frobnicate'), UsageError);
    await assert.rejects(run('revoke', 'nobody'), /no token named or numbered "nobody"/);

    assert.match(await run('revoke', 'ci'), /^Revoked token "ci" \(id \d+\)\.$/);
    const revoked = await service.app.inject({ url: '/v2/machines', headers: auth(token) });
    assert.equal(revoked.statusCode, 401);

    const byId = (await run('create', '--name=temp')).split('\n').at(-1) as string;
    const id = (await db.query<{ id: number }>(`SELECT id FROM machines.tokens WHERE name = 'temp'`)).rows[0]
      ?.id;
    assert.match(await run('revoke', String(id)), /Revoked token "temp"/);
    assert.equal((await service.app.inject({ url: '/v2/sizes', headers: auth(byId) })).statusCode, 401);
  } finally {
    await service.close();
  }
});

test('MACHINES_TOKENS presets replace the generated token in the banner and are kept in step with the setting', async () => {
  const fresh = await createTestDatabase();
  const freshDir = mkdtempSync(path.join(tmpdir(), 'backlot-machines-preset-'));
  try {
    const env = { MACHINES_TOKENS: `ops=${tokens.full},${tokens.read}` };
    const first = await startTestService(machines, { db: fresh, dataDir: freshDir, env });
    try {
      assert.deepEqual(first.banner, ['tokens: 2 from MACHINES_TOKENS (ops, preset-2)']);
      assert.equal(
        (await first.app.inject({ url: '/v2/machines', headers: auth(tokens.full) })).statusCode,
        200,
      );
      assert.equal(
        (await first.app.inject({ url: '/v2/machines', headers: auth(tokens.read) })).statusCode,
        200,
      );
    } finally {
      await first.close();
    }
    const second = await startTestService(machines, {
      db: fresh,
      dataDir: freshDir,
      env: { MACHINES_TOKENS: `ops=${tokens.full}` },
    });
    try {
      assert.equal(
        (await second.app.inject({ url: '/v2/machines', headers: auth(tokens.read) })).statusCode,
        401,
      );
      assert.equal(
        (await second.app.inject({ url: '/v2/machines', headers: auth(tokens.full) })).statusCode,
        200,
      );
      const names = (await fresh.query<{ name: string }>('SELECT name FROM machines.tokens ORDER BY name'))
        .rows;
      assert.deepEqual(names, [{ name: 'ops' }]);
    } finally {
      await second.close();
    }
  } finally {
    await fresh.close();
    rmSync(freshDir, { recursive: true, force: true });
  }
});

test('settings: defaults, and errors that name the variable', () => {
  assert.deepEqual(machinesSettings({}), {
    provisionMs: 5000,
    limit: 25,
    ratePerHour: 5000,
    ratePerMinute: 250,
    presetTokens: [],
  });
  assert.throws(() => machinesSettings({ MACHINES_PROVISION_MS: 'soon' }), /MACHINES_PROVISION_MS/);
  assert.throws(() => machinesSettings({ MACHINES_LIMIT: '-1' }), /MACHINES_LIMIT/);
  assert.throws(
    () => machinesSettings({ MACHINES_RATE_LIMIT_PER_MINUTE: '0' }),
    /MACHINES_RATE_LIMIT_PER_MINUTE/,
  );
  assert.throws(
    () => machinesSettings({ MACHINES_TOKENS: 'abc' }),
    (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.message, 'MACHINES_TOKENS: entry 1 is not a token of the form dop_v1_ + 64 hex');
      return true;
    },
  );
  assert.throws(
    () => machinesSettings({ MACHINES_TOKENS: `a=${tokens.full}=machine:fly` }),
    /entry 1: unknown scope/,
  );
  assert.throws(
    () => machinesSettings({ MACHINES_TOKENS: `a=${tokens.full},a=${tokens.read}` }),
    /used twice/,
  );
  assert.deepEqual(
    machinesSettings({ MACHINES_TOKENS: `${tokens.read}, ro=${tokens.full}=machine:read+droplet:delete` })
      .presetTokens,
    [
      { name: 'preset-1', token: tokens.read, scopes: [...allScopes] },
      {
        name: 'ro',
        token: tokens.full,
        scopes: allScopes.filter((s) => s.endsWith(':read') || s === 'droplet:delete'),
      },
    ],
  );
});

test('another process starting keeps the presets and their rate-limit counters; requests meanwhile never fail', async () => {
  const db = await createTestDatabase();
  const env = {
    MACHINES_TOKENS: `ops=${tokens.full}`,
    MACHINES_RATE_LIMIT_PER_HOUR: '1000000',
    MACHINES_RATE_LIMIT_PER_MINUTE: '1000000',
  };
  const first = await startTestService(machines, { db, env });
  const remaining = async () =>
    Number(
      (await first.app.inject({ url: '/v2/machines', headers: auth(tokens.full) })).headers[
        'ratelimit-remaining'
      ],
    );
  try {
    for (let i = 0; i < 3; i++) await remaining();
    const before = await remaining();
    const second = await startTestService(machines, { db, env });
    await second.close();
    assert.equal(await remaining(), before - 1, 'the count goes on where it was');

    // Requests on the first process while others start (and rewrite their presets) again and again.
    let stop = false;
    const codes: number[] = [];
    const load = (async () => {
      while (!stop)
        codes.push((await first.app.inject({ url: '/v2/machines', headers: auth(tokens.full) })).statusCode);
    })();
    for (let i = 0; i < 3; i++) await (await startTestService(machines, { db, env })).close();
    stop = true;
    await load;
    assert.ok(codes.length > 0);
    assert.deepEqual([...new Set(codes)], [200]);
  } finally {
    await first.close();
    await db.close();
  }
});
