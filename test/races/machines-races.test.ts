import assert from 'node:assert/strict';
import { after, before, mock, test } from 'node:test';
import type { Database } from '../../src/platform/database.js';
import { auth, startMachines, validCreate } from '../../src/services/machines/support.test.js';
import { createTestDatabase } from '../db.js';
import type { TestService } from '../service.js';

// An action sent just as the previous one completes (issue 41, item 7): the request reads the clock once, so the
// step that applies completed actions and the "pending" check agree. The clock is moved by 2 ms right after the
// applying step has looked, the moment at which they disagreed.

const P = 1000;
let db: Database;
let service: TestService;
let stepAfterSettle = false;

before(async () => {
  db = await createTestDatabase();
  const watched: Database = {
    kind: db.kind,
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction(fn),
    ping: () => db.ping(),
    close: () => db.close(),
    query: async (sql, params) => {
      const result = await db.query(sql, params);
      if (stepAfterSettle && /WHERE NOT applied AND started_at <= \$1 LIMIT 1/.test(sql)) {
        stepAfterSettle = false;
        mock.timers.tick(2);
      }
      return result as never;
    },
  } as Database;
  service = await startMachines({ MACHINES_PROVISION_MS: String(P) }, { db: watched });
});
after(async () => {
  mock.timers.reset();
  await service.close();
  await db.close();
});

const call = (url: string, payload: object) =>
  service.app.inject({ method: 'POST', url, headers: auth(), payload });

test('power_on sent as power_off completes is refused as pending, not as "already powered on"', async () => {
  mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-01-01T00:00:00Z') });
  const created = await call('/v2/droplets', validCreate);
  assert.equal(created.statusCode, 202, created.body);
  const id = created.json().droplet.id;
  mock.timers.tick(P);
  assert.equal((await call(`/v2/droplets/${id}/actions`, { type: 'power_off' })).statusCode, 201);
  mock.timers.tick(P - 1);
  stepAfterSettle = true;
  const on = await call(`/v2/droplets/${id}/actions`, { type: 'power_on' });
  assert.equal(on.statusCode, 422);
  assert.equal(on.json().message, 'Droplet already has a pending event.');
  // Once it has completed, power_on is taken.
  mock.timers.tick(5);
  assert.equal((await call(`/v2/droplets/${id}/actions`, { type: 'power_on' })).statusCode, 201);
});
