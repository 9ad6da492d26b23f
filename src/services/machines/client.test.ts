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
