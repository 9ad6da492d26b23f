import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documented } from '../../check.test.js';
import { startMachines, tokens, validCreate } from '../../support.test.js';
import { nextWindow } from './window.js';

const stranger = `dop_v1_${'e'.repeat(64)}`;

test("backup policies and the neighbors report answer as DigitalOcean's document says", async () => {
  const service = await startMachines();
  try {
    const a = (await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, validCreate)).droplet;
    const b = (
      await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, { ...validCreate, name: 'b' })
    ).droplet;
    await documented(service, 'POST /v2/droplets/{droplet_id}/actions', `/v2/droplets/${a.id}/actions`, 201, {
      type: 'enable_backups',
      backup_policy: { plan: 'weekly', weekday: 'TUE', hour: 8 },
    });
    const one = 'GET /v2/droplets/{droplet_id}/backups/policy';
    const policy = (await documented(service, one, `/v2/droplets/${a.id}/backups/policy`, 200)).policy;
    assert.deepEqual(
      { ...policy, next_backup_window: 'x' },
      {
        droplet_id: a.id,
        backup_enabled: true,
        backup_policy: {
          plan: 'weekly',
          weekday: 'TUE',
          hour: 8,
          window_length_hours: 4,
          retention_period_days: 28,
        },
        next_backup_window: 'x',
      },
    );
    const start = new Date(policy.next_backup_window.start);
    assert.deepEqual([start.getUTCDay(), start.getUTCHours()], [2, 8]);
    await documented(service, one, '/v2/droplets/1/backups/policy', 404);

    const all = 'GET /v2/droplets/backups/policies';
    const listed = await documented(service, all, '/v2/droplets/backups/policies', 200);
    assert.deepEqual(listed.policies[String(b.id)], { droplet_id: b.id, backup_enabled: false });
    assert.deepEqual(listed.policies[String(a.id)], policy);
    assert.equal(listed.meta.total, 2);
    await documented(service, all, '/v2/droplets/backups/policies?per_page=0', 400);

    const supported = 'GET /v2/droplets/backups/supported_policies';
    const plans = (await documented(service, supported, '/v2/droplets/backups/supported_policies', 200))
      .supported_policies;
    assert.deepEqual(
      plans.map((p: { name: string; retention_period_days: number }) => [p.name, p.retention_period_days]),
      [
        ['weekly', 28],
        ['daily', 7],
      ],
    );
    await documented(service, supported, '/v2/droplets/backups/supported_policies', 401, undefined, stranger);

    const report = 'GET /v2/reports/droplet_neighbors_ids';
    assert.deepEqual(await documented(service, report, '/v2/reports/droplet_neighbors_ids', 200), {
      neighbor_ids: [],
    });
    await documented(service, report, '/v2/reports/droplet_neighbors_ids', 403, undefined, tokens.create);
  } finally {
    await service.close();
  }
});

test('the next backup window is the next start of the policy’s hour, on its weekday for a weekly plan', () => {
  const now = new Date('2026-11-28T09:30:00Z'); // a Saturday
  const policy = { window_length_hours: 4, retention_period_days: 7 };
  assert.deepEqual(nextWindow({ ...policy, plan: 'daily', weekday: null, hour: 8 }, now), {
    start: '2026-11-29T08:00:00Z',
    end: '2026-11-29T12:00:00Z',
  });
  assert.deepEqual(
    nextWindow({ ...policy, plan: 'daily', weekday: null, hour: 12 }, now)?.start,
    '2026-11-28T12:00:00Z',
  );
  assert.deepEqual(
    nextWindow({ ...policy, plan: 'weekly', weekday: 'SAT', hour: 4 }, now)?.start,
    '2026-12-05T04:00:00Z',
  );
});
