import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { countingDatabase } from '../../../test/counting-db.js';
import { createTestDatabase } from '../../../test/db.js';
import type { TestService } from '../../../test/service.js';
import type { Database } from '../../platform/database.js';
import type { MachinesSettings } from './settings.js';
import { auth, startMachines, tokens, validCreate } from './support.test.js';

// The statements one request sends (issue 42: six before, one of them a write, on every GET).
let raw: Database;
let db: ReturnType<typeof countingDatabase>;
let service: TestService<MachinesSettings>;
before(async () => {
  raw = await createTestDatabase();
  db = countingDatabase(raw);
  service = await startMachines({ MACHINES_PROVISION_MS: '60000' }, { db });
});
after(async () => {
  await service.close();
  await raw.close();
});

async function sent(url: string, method: 'GET' | 'POST' = 'GET', payload?: object) {
  const first = db.statements.length;
  const res = await service.app.inject({ method, url, payload, headers: auth(tokens.full) });
  return { res, statements: db.statements.slice(first) };
}

test('a GET of a first page that is not full is one statement for the guard and one for the page', async () => {
  const { res, statements } = await sent('/v2/droplets?per_page=20');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json().meta, { total: 0 });
  assert.equal(statements.length, 2, statements.join('\n---\n'));
  assert.match(statements[0] as string, /INSERT INTO machines\.rate_counters/);
  assert.equal(res.headers['ratelimit-remaining'], String(5000 - 1));
});

test('the counters still count every request; a full page sends the guard, the page and its count', async () => {
  for (let i = 0; i < 3; i++) {
    const created = await sent('/v2/droplets', 'POST', { ...validCreate, name: `web-${i}` });
    assert.equal(created.res.statusCode, 202);
  }
  const a = await sent('/v2/droplets?per_page=2');
  const b = await sent('/v2/droplets?per_page=2');
  assert.equal(a.res.json().meta.total, 3);
  assert.equal(b.res.json().meta.total, 3);
  assert.equal(b.statements.length, 3, b.statements.join('\n---\n'));
  const remaining = Number(a.res.headers['ratelimit-remaining']);
  assert.equal(Number(b.res.headers['ratelimit-remaining']), remaining - 1);
  const { rows } = await raw.query<{ n: string }>(
    `SELECT sum(count)::text AS n FROM machines.rate_counters WHERE window_kind = 'hour'`,
  );
  assert.equal(Number(rows[0]?.n), 5000 - Number(b.res.headers['ratelimit-remaining']));
});

test('actions become due: the request that finds one settles it first', async () => {
  // An action past its provisioning time, written as another process would have left it.
  const { rows } = await raw.query<{ id: number }>('SELECT id FROM machines.machines ORDER BY id LIMIT 1');
  const id = (rows[0] as { id: number }).id;
  const past = `UPDATE machines.actions SET started_at = started_at - interval '2 minutes'`;
  await raw.query(past);
  await raw.query(`UPDATE machines.machines SET created_at = created_at - interval '2 minutes'`);
  await sent(`/v2/droplets/${id}`);
  const action = await sent(`/v2/droplets/${id}/actions`, 'POST', { type: 'power_off' });
  assert.equal(action.res.statusCode, 201);
  await raw.query(past);
  const settled = await sent(`/v2/droplets/${id}`);
  assert.ok(
    settled.statements.some((sql) => /FOR UPDATE/.test(sql)),
    'settled in this request',
  );
  assert.equal(settled.res.json().droplet.status, 'off');
  const after = await sent(`/v2/droplets/${id}`);
  assert.equal(after.statements.length, 2, after.statements.join('\n---\n'));
});
