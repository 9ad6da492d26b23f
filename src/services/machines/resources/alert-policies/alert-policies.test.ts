import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documented } from '../../check.test.js';
import { startMachines, tokens, validCreate } from '../../support.test.js';

const unknown = '00000000-0000-4000-8000-000000000000';

test("every alert policy operation answers as DigitalOcean's document says, and keeps what it was told", async () => {
  const service = await startMachines();
  try {
    const droplet = (await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, validCreate)).droplet
      .id as number;
    const policy = {
      type: 'v1/insights/droplet/cpu',
      description: 'CPU is running high',
      compare: 'GreaterThan',
      value: 80.5,
      window: '5m',
      entities: [String(droplet)],
      tags: ['web'],
      alerts: { email: ['ops@example.com'], slack: [{ channel: '#ops', url: 'https://hooks.slack.com/x' }] },
      enabled: true,
    };
    const post = (status: number, body: unknown) =>
      documented(service, 'POST /v2/monitoring/alerts', '/v2/monitoring/alerts', status, body);
    const created = await post(200, policy);
    const id = created.policy.uuid as string;
    assert.deepEqual(created.policy, { uuid: id, ...policy });
    const refused = async (change: object) => (await post(422, { ...policy, ...change })).message;
    assert.equal(await refused({ type: 'v1/nope' }), 'type is not a known alert type.');
    assert.equal(await refused({ window: '2m' }), 'window must be one of 5m, 10m, 30m, 1h.');
    assert.equal(await refused({ entities: ['7'] }), 'Droplet 7 could not be found.');
    assert.equal(
      await refused({ alerts: { email: ['nope'], slack: [] } }),
      'nope is not a valid email address.',
    );
    assert.equal(
      await refused({ alerts: { email: [], slack: [] } }),
      'alerts must name at least one email address or Slack channel.',
    );
    assert.equal(await refused({ tags: ['bad tag'] }), '"bad tag" is not a valid tag name.');
    await documented(
      service,
      'POST /v2/monitoring/alerts',
      '/v2/monitoring/alerts',
      403,
      policy,
      tokens.read,
    );

    const listed = await documented(service, 'GET /v2/monitoring/alerts', '/v2/monitoring/alerts', 200);
    assert.deepEqual([listed.policies.length, listed.meta.total], [1, 1]);
    await documented(service, 'GET /v2/monitoring/alerts', '/v2/monitoring/alerts?page=-1', 400);
    const one = '/v2/monitoring/alerts/{alert_uuid}';
    await documented(service, `GET ${one}`, `/v2/monitoring/alerts/${id}`, 200);
    await documented(service, `GET ${one}`, `/v2/monitoring/alerts/${unknown}`, 404);
    const replaced = await documented(service, `PUT ${one}`, `/v2/monitoring/alerts/${id}`, 200, {
      ...policy,
      value: 90,
      enabled: false,
      entities: [],
    });
    assert.deepEqual(
      [replaced.policy.value, replaced.policy.enabled, replaced.policy.entities],
      [90, false, []],
    );
    await documented(service, `PUT ${one}`, `/v2/monitoring/alerts/${id}`, 422, {
      ...policy,
      compare: 'Equal',
    });
    await documented(service, `PUT ${one}`, `/v2/monitoring/alerts/${unknown}`, 404, policy);
    const stored = await service.db.query('SELECT value, enabled FROM machines.alert_policies');
    assert.deepEqual(stored.rows, [{ value: 90, enabled: false }]);
    await documented(service, `DELETE ${one}`, `/v2/monitoring/alerts/${id}`, 204);
    await documented(service, `DELETE ${one}`, `/v2/monitoring/alerts/${id}`, 404);
  } finally {
    await service.close();
  }
});
