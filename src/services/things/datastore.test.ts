import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, usingPostgres } from '../../../test/db.js';
import { startTestService } from '../../../test/service.js';
import { ConfigError } from '../../config.js';
import { runCommand } from '../../platform/commands.js';
import { type Database, DatabaseError } from '../../platform/database.js';
import { migrate } from '../../platform/migrations.js';
import { UsageError } from '../../platform/service.js';
import { things } from './index.js';
import { migrations } from './migrations.js';

let db: Database;
before(async () => {
  db = await createTestDatabase();
  await migrate(db, 'things', migrations);
});
after(() => db.close());

describe('DATASTORE_SECRET with the process database', () => {
  test('is generated on first start, kept in the data directory and shown in the banner', async () => {
    const first = await startTestService(things, { db });
    const file = path.join(first.dataDir, 'credentials.json');
    const secret = JSON.parse(readFileSync(file, 'utf8')).things.DATASTORE_SECRET;
    assert.match(secret, /^[0-9a-f]{64}$/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(first.banner, [`DATASTORE_SECRET (generated, kept in the data directory): ${secret}`]);
    await first.app.close();
    // A restart on the same data directory keeps the same secret.
    const second = await startTestService(things, { db, dataDir: first.dataDir });
    assert.deepEqual(second.banner, first.banner);
    await second.close();
    await first.close();
  });

  test('a configured one is used as is and never written or shown', async () => {
    const svc = await startTestService(things, { db, env: { DATASTORE_SECRET: 'configured' } });
    try {
      assert.deepEqual(svc.banner, []);
      assert.equal(svc.ctx.credentials.recall('things', 'DATASTORE_SECRET'), undefined);
    } finally {
      await svc.close();
    }
  });
});

if (usingPostgres) {
  describe('DATASTORE_URL and DATASTORE_SECRET on networked PostgreSQL', () => {
    let datastore: Database & { url?: string };
    let urlWithoutPassword: string;
    let password: string;
    const ca = { DB_SSL_CA: process.env.BACKLOT_TEST_DATABASE_CA ?? '' };
    before(async () => {
      datastore = await createTestDatabase();
      const url = new URL(datastore.url!);
      password = decodeURIComponent(url.password);
      url.password = '';
      urlWithoutPassword = url.toString();
    });
    after(() => datastore.close());

    test('connects as the URL’s role with DATASTORE_SECRET as its password and keeps its data there', async () => {
      const svc = await startTestService(things, {
        db,
        env: { ...ca, DATASTORE_URL: urlWithoutPassword, DATASTORE_SECRET: password },
      });
      try {
        assert.deepEqual(svc.banner, []);
        const res = await svc.app.inject({
          method: 'POST',
          url: '/signup',
          payload: { username: 'networked', password: 'pw' },
        });
        assert.equal(res.statusCode, 200);
        const there = await datastore.query('SELECT id::text FROM things.users WHERE username = $1', [
          'networked',
        ]);
        assert.deepEqual(there.rows, [{ id: res.json().userId }]);
        const here = await db.query('SELECT 1 FROM things.users WHERE username = $1', ['networked']);
        assert.equal(here.rows.length, 0);
      } finally {
        await svc.close();
      }
    });

    test('an ordinary role that owns its database works once it may use the reader role', async () => {
      const suffix = randomBytes(4).toString('hex');
      const role = `things_app_${suffix}`;
      const database = `things_app_db_${suffix}`;
      const rolePassword = randomBytes(12).toString('hex');
      await datastore.exec(`CREATE ROLE ${role} LOGIN PASSWORD '${rolePassword}'`);
      await datastore.exec(`CREATE DATABASE ${database} OWNER ${role}`);
      const url = new URL(urlWithoutPassword);
      url.username = role;
      url.pathname = `/${database}`;
      const env = { ...ca, DATASTORE_URL: url.toString(), DATASTORE_SECRET: rolePassword };
      try {
        // It may create its schema, but not make itself a member of the cluster-wide reader role.
        await assert.rejects(
          startTestService(things, { db, env }),
          (error: Error) =>
            error instanceof DatabaseError &&
            error.message ===
              `DATASTORE_URL: role "${role}" is not a member of things_user; as an administrator run GRANT things_user TO "${role}"`,
        );
        await datastore.exec(`GRANT things_user TO ${role}`);
        const svc = await startTestService(things, { db, env });
        try {
          const payload = { username: 'owner', password: 'pw' };
          assert.equal((await svc.app.inject({ method: 'POST', url: '/signup', payload })).statusCode, 200);
          const login = await svc.app.inject({ method: 'POST', url: '/login', payload });
          const res = await svc.app.inject({
            method: 'GET',
            url: '/things',
            headers: { 'db-user-secret': login.json().secret },
          });
          assert.equal(res.statusCode, 200);
          assert.equal(res.json().things.length, 5);
        } finally {
          await svc.close();
        }
      } finally {
        await datastore.exec(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await datastore.exec(`DROP ROLE IF EXISTS ${role}`);
      }
    });

    test('a wrong DATASTORE_SECRET stops the start with a line that names it', async () => {
      await assert.rejects(
        startTestService(things, {
          db,
          env: { ...ca, DATASTORE_URL: urlWithoutPassword, DATASTORE_SECRET: 'wrong' },
        }),
        (error: Error) =>
          error instanceof ConfigError &&
          error.message ===
            `DATASTORE_SECRET: rejected by DATASTORE_URL as the password of role "${new URL(urlWithoutPassword).username}"`,
      );
    });
  });
}

describe('operator commands', () => {
  test('add, list and remove things, as /things then shows', async () => {
    const svc = await startTestService(things, { db, env: { THINGS_LOGIN_RATE_LIMIT: '0' } });
    const run = (...args: string[]) => runCommand(things, args, svc.ctx);
    try {
      assert.equal(
        await run('list'),
        'id\tname\tcolor\n1\tTeapot\twhite\n2\tBicycle\tred\n3\tUmbrella\tyellow\n4\tNotebook\tblue\n5\tCactus\tgreen',
      );
      assert.equal(await run('add', '--name', 'Lamp', '--color', 'orange'), 'added 6\tLamp\torange');
      assert.equal(await run('add', '--name=Big kite', '--color=sky blue'), 'added 7\tBig kite\tsky blue');
      assert.equal(await run('remove', '1'), 'removed thing 1');

      await svc.app.inject({ method: 'POST', url: '/signup', payload: { username: 'op', password: 'pw' } });
      const login = await svc.app.inject({
        method: 'POST',
        url: '/login',
        payload: { username: 'op', password: 'pw' },
      });
      const res = await svc.app.inject({
        method: 'GET',
        url: '/things',
        headers: { 'db-user-secret': login.json().secret },
      });
      assert.deepEqual(
        res.json().things.map((t: { id: string }) => t.id),
        ['2', '3', '4', '5', '6', '7'],
      );
      assert.deepEqual(res.json().things.at(-1), { id: '7', name: 'Big kite', color: 'sky blue' });
    } finally {
      await svc.close();
    }
  });

  test('bad arguments are usage errors', async () => {
    const svc = await startTestService(things, { db });
    const run = (...args: string[]) => runCommand(things, args, svc.ctx);
    try {
      const usage = (message: string) => (error: Error) =>
        error instanceof UsageError && error.message === message;
      const addUsage = 'usage: backlot things add --name <name> --color <color>';
      await assert.rejects(run('add', '--name', 'x'), usage(`things add: --color is required; ${addUsage}`));
      await assert.rejects(
        run('add', '--name', 'x', '--color'),
        usage(`things add: --color needs a value; ${addUsage}`),
      );
      await assert.rejects(
        run('add', '--name', ' ', '--color', 'red'),
        usage('--name and --color must not be blank'),
      );
      await assert.rejects(
        run('add', '--size', 'L'),
        usage('things add: unknown option --size (valid options: --name, --color, --data-dir, --help)'),
      );
      await assert.rejects(
        run('list', 'all'),
        usage('things list: unexpected argument "all"; usage: backlot things list'),
      );
      const removeUsage = 'remove takes one thing id (digits), e.g. backlot things remove 3';
      await assert.rejects(
        run('remove'),
        usage('things remove: <id> is required; usage: backlot things remove <id>'),
      );
      await assert.rejects(run('remove', 'abc'), usage(removeUsage));
      await assert.rejects(run('remove', '999'), usage('no thing with id 999'));
    } finally {
      await svc.close();
    }
  });
});
