import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documented } from '../../check.test.js';
import { auth, startMachines, tokens, validCreate } from '../../support.test.js';

const list = 'GET /v2/droplets/{droplet_id}/destroy_with_associated_resources';
const selective = 'DELETE /v2/droplets/{droplet_id}/destroy_with_associated_resources/selective';
const dangerous = 'DELETE /v2/droplets/{droplet_id}/destroy_with_associated_resources/dangerous';
const status = 'GET /v2/droplets/{droplet_id}/destroy_with_associated_resources/status';
const retry = 'POST /v2/droplets/{droplet_id}/destroy_with_associated_resources/retry';

test("destroying a droplet with its associated resources answers as DigitalOcean's document says", async () => {
  const service = await startMachines();
  try {
    const ok = (op: string, url: string, code: number, body?: object) =>
      documented(service, op, url, code, body);
    // A droplet with a volume (and its snapshot), a snapshot of its own and a reserved IP.
    const volume = (
      await ok('POST /v2/volumes', '/v2/volumes', 201, { name: 'v1', size_gigabytes: 20, region: 'nyc3' })
    ).volume;
    const keep = (
      await ok('POST /v2/volumes', '/v2/volumes', 201, { name: 'v2', size_gigabytes: 5, region: 'nyc3' })
    ).volume;
    const droplet = (
      await ok('POST /v2/droplets', '/v2/droplets', 202, { ...validCreate, volumes: [volume.id, keep.id] })
    ).droplet;
    const volumeSnapshot = (
      await ok('POST /v2/volumes/{volume_id}/snapshots', `/v2/volumes/${volume.id}/snapshots`, 201, {
        name: 'vs',
      })
    ).snapshot;
    await ok('POST /v2/droplets/{droplet_id}/actions', `/v2/droplets/${droplet.id}/actions`, 201, {
      type: 'snapshot',
      name: 'snap',
    });
    await ok('POST /v2/reserved_ips', '/v2/reserved_ips', 202, { droplet_id: droplet.id });
    const snapshotId = String(
      (await ok('GET /v2/droplets/{droplet_id}', `/v2/droplets/${droplet.id}`, 200)).droplet.snapshot_ids[0],
    );

    const associated = await ok(list, `/v2/droplets/${droplet.id}/destroy_with_associated_resources`, 200);
    assert.deepEqual(associated, {
      reserved_ips: [{ id: '203.0.113.2', name: '203.0.113.2', cost: '5.00' }],
      floating_ips: [{ id: '203.0.113.2', name: '203.0.113.2', cost: '5.00' }],
      snapshots: [{ id: snapshotId, name: 'snap', cost: associated.snapshots[0].cost }],
      volumes: [
        { id: volume.id, name: 'v1', cost: '2.00' },
        { id: keep.id, name: 'v2', cost: '0.50' },
      ],
      volume_snapshots: [{ id: volumeSnapshot.id, name: 'vs', cost: '0.00' }],
    });
    await ok(list, '/v2/droplets/1/destroy_with_associated_resources', 404);

    // Selective: only what is named goes, and only what is associated may be named.
    const url = (id: number, rest = '') => `/v2/droplets/${id}/destroy_with_associated_resources${rest}`;
    assert.equal(
      (await ok(selective, url(droplet.id, '/selective'), 422, { volumes: [keep.id, 'nope'] })).message,
      `volumes: "nope" is not associated with droplet ${droplet.id}.`,
    );
    await documented(service, selective, url(droplet.id, '/selective'), 403, {}, tokens.read);
    // The status of a droplet never destroyed this way is a 404; a retry too.
    await ok(status, url(droplet.id, '/status'), 404);
    await ok(retry, url(droplet.id, '/retry'), 404);
    const gone = await ok(selective, url(droplet.id, '/selective'), 202, {
      floating_ips: ['203.0.113.2'],
      volumes: [volume.id],
      volume_snapshots: [volumeSnapshot.id],
    });
    assert.equal(gone, '');
    await ok('GET /v2/droplets/{droplet_id}', `/v2/droplets/${droplet.id}`, 404);
    await ok('GET /v2/volumes/{volume_id}', `/v2/volumes/${volume.id}`, 404);
    await ok('GET /v2/reserved_ips/{reserved_ip}', '/v2/reserved_ips/203.0.113.2', 404);
    // What was not named stays: the other volume (detached) and the droplet's snapshot.
    assert.equal(
      (await ok('GET /v2/volumes/{volume_id}', `/v2/volumes/${keep.id}`, 200)).volume.droplet_ids.length,
      0,
    );
    await ok('GET /v2/images/{image_id}', `/v2/images/${snapshotId}`, 200);
    const done = await ok(status, url(droplet.id, '/status'), 200);
    assert.deepEqual(
      { ...done, completed_at: 'x', droplet: { ...done.droplet, destroyed_at: 'x' } },
      {
        droplet: { id: String(droplet.id), name: 'web-1', destroyed_at: 'x' },
        resources: {
          reserved_ips: [{ id: '203.0.113.2', name: '203.0.113.2', destroyed_at: done.completed_at }],
          floating_ips: [{ id: '203.0.113.2', name: '203.0.113.2', destroyed_at: done.completed_at }],
          snapshots: [],
          volumes: [{ id: volume.id, name: 'v1', destroyed_at: done.completed_at }],
          volume_snapshots: [{ id: volumeSnapshot.id, name: 'vs', destroyed_at: done.completed_at }],
        },
        completed_at: 'x',
        failures: 0,
      },
    );
    assert.equal(await ok(retry, url(droplet.id, '/retry'), 202), '');

    // Dangerous: needs X-Dangerous: true, then takes everything.
    const second = (
      await ok('POST /v2/droplets', '/v2/droplets', 202, { ...validCreate, volumes: [keep.id] })
    ).droplet;
    await ok(dangerous, url(second.id, '/dangerous'), 412);
    await ok(dangerous, url(1, '/dangerous'), 404);
    const answer = await service.app.inject({
      method: 'DELETE',
      url: url(second.id, '/dangerous'),
      headers: { ...auth(), 'x-dangerous': 'true' },
    });
    assert.deepEqual([answer.statusCode, answer.body], [202, '']);
    await ok('GET /v2/volumes/{volume_id}', `/v2/volumes/${keep.id}`, 404);
    const after = await ok(status, url(second.id, '/status'), 200);
    assert.deepEqual(
      after.resources.volumes.map((v: { id: string }) => v.id),
      [keep.id],
    );
  } finally {
    await service.close();
  }
});

test('a destroy in progress shows no destroyed_at, and a retry meanwhile is a 409', async () => {
  const service = await startMachines({ MACHINES_PROVISION_MS: '3600000' });
  try {
    const droplet = (await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, validCreate))
      .droplet;
    const url = `/v2/droplets/${droplet.id}/destroy_with_associated_resources`;
    await documented(service, selective, `${url}/selective`, 202, {});
    const pending = await documented(service, status, `${url}/status`, 200);
    assert.deepEqual(pending.droplet, { id: String(droplet.id), name: 'web-1' });
    assert.equal(pending.completed_at, undefined);
    assert.equal(
      (await documented(service, retry, `${url}/retry`, 409)).message,
      'A destroy of this droplet is in progress.',
    );
  } finally {
    await service.close();
  }
});
