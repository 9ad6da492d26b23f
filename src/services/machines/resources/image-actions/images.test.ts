import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../../../../test/db.js';
import { documented } from '../../check.test.js';
import { auth, startMachines, tokens, validCreate } from '../../support.test.js';

const custom = {
  name: 'minimal',
  url: 'http://example.test/images/minimal.qcow2',
  region: 'nyc3',
  distribution: 'Ubuntu',
};

test("custom images, image updates, deletes and actions answer as DigitalOcean's document says", async () => {
  const db = await createTestDatabase();
  // Imports take an hour here, so NEW can be seen; the clock is moved by moving stored times back.
  let service = await startMachines({ MACHINES_PROVISION_MS: '3600000' }, { db });
  const hourPasses = async () => {
    await db.query(`UPDATE machines.images SET created_at = created_at - interval '61 minutes'`);
    await db.query(`UPDATE machines.machines SET created_at = created_at - interval '61 minutes'`);
    await db.query(`UPDATE machines.actions SET started_at = started_at - interval '61 minutes'`);
  };
  try {
    const create = 'POST /v2/images';
    const made = (
      await documented(service, create, '/v2/images', 202, { ...custom, description: 'd', tags: ['base'] })
    ).image;
    assert.deepEqual(
      { ...made, id: 0, created_at: 'x' },
      {
        id: 0,
        name: 'minimal',
        distribution: 'Ubuntu',
        slug: null,
        public: false,
        regions: ['nyc3'],
        created_at: 'x',
        min_disk_size: 20,
        type: 'custom',
        size_gigabytes: 2,
        description: 'd',
        tags: ['base'],
        status: 'NEW',
        error_message: '',
      },
    );
    const bad = async (body: object) => (await documented(service, create, '/v2/images', 422, body)).message;
    assert.equal(
      await bad({ ...custom, url: 'ftp://x/y' }),
      'url must be an http or https URL of the image file.',
    );
    assert.equal(await bad({ ...custom, region: 'mars1' }), 'region "mars1" is not a valid region.');
    assert.equal(await bad({ ...custom, name: ' ' }), 'name must be 1 to 255 characters.');
    assert.equal(await bad({ name: 'x', url: custom.url }), "region must have required property 'region'");
    await documented(service, create, '/v2/images', 403, custom, tokens.read);
    // An unknown distribution is kept as Unknown, as the document says.
    const other = (
      await documented(service, create, '/v2/images', 202, { ...custom, distribution: 'Plan 9' })
    ).image;
    assert.equal(other.distribution, 'Unknown');

    // NEW cannot be deployed or acted on; it becomes available on the clock.
    const deploy = await documented(service, 'POST /v2/droplets', '/v2/droplets', 422, {
      ...validCreate,
      image: made.id,
    });
    assert.equal(deploy.message, `The image ${made.id} is not available yet.`);
    const act = 'POST /v2/images/{image_id}/actions';
    await documented(service, act, `/v2/images/${made.id}/actions`, 422, {
      type: 'transfer',
      region: 'lon1',
    });
    await hourPasses();
    const get = 'GET /v2/images/{image_id}';
    assert.equal((await documented(service, get, `/v2/images/${made.id}`, 200)).image.status, 'available');
    const droplet = (
      await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, { ...validCreate, image: made.id })
    ).droplet;
    assert.equal(droplet.image.id, made.id);

    // Update: name, distribution, description of the account's own images only.
    const put = 'PUT /v2/images/{image_id}';
    const renamed = (
      await documented(service, put, `/v2/images/${made.id}`, 200, { name: 'mini', distribution: 'Debian' })
    ).image;
    assert.deepEqual([renamed.name, renamed.distribution, renamed.description], ['mini', 'Debian', 'd']);
    await documented(service, put, '/v2/images/160000001', 404, { name: 'x' });
    await documented(service, put, `/v2/images/${made.id}`, 422, { name: '' });

    // Actions: transfer adds a region; convert turns a backup into a snapshot.
    const transfer = (
      await documented(service, act, `/v2/images/${made.id}/actions`, 201, {
        type: 'transfer',
        region: 'lon1',
      })
    ).action;
    assert.deepEqual(
      [transfer.type, transfer.status, transfer.resource_id, transfer.resource_type, transfer.region_slug],
      ['transfer', 'in-progress', made.id, 'image', 'lon1'],
    );
    assert.deepEqual((await documented(service, get, `/v2/images/${made.id}`, 200)).image.regions, [
      'nyc3',
      'lon1',
    ]);
    const actBad = async (body: object) =>
      (await documented(service, act, `/v2/images/${made.id}/actions`, 422, body)).message;
    assert.equal(
      await actBad({ type: 'transfer', region: 'lon1' }),
      'The image is already available in lon1.',
    );
    assert.equal(await actBad({ type: 'convert' }), 'Only a backup can be converted to a snapshot.');
    assert.equal(await actBad({ type: 'resize' }), 'type must be transfer or convert.');
    await documented(service, act, '/v2/images/170999999/actions', 404, { type: 'convert' });
    await hourPasses(); // the droplet is active
    await documented(
      service,
      'POST /v2/droplets/{droplet_id}/actions',
      `/v2/droplets/${droplet.id}/actions`,
      201,
      {
        type: 'enable_backups',
      },
    );
    await hourPasses();
    const backupId = (
      await documented(service, 'GET /v2/droplets/{droplet_id}', `/v2/droplets/${droplet.id}`, 200)
    ).droplet.backup_ids[0];
    const convert = (
      await documented(service, act, `/v2/images/${backupId}/actions`, 201, { type: 'convert' })
    ).action;
    assert.equal((await documented(service, get, `/v2/images/${backupId}`, 200)).image.type, 'snapshot');
    const list = 'GET /v2/images/{image_id}/actions';
    assert.deepEqual(
      (await documented(service, list, `/v2/images/${made.id}/actions`, 200)).actions.map(
        (a: { id: number }) => a.id,
      ),
      [transfer.id],
    );
    await documented(service, list, '/v2/images/170999999/actions', 404);
    const one = 'GET /v2/images/{image_id}/actions/{action_id}';
    assert.equal(
      (await documented(service, one, `/v2/images/${backupId}/actions/${convert.id}`, 200)).action.status,
      'in-progress',
    );
    await documented(service, one, `/v2/images/${made.id}/actions/${convert.id}`, 404);

    // A restart keeps custom images and their actions.
    const reads = ['/v2/images?private=true', `/v2/images/${made.id}/actions`];
    const read = async (url: string) => (await service.app.inject({ url, headers: auth() })).json();
    const before = await Promise.all(reads.map(read));
    await service.close();
    service = await startMachines({ MACHINES_PROVISION_MS: '3600000' }, { db });
    assert.deepEqual(await Promise.all(reads.map(read)), before);

    // Deleting the image a droplet runs: the droplet shows it as deleted, as the document's status allows.
    const del = 'DELETE /v2/images/{image_id}';
    await documented(service, del, `/v2/images/${made.id}`, 204);
    await documented(service, del, `/v2/images/${made.id}`, 404);
    await documented(service, del, '/v2/images/160000001', 404);
    const orphan = (
      await documented(service, 'GET /v2/droplets/{droplet_id}', `/v2/droplets/${droplet.id}`, 200)
    ).droplet;
    assert.deepEqual([orphan.image.id, orphan.image.status], [made.id, 'deleted']);
  } finally {
    await service.close();
    await db.close();
  }
});
