import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Env } from '../src/config.js';
import { type Database, openPostgres } from '../src/platform/database.js';
import type { ServiceDefinition } from '../src/platform/service.js';
import { content } from '../src/services/content/index.js';
import { employees } from '../src/services/employees/index.js';
import { machines } from '../src/services/machines/index.js';
import { profiles } from '../src/services/profiles/index.js';
import { things } from '../src/services/things/index.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startTestService, type TestService } from './service.js';

// A PostgreSQL server of our own (not the suite's shared one): this file stops and restarts it.

const basic = (name: string, password: string) =>
  `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
const outageMessage = 'Service unavailable: the database cannot be reached';
/** Stands for "answered 200 with a GraphQL error" in the status tallies. */
const graphqlError = 1200;
const machinesToken = `dop_v1_${'f'.repeat(64)}`;

interface Case {
  definition: ServiceDefinition<any>;
  env: Env;
  /** Extra set-up once the service runs (logins, application passwords); returns request headers. */
  prepare?: (service: TestService) => Promise<Record<string, string>>;
  /** One write; returns the key it was acknowledged under, or undefined when not acknowledged. */
  write: (service: TestService, headers: Record<string, string>, n: number) => Promise<WriteResult>;
  read: (service: TestService, headers: Record<string, string>) => Promise<LightMyRequestResponse>;
  /** The body a request gets while the database is down. */
  outage: (response: LightMyRequestResponse) => void;
  /** Every key that is stored, read straight from the tables. */
  stored: (db: Database) => Promise<string[]>;
}

interface WriteResult {
  status: number;
  key?: string;
}

const post = async (
  service: TestService,
  url: string,
  payload: object,
  headers: Record<string, string>,
  key: (body: any) => string,
): Promise<WriteResult> => {
  const res = await service.app.inject({ method: 'POST', url, payload, headers });
  return { status: res.statusCode, key: res.statusCode < 300 ? key(res.json()) : undefined };
};

const cases: Case[] = [
  {
    definition: employees,
    env: { EMPLOYEES_USERS: 'ed:ed-pass:editor', EMPLOYEES_SEED: 'false' },
    write: (s, _h, n) =>
      post(
        s,
        '/api/2/create',
        { name: `worker ${n}`, age: 30 },
        { authorization: basic('ed', 'ed-pass') },
        (b) => String(b.data.id),
      ),
    read: (s) => s.app.inject({ method: 'GET', url: '/api/2/employees' }),
    outage: (res) => assert.deepEqual(res.json(), { status: 'error', data: null, message: outageMessage }),
    stored: async (db) =>
      (await db.query<{ id: string }>('SELECT id::text AS id FROM employees.employees')).rows.map(
        (r) => r.id,
      ),
  },
  {
    definition: things,
    env: { THINGS_LOGIN_RATE_LIMIT: '0', THINGS_SIGNUP_RATE_LIMIT: '0' },
    prepare: async (s) => {
      await s.app.inject({
        method: 'POST',
        url: '/signup',
        payload: { username: 'reader', password: 'pw-12345' },
      });
      const login = await s.app.inject({
        method: 'POST',
        url: '/login',
        payload: { username: 'reader', password: 'pw-12345' },
      });
      return { 'db-user-secret': login.json().secret };
    },
    write: (s, _h, n) =>
      post(s, '/signup', { username: `user${n}`, password: 'pw-12345' }, {}, (b) => String(b.userId)),
    read: (s, h) => s.app.inject({ method: 'GET', url: '/things', headers: h }),
    outage: (res) => assert.deepEqual(res.json(), { code: 'unavailable', description: outageMessage }),
    stored: async (db) =>
      (await db.query<{ id: string }>('SELECT id::text AS id FROM things.users')).rows.map((r) => r.id),
  },
  {
    definition: machines,
    env: {
      MACHINES_PROVISION_MS: '0',
      MACHINES_TOKENS: `full=${machinesToken}`,
      MACHINES_LIMIT: '100000',
      MACHINES_RATE_LIMIT_PER_MINUTE: '100000',
      MACHINES_RATE_LIMIT_PER_HOUR: '1000000',
    },
    write: (s, _h, n) =>
      post(
        s,
        '/v2/droplets',
        { name: `web-${n}`, region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64' },
        { authorization: `Bearer ${machinesToken}` },
        (b) => String(b.droplet.id),
      ),
    read: (s) =>
      s.app.inject({
        method: 'GET',
        url: '/v2/droplets',
        headers: { authorization: `Bearer ${machinesToken}` },
      }),
    outage: (res) => {
      assert.deepEqual(res.json(), {
        id: 'service_unavailable',
        message: outageMessage,
        request_id: res.headers['x-request-id'],
      });
    },
    stored: async (db) =>
      (await db.query<{ id: string }>('SELECT id::text AS id FROM machines.machines')).rows.map((r) => r.id),
  },
  {
    definition: content,
    env: {},
    prepare: async (s) => {
      const password = /application password "([^"]+)"/.exec(s.banner.join('\n'))?.[1];
      assert.ok(password, 'content banner names the admin application password');
      return { authorization: basic('admin', password) };
    },
    write: (s, h, n) =>
      post(s, '/wp-json/wp/v2/posts', { title: `Post ${n}`, status: 'publish' }, h, (b) => String(b.id)),
    read: (s) => s.app.inject({ method: 'GET', url: '/wp-json/wp/v2/posts' }),
    outage: (res) =>
      assert.deepEqual(res.json(), {
        code: 'rest_unavailable',
        message: outageMessage,
        data: { status: 503 },
      }),
    stored: async (db) =>
      (await db.query<{ id: string }>('SELECT id::text AS id FROM content.posts')).rows.map((r) => r.id),
  },
  {
    definition: profiles,
    env: {},
    write: (s, _h, n) =>
      post(
        s,
        '/query',
        {
          query: 'mutation ($input: NewUser!) { createUser(input: $input) { id } }',
          variables: { input: { fullName: `User ${n}`, email: `u${n}@example.test` } },
        },
        {},
        (b) => (b.errors ? '' : String(b.data.createUser.id)),
      ).then((r) => (r.key === '' ? { status: graphqlError } : r)),
    read: async (s) => {
      const res = await s.app.inject({
        method: 'POST',
        url: '/query',
        payload: { query: '{ users { id } }' },
      });
      // A GraphQL error answer counts as the outage answer, not as a success.
      if (res.statusCode === 200 && res.json().errors) Object.assign(res, { statusCode: graphqlError });
      return res;
    },
    // The spec's resolvers pass the database's own message on, with status 200 (docs/profiles.md).
    outage: (res) => {
      assert.equal(res.statusCode, graphqlError); // 200 on the wire, with errors
      const body = res.json();
      assert.equal(body.data, null);
      assert.equal(body.errors.length, 1);
      assert.match(body.errors[0].message, /ECONNREFUSED|Connection terminated|terminating connection/);
      assert.deepEqual(body.errors[0].path, ['users']);
    },
    stored: async (db) =>
      (await db.query<{ id: string }>('SELECT id::text AS id FROM profiles.users')).rows.map((r) => r.id),
  },
];

/** startPostgres() returns once the port is open; the server may still say "starting up" for a moment. */
async function whenStarted<T>(open: () => Promise<T>): Promise<T> {
  for (const deadline = Date.now() + 20_000; ; ) {
    try {
      return await open();
    } catch (error) {
      if (Date.now() > deadline || !/starting up/.test((error as Error).message)) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

describe('PostgreSQL stopped under load and started again', () => {
  let postgres: TestPostgres;
  const running: Array<{ c: Case; service: TestService; db: Database; headers: Record<string, string> }> = [];

  before(async () => {
    postgres = await startPostgres({ tls: true });
    const admin = await whenStarted(() =>
      openPostgres({ url: postgres.url, source: 'test', sslCaFile: postgres.caFile }, 1),
    );
    for (const c of cases) {
      const name = `fault_${c.definition.id}_${randomBytes(3).toString('hex')}`;
      await admin.exec(`CREATE DATABASE ${name}`);
      const url = new URL(postgres.url);
      url.pathname = `/${name}`;
      const db = await openPostgres({ url: url.toString(), source: 'test', sslCaFile: postgres.caFile }, 4);
      const service = await startTestService(c.definition, { db, env: c.env });
      const headers = (await c.prepare?.(service)) ?? {};
      running.push({ c, service, db, headers });
    }
    await admin.close();
  });
  after(async () => {
    for (const { service, db } of running) {
      await service.close();
      await db.close();
    }
    await postgres?.stop();
  });

  test('outage answers 503 fast in each error shape; recovery needs no restart; nothing acknowledged is lost', async () => {
    const acknowledged = new Map<string, string[]>();
    const statuses = new Map<string, number[]>();
    let n = 0;
    let stop = false;
    let beforeStop = new Map<string, string[]>();
    // A small continuous load: every service gets a write and a read in turn for the whole test.
    const loops = running.map(async ({ c, service, headers }) => {
      const id = c.definition.id;
      acknowledged.set(id, []);
      statuses.set(id, []);
      while (!stop) {
        const result = await c.write(service, headers, n++);
        statuses.get(id)?.push(result.status);
        if (result.key) acknowledged.get(id)?.push(result.key);
        const read = await c.read(service, headers);
        statuses.get(id)?.push(read.statusCode);
        await new Promise((r) => setTimeout(r, 20));
      }
    });

    try {
      // Until every service has acknowledged a write (not a fixed wait).
      const acknowledgedAll = () =>
        running.every(({ c }) => (acknowledged.get(c.definition.id)?.length ?? 0) > 0);
      for (const until = Date.now() + 10_000; !acknowledgedAll() && Date.now() < until; )
        await new Promise((r) => setTimeout(r, 20));
      for (const { c } of running) {
        assert.ok(
          (acknowledged.get(c.definition.id)?.length ?? 0) > 0,
          `${c.definition.id} acknowledged writes`,
        );
      }
      beforeStop = new Map([...acknowledged].map(([id, keys]) => [id, [...keys]]));

      await postgres.pause();
      for (const { c, service, headers } of running) {
        const id = c.definition.id;
        const started = Date.now();
        const read = await c.read(service, headers);
        const write = await c.write(service, headers, n++);
        const elapsed = Date.now() - started;
        assert.ok(elapsed < 8000, `${id}: outage answered in ${elapsed} ms`);
        if (id === 'profiles') {
          assert.equal(write.status, graphqlError, `${id} write during outage`);
          assert.equal(read.statusCode, graphqlError, `${id} read during outage`);
        } else {
          assert.equal(write.status, 503, `${id} write during outage`);
          assert.equal(read.statusCode, 503, `${id} read during outage`);
          assert.equal(read.headers['retry-after'], '5');
        }
        c.outage(read);
        const ready = await service.app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(ready.statusCode, 503, `${id} /readyz during outage`);
        assert.equal(ready.json().status, 'unavailable');
      }
      // Let the load run against the stopped server for a while: no request may hang or crash the process.
      await new Promise((r) => setTimeout(r, 1000));

      await postgres.resume();
      for (const { c, service, headers } of running) {
        const id = c.definition.id;
        const deadline = Date.now() + 20_000;
        let last = 0;
        while (Date.now() < deadline) {
          last = (await c.read(service, headers)).statusCode;
          if (last === 200) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        assert.equal(last, 200, `${id} reads again after the restart`);
        const ready = await service.app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(ready.statusCode, 200, `${id} /readyz after the restart`);
      }
      // Writes succeed again too, while the load continues.
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      stop = true;
      await Promise.all(loops);
    }

    for (const { c, service, db, headers } of running) {
      const id = c.definition.id;
      const after = await c.write(service, headers, n++);
      assert.ok(after.status < 300 && after.key, `${id} accepts writes after the restart (${after.status})`);
      const seen = statuses.get(id) ?? [];
      const outageStatus = id === 'profiles' ? graphqlError : 503;
      const unexpected = seen.filter((s) => !(s < 300 || s === outageStatus));
      assert.deepEqual(unexpected, [], `${id}: only successes and outage answers under load`);
      assert.ok(seen.includes(outageStatus), `${id}: the load met the outage`);
      const stored = new Set(await c.stored(db));
      const lost = (acknowledged.get(id) ?? []).filter((key) => !stored.has(key));
      assert.deepEqual(lost, [], `${id}: every acknowledged write is stored`);
      const early = beforeStop.get(id) ?? [];
      assert.ok(
        early.length > 0 && early.every((key) => stored.has(key)),
        `${id}: writes from before the stop`,
      );
    }
  });
});
