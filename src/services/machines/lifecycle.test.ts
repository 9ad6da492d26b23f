import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testClock } from '../../../test/clock.js';
import { createTestDatabase } from '../../../test/db.js';
import type { Database } from '../../platform/database.js';
import { auth, startMachines, tokens, validCreate } from './support.test.js';

let db: Database;

before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db.close();
});

test('status and the create action are derived from the stored creation time, across processes', async () => {
  // Two "processes" on one database: one that has not reached the provisioning time yet, one that has.
  const slow = await startMachines({ MACHINES_PROVISION_MS: '600000' }, { db });
  const fast = await startMachines({ MACHINES_PROVISION_MS: '0' }, { db });
  try {
    const created = await slow.app.inject({
      method: 'POST',
      url: '/v2/machines',
      headers: auth(),
      payload: { ...validCreate, ipv6: true },
    });
    assert.equal(created.statusCode, 202);
    const { machine, links } = created.json();
    assert.equal(machine.status, 'new');
    assert.deepEqual(machine.networks, { v4: [], v6: [] });

    const pending = (await slow.app.inject({ url: `/v2/machines/${machine.id}`, headers: auth() })).json()
      .machine;
    assert.equal(pending.status, 'new');
    assert.deepEqual(pending.networks, { v4: [], v6: [] });
    const action = (
      await slow.app.inject({ url: `/v2/actions/${links.actions[0].id}`, headers: auth() })
    ).json().action;
    assert.deepEqual(
      { ...action, region: action.region.slug },
      {
        id: links.actions[0].id,
        status: 'in-progress',
        type: 'create',
        started_at: machine.created_at,
        completed_at: null,
        resource_id: machine.id,
        resource_type: 'machine',
        region: 'nyc3',
        region_slug: 'nyc3',
      },
    );

    const active = (await fast.app.inject({ url: `/v2/machines/${machine.id}`, headers: auth() })).json()
      .machine;
    assert.equal(active.status, 'active');
    const [priv, pub] = active.networks.v4;
    assert.equal(priv.type, 'private');
    assert.match(priv.ip_address, /^10\.\d+\.\d+\.\d+$/);
    assert.equal(pub.type, 'public');
    assert.match(pub.ip_address, /^198\.1[89]\.\d+\.\d+$/);
    assert.equal(active.networks.v6[0].type, 'public');
    assert.match(active.vpc_uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    const done = (
      await fast.app.inject({ url: `/v2/actions/${links.actions[0].id}`, headers: auth() })
    ).json().action;
    assert.equal(done.status, 'completed');
    assert.match(done.completed_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  } finally {
    await slow.close();
    await fast.close();
  }
});

test('a machine becomes active once MACHINES_PROVISION_MS has passed on the service clock', async () => {
  // The clock starts now: rows are stamped by it, and it moves only when told (no waiting in real time).
  const clock = testClock(Date.now());
  const service = await startMachines({ MACHINES_PROVISION_MS: '1500' }, { db, clock });
  try {
    const created = await service.app.inject({
      method: 'POST',
      url: '/v2/machines',
      headers: auth(),
      payload: validCreate,
    });
    const id = created.json().machine.id;
    assert.equal(created.json().machine.status, 'new');
    const status = async () =>
      (await service.app.inject({ url: '/v2/machines', headers: auth() }))
        .json()
        .machines.find((m: { id: number }) => m.id === id).status;
    clock.advance(1499);
    assert.equal(await status(), 'new');
    clock.advance(1);
    assert.equal(await status(), 'active');
  } finally {
    await service.close();
  }
});

test('rate limits: headers on every response, 429 past the per-minute limit, counters shared by processes', async () => {
  await db.query('DELETE FROM machines.rate_counters');
  // Counters are per clock minute and hour: the test clock starts at an hour's start and moves only when told.
  const clock = testClock();
  const env = { MACHINES_RATE_LIMIT_PER_HOUR: '100', MACHINES_RATE_LIMIT_PER_MINUTE: '3' };
  const one = await startMachines(env, { db, clock });
  const two = await startMachines(env, { db, clock });
  const nextHour = String(Math.floor(clock.now() / 3_600_000) * 3600 + 3600);
  try {
    const first = await one.app.inject({ url: '/v2/machines', headers: auth(tokens.read) });
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['ratelimit-limit'], '100');
    assert.equal(first.headers['ratelimit-remaining'], '99');
    assert.equal(first.headers['ratelimit-reset'], nextHour);

    // Errors count and carry the headers too.
    const missing = await two.app.inject({ url: '/v2/machines/1', headers: auth(tokens.read) });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['ratelimit-remaining'], '98');
    const third = await two.app.inject({ url: '/v2/regions', headers: auth(tokens.read) });
    assert.equal(third.headers['ratelimit-remaining'], '97');

    const limited = await one.app.inject({ url: '/v2/machines', headers: auth(tokens.read) });
    assert.equal(limited.statusCode, 429);
    assert.deepEqual(limited.json(), {
      id: 'too_many_requests',
      message: 'API rate limit exceeded.',
      request_id: limited.headers['x-request-id'],
    });
    clock.advance(20_000);
    const later = await one.app.inject({ url: '/v2/machines', headers: auth(tokens.read) });
    assert.equal(later.statusCode, 429);
    assert.equal(limited.headers['retry-after'], '60', 'the minute has just begun');
    assert.equal(later.headers['retry-after'], '40');
    // Refused for the burst: nothing is left to spend now, whatever the hour has left (was 96).
    assert.equal(limited.headers['ratelimit-remaining'], '0');

    // Another token has its own counters.
    const other = await two.app.inject({ url: '/v2/machines', headers: auth(tokens.full) });
    assert.equal(other.statusCode, 200);
    assert.equal(other.headers['ratelimit-remaining'], '99');

    const { rows } = await db.query<{ count: number }>(
      `SELECT c.count FROM machines.rate_counters c JOIN machines.tokens t ON t.id = c.token_id
       WHERE t.name = 'reader' AND c.window_kind = 'minute'`,
    );
    assert.deepEqual(rows, [{ count: 5 }]);

    // The next minute spends again, from what the hour has left (5 counted, refusals included).
    clock.advance(40_000);
    const nextMinute = await two.app.inject({ url: '/v2/machines', headers: auth(tokens.read) });
    assert.equal(nextMinute.statusCode, 200);
    assert.equal(nextMinute.headers['ratelimit-remaining'], '94');
    assert.equal(nextMinute.headers['ratelimit-reset'], nextHour);
  } finally {
    await one.close();
    await two.close();
  }
});

test('past the hourly limit, retry-after points at the next hour', async () => {
  await db.query('DELETE FROM machines.rate_counters');
  // 25 minutes and 30 seconds into an hour.
  const clock = testClock();
  clock.advance(1_530_000);
  const service = await startMachines(
    { MACHINES_RATE_LIMIT_PER_HOUR: '2', MACHINES_RATE_LIMIT_PER_MINUTE: '100' },
    { db, clock },
  );
  const sizes = () => service.app.inject({ url: '/v2/sizes', headers: auth() });
  try {
    for (let i = 0; i < 2; i++) assert.equal((await sizes()).statusCode, 200);
    const limited = await sizes();
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['ratelimit-remaining'], '0');
    assert.equal(limited.headers['retry-after'], String(3600 - 1530));
    assert.equal(Number(limited.headers['ratelimit-reset']) * 1000, clock.now() + (3600 - 1530) * 1000);
    clock.advance((3600 - 1530) * 1000 - 1);
    assert.equal((await sizes()).headers['retry-after'], '1', 'a last millisecond of the hour rounds to 1');
    clock.advance(1);
    const nextHour = await sizes();
    assert.equal(nextHour.statusCode, 200);
    assert.equal(nextHour.headers['ratelimit-remaining'], '1');
  } finally {
    await service.close();
  }
});
