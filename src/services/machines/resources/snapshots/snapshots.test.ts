import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApiClient } from 'dots-wrapper';
import { documented } from '../../check.test.js';
import { startMachines, tokens, validCreate } from '../../support.test.js';

const unknownUuid = '00000000-0000-4000-8000-000000000000';

test("snapshots of droplets and volumes: listed, read, deleted and restored as DigitalOcean's document says", async () => {
  const service = await startMachines();
  try {
    const { droplet } = await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, validCreate);
    const action = 'POST /v2/droplets/{droplet_id}/actions';
    await documented(service, action, `/v2/droplets/${droplet.id}/actions`, 201, {
      type: 'snapshot',
      name: 'web-snap',
    });
    const { volume } = await documented(service, 'POST /v2/volumes', '/v2/volumes', 201, {
      name: 'data',
      size_gigabytes: 20,
      region: 'nyc3',
      filesystem_type: 'xfs',
      filesystem_label: 'pgdata',
    });

    const takeVolume = 'POST /v2/volumes/{volume_id}/snapshots';
    const taken = await documented(service, takeVolume, `/v2/volumes/${volume.id}/snapshots`, 201, {
      name: 'nightly',
      tags: ['db'],
    });
    const volumeSnap = taken.snapshot.id as string;
    assert.deepEqual(
      { ...taken.snapshot, id: 'x', created_at: 'x' },
      {
        id: 'x',
        name: 'nightly',
        created_at: 'x',
        regions: ['nyc3'],
        min_disk_size: 20,
        size_gigabytes: 0,
        resource_id: volume.id,
        resource_type: 'volume',
        tags: ['db'],
      },
    );
    assert.equal(
      (await documented(service, takeVolume, `/v2/volumes/${volume.id}/snapshots`, 400, { name: '' }))
        .message,
      'name is required to snapshot a volume.',
    );
    await documented(service, takeVolume, `/v2/volumes/${unknownUuid}/snapshots`, 404, { name: 'x' });
    const ofVolume = 'GET /v2/volumes/{volume_id}/snapshots';
    assert.deepEqual(
      (await documented(service, ofVolume, `/v2/volumes/${volume.id}/snapshots`, 200)).snapshots.map(
        (s: { id: string }) => s.id,
      ),
      [volumeSnap],
    );
    await documented(service, ofVolume, `/v2/volumes/${unknownUuid}/snapshots`, 404);
    await documented(
      service,
      'GET /v2/volumes/snapshots/{snapshot_id}',
      `/v2/volumes/snapshots/${volumeSnap}`,
      200,
    );
    await documented(
      service,
      'GET /v2/volumes/snapshots/{snapshot_id}',
      `/v2/volumes/snapshots/${unknownUuid}`,
      404,
    );

    const all = await documented(service, 'GET /v2/snapshots', '/v2/snapshots', 200);
    assert.deepEqual(
      all.snapshots.map((s: { name: string; resource_type: string }) => [s.name, s.resource_type]),
      [
        ['web-snap', 'droplet'],
        ['nightly', 'volume'],
      ],
    );
    const dropletSnap = all.snapshots[0];
    assert.equal(dropletSnap.resource_id, String(droplet.id));
    assert.deepEqual(all.meta, { total: 2 });
    const onlyDroplets = await documented(
      service,
      'GET /v2/snapshots',
      '/v2/snapshots?resource_type=droplet',
      200,
    );
    assert.deepEqual(
      onlyDroplets.snapshots.map((s: { id: string }) => s.id),
      [dropletSnap.id],
    );
    await documented(service, 'GET /v2/snapshots', '/v2/snapshots?resource_type=image', 400);
    const one = 'GET /v2/snapshots/{snapshot_id}';
    assert.deepEqual(
      (await documented(service, one, `/v2/snapshots/${volumeSnap}`, 200)).snapshot,
      taken.snapshot,
    );
    await documented(service, one, `/v2/snapshots/${dropletSnap.id}`, 200);
    await documented(service, one, '/v2/snapshots/170999999', 404);

    // A volume made from a snapshot takes its filesystem; an unknown snapshot is a 404.
    const restored = await documented(service, 'POST /v2/volumes', '/v2/volumes', 201, {
      name: 'data-copy',
      size_gigabytes: 30,
      region: 'nyc3',
      snapshot_id: volumeSnap,
    });
    assert.deepEqual(
      [restored.volume.size_gigabytes, restored.volume.filesystem_type, restored.volume.filesystem_label],
      [30, 'xfs', 'pgdata'],
    );
    await documented(service, 'POST /v2/volumes', '/v2/volumes', 404, {
      name: 'x',
      size_gigabytes: 30,
      region: 'nyc3',
      snapshot_id: unknownUuid,
    });
    const tooSmall = await service.app.inject({
      method: 'POST',
      url: '/v2/volumes',
      headers: { authorization: `Bearer ${tokens.full}` },
      payload: { name: 'small', size_gigabytes: 10, region: 'nyc3', snapshot_id: volumeSnap },
    });
    assert.equal(tooSmall.json().message, 'size_gigabytes must be at least 20, the size of the snapshot.');

    const del = 'DELETE /v2/snapshots/{snapshot_id}';
    await documented(service, del, `/v2/snapshots/${dropletSnap.id}`, 204);
    await documented(service, del, `/v2/snapshots/${dropletSnap.id}`, 404);
    const gone = await documented(
      service,
      'GET /v2/droplets/{droplet_id}',
      `/v2/droplets/${droplet.id}`,
      200,
    );
    assert.deepEqual(gone.droplet.snapshot_ids, []);
    await documented(
      service,
      'DELETE /v2/volumes/snapshots/{snapshot_id}',
      `/v2/volumes/snapshots/${volumeSnap}`,
      204,
    );
    await documented(
      service,
      'DELETE /v2/volumes/snapshots/{snapshot_id}',
      `/v2/volumes/snapshots/${volumeSnap}`,
      404,
    );
    assert.deepEqual((await service.db.query('SELECT id FROM machines.volume_snapshots')).rows, []);
  } finally {
    await service.close();
  }
});

test('dots-wrapper lists, reads and deletes snapshots, and restores a volume from one, unchanged', async () => {
  const service = await startMachines({}, { listen: true });
  try {
    const client = createApiClient({ token: tokens.full, endpoint: `${service.url}/v2` });
    const { data } = await client.volume.createVolume({
      name: 'vol',
      size_gigabytes: 5,
      region: 'ams3',
      filesystem_type: 'ext4',
    } as never);
    const snap = await client.volume.createVolumeSnapshot({
      volume_id: data.volume.id,
      name: 'snap-1',
    } as never);
    assert.equal(snap.status, 201);
    const snapshot_id = snap.data.snapshot.id;
    assert.equal(
      (await client.volume.listVolumeSnapshots({ volume_id: data.volume.id })).data.snapshots.length,
      1,
    );
    const listed = await client.snapshot.listSnapshots({ resource_type: 'volume' } as never);
    assert.deepEqual(
      listed.data.snapshots.map((s) => s.id),
      [snapshot_id],
    );
    assert.equal((await client.snapshot.getSnapshot({ snapshot_id })).data.snapshot.name, 'snap-1');
    const copy = await client.volume.createVolume({
      name: 'vol-2',
      size_gigabytes: 5,
      region: 'ams3',
      snapshot_id,
    } as never);
    assert.equal(copy.data.volume.filesystem_type, 'ext4');
    assert.equal((await client.snapshot.deleteSnapshot({ snapshot_id })).status, 204);
    assert.deepEqual((await client.snapshot.listSnapshots({})).data.snapshots, []);
  } finally {
    await service.close();
  }
});
