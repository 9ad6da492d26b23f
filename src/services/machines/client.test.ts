import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApiClient } from 'dots-wrapper';
import { startMachines, tokens } from './support.test.js';

test('dots-wrapper, an existing client for the original API, drives create, list and delete at /v2/droplets', async () => {
  const service = await startMachines({}, { listen: true });
  try {
    const client = createApiClient({ token: tokens.full, endpoint: `${service.url}/v2` });

    const created = await client.droplet.createDroplet({
      name: 'from-client',
      region: 'ams3',
      size: 's-1vcpu-2gb',
      image: 'ubuntu-24-04-x64',
      tags: ['sdk'],
      ipv6: true,
    });
    assert.equal(created.status, 202);
    const droplet = created.data.droplet;
    assert.equal(droplet.name, 'from-client');
    assert.equal(droplet.size_slug, 's-1vcpu-2gb');
    assert.equal((created.headers as Record<string, string>)['ratelimit-limit'], '5000');

    const several = await client.droplet.createDroplets({
      names: ['c1', 'c2'],
      size: 's-1vcpu-1gb',
      image: 'debian-12-x64',
      tags: ['sdk', 'batch'],
    });
    assert.equal(several.status, 202);
    assert.deepEqual(
      several.data.droplets.map((d) => d.name),
      ['c1', 'c2'],
    );

    const listed = await client.droplet.listDroplets({ tag_name: 'sdk', per_page: 2 });
    assert.equal(listed.status, 200);
    assert.equal(listed.data.meta?.total, 3);
    assert.deepEqual(
      listed.data.droplets.map((d) => d.name),
      ['from-client', 'c1'],
    );
    assert.equal(listed.data.links?.pages?.next, `${service.url}/v2/droplets?page=2&per_page=2&tag_name=sdk`);

    const one = await client.droplet.getDroplet({ droplet_id: droplet.id });
    assert.equal(one.data.droplet.status, 'active');
    assert.equal(one.data.droplet.networks.v6.length, 1);

    const deleted = await client.droplet.deleteDroplet({ droplet_id: droplet.id });
    assert.equal(deleted.status, 204);
    const byTag = await client.droplet.deleteDropletsByTag({ tag_name: 'batch' });
    assert.equal(byTag.status, 204);
    const after = await client.droplet.listDroplets({});
    assert.deepEqual(after.data.droplets, []);
    assert.equal(after.data.meta?.total, 0);

    const regions = await client.region.listRegions({ per_page: 50 });
    assert.equal(regions.data.regions.length, 10);

    await assert.rejects(
      client.droplet.createDroplet({ name: 'bad', size: 'nope', image: 'ubuntu-24-04-x64' }),
      (error: { response: { status: number; data: unknown } }) => {
        assert.equal(error.response.status, 422);
        assert.deepEqual(Object.keys(error.response.data as object).sort(), ['id', 'message', 'request_id']);
        return true;
      },
    );
    const stranger = createApiClient({ token: `dop_v1_${'e'.repeat(64)}`, endpoint: `${service.url}/v2` });
    await assert.rejects(
      stranger.droplet.listDroplets({}),
      (error: { response: { status: number; data: unknown } }) => {
        assert.equal(error.response.status, 401);
        assert.equal((error.response.data as { id: string }).id, 'unauthorized');
        return true;
      },
    );
  } finally {
    await service.close();
  }
});

test('dots-wrapper drives create → power off → resize → power on → snapshot → tag → ssh key → delete, unchanged', async () => {
  const service = await startMachines({}, { listen: true });
  try {
    const client = createApiClient({ token: tokens.full, endpoint: `${service.url}/v2` });
    const { data: created } = await client.droplet.createDroplet({
      name: 'workflow',
      region: 'lon1',
      size: 's-1vcpu-1gb',
      image: 'ubuntu-22-04-x64',
    });
    const droplet_id = created.droplet.id;
    const status = async () => (await client.droplet.getDroplet({ droplet_id })).data.droplet;

    const off = await client.droplet.powerOffDroplet({ droplet_id });
    assert.equal(off.status, 201);
    assert.equal(off.data.action.type, 'power_off');
    const action = await client.action.getAction({ action_id: off.data.action.id });
    assert.equal(action.data.action.status, 'completed');
    assert.equal((await status()).status, 'off');

    await client.droplet.resizeDroplet({ droplet_id, size: 's-2vcpu-4gb', disk: true });
    const resized = await status();
    assert.deepEqual([resized.size_slug, resized.disk, resized.memory], ['s-2vcpu-4gb', 80, 4096]);
    await assert.rejects(
      client.droplet.powerOffDroplet({ droplet_id }),
      (error: { response: { status: number; data: { message: string } } }) => {
        assert.equal(error.response.status, 422);
        assert.equal(error.response.data.message, 'Droplet is already powered off.');
        return true;
      },
    );

    await client.droplet.powerOnDroplet({ droplet_id });
    assert.equal((await status()).status, 'active');

    const snap = await client.droplet.snapshotDroplet({ droplet_id, name: 'after-resize' });
    assert.equal(snap.data.action.type, 'snapshot');
    const snapshots = await client.droplet.listDropletSnapshots({ droplet_id });
    assert.deepEqual(
      snapshots.data.snapshots.map((s) => [s.name, s.min_disk_size]),
      [['after-resize', 80]],
    );
    assert.deepEqual((await status()).snapshot_ids, [snapshots.data.snapshots[0]?.id]);

    await client.tag.createTag({ name: 'workflow' });
    await client.tag.tagResources({
      tag_name: 'workflow',
      resources: [{ resource_id: String(droplet_id), resource_type: 'droplet' }],
    });
    assert.deepEqual((await status()).tags, ['workflow']);
    const tag = await client.tag.getTag({ tag_name: 'workflow' });
    assert.equal(tag.data.tag.resources.count, 1);
    const tagged = await client.droplet.listDroplets({ tag_name: 'workflow' });
    assert.deepEqual(
      tagged.data.droplets.map((d) => d.id),
      [droplet_id],
    );

    const publicKey =
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGIQitVLRodLs3IJ4TLFyHCjNELitRbpbMjiN3ijIJYF dev@backlot';
    const key = await client.sshKey.createSshKey({ name: 'ci', public_key: publicKey });
    assert.equal(key.status, 201);
    assert.equal(key.data.ssh_key.fingerprint, '56:e5:b5:4c:0d:bd:f9:7e:ba:04:18:37:62:71:47:27');
    const byFingerprint = await client.sshKey.getSshKey({ ssh_key_id: key.data.ssh_key.fingerprint });
    assert.equal(byFingerprint.data.ssh_key.id, key.data.ssh_key.id);
    const withKey = await client.droplet.createDroplet({
      name: 'keyed',
      size: 's-1vcpu-1gb',
      image: 'ubuntu-22-04-x64',
      ssh_keys: [key.data.ssh_key.fingerprint],
    });
    assert.equal(withKey.status, 202);

    assert.equal((await client.droplet.deleteDroplet({ droplet_id })).status, 204);
    assert.equal((await client.droplet.deleteDroplet({ droplet_id: withKey.data.droplet.id })).status, 204);
    assert.equal((await client.sshKey.destroySshKey({ ssh_key_id: key.data.ssh_key.id })).status, 204);
    assert.equal((await client.droplet.listDroplets({})).data.meta?.total, 0);
    // The snapshot outlives the droplet, as the provider's do.
    const snapshotId = Number(snapshots.data.snapshots[0]?.id);
    const image = await client.image.getImage({ image_id: snapshotId });
    assert.deepEqual([image.data.image.name, image.data.image.type], ['after-resize', 'snapshot']);
  } finally {
    await service.close();
  }
});
