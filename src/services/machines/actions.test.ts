import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createTestDatabase } from '../../../test/db.js';
import type { TestService } from '../../../test/service.js';
import type { Database } from '../../platform/database.js';
import type { MachinesSettings } from './settings.js';
import { auth, startMachines, validCreate } from './support.test.js';

let db: Database;
let service: TestService<MachinesSettings>;

before(async () => {
  db = await createTestDatabase();
  service = await startMachines({}, { db });
});
after(async () => {
  await service.close();
  await db.close();
});
beforeEach(async () => {
  await db.query('DELETE FROM machines.machines');
});

const call = (method: 'GET' | 'POST', url: string, payload?: object, app = service.app) =>
  app.inject({ method, url, headers: auth(), ...(payload ? { payload } : {}) });

async function newMachine(body: object = {}, word = 'machines') {
  const created = await call('POST', `/v2/${word}`, { ...validCreate, ...body });
  assert.equal(created.statusCode, 202, created.body);
  return created.json()[word === 'machines' ? 'machine' : 'droplet'].id as number;
}

async function act(id: number, body: object, word = 'machines', app = service.app) {
  return call('POST', `/v2/${word}/${id}/actions`, body, app);
}

async function acted(id: number, body: object, word = 'machines') {
  const response = await act(id, body, word);
  assert.equal(response.statusCode, 201, response.body);
  return response.json().action;
}

const machine = async (id: number, word = 'machines') =>
  (await call('GET', `/v2/${word}/${id}`)).json()[word === 'machines' ? 'machine' : 'droplet'];

function assert422(
  response: { statusCode: number; json(): { id: string; message: string } },
  message: string,
) {
  assert.equal(response.statusCode, 422);
  assert.equal(response.json().id, 'unprocessable_entity');
  assert.equal(response.json().message, message);
}

describe('droplet actions', () => {
  test('power off, resize, power on: each visible through GET, with 422 for impossible transitions', async () => {
    const id = await newMachine();
    const off = await acted(id, { type: 'power_off' });
    assert.equal(off.type, 'power_off');
    assert.equal(off.status, 'completed');
    assert.equal(off.resource_id, id);
    assert.equal(off.resource_type, 'machine');
    assert.equal(off.region_slug, 'nyc3');
    assert.equal((await machine(id)).status, 'off');
    assert422(await act(id, { type: 'power_off' }), 'Machine is already powered off.');
    assert422(await act(id, { type: 'shutdown' }), 'Machine is already powered off.');
    assert422(await act(id, { type: 'reboot' }), 'Machine is powered off; use power_on.');

    assert422(await act(id, { type: 'resize' }), 'You must specify a size for Machine resize.');
    assert422(
      await act(id, { type: 'resize', size: 'huge' }),
      'You specified an invalid size for Machine resize.',
    );
    await acted(id, { type: 'resize', size: 's-2vcpu-4gb' });
    let m = await machine(id);
    assert.deepEqual([m.size_slug, m.memory, m.vcpus, m.disk], ['s-2vcpu-4gb', 4096, 2, 25]);
    // Without disk:true the disk stayed at 25 GB, so going back down is allowed...
    await acted(id, { type: 'resize', size: 's-1vcpu-1gb' });
    await acted(id, { type: 'resize', size: 's-2vcpu-4gb', disk: true });
    m = await machine(id);
    assert.deepEqual([m.size_slug, m.disk], ['s-2vcpu-4gb', 80]);
    // ...but not once the disk has grown.
    assert422(
      await act(id, { type: 'resize', size: 's-1vcpu-1gb' }),
      "The size s-1vcpu-1gb has a smaller disk than the machine's 80 GB.",
    );

    await acted(id, { type: 'power_on' });
    assert.equal((await machine(id)).status, 'active');
    assert422(await act(id, { type: 'power_on' }), 'Machine is already powered on.');
    assert422(
      await act(id, { type: 'resize', size: 's-4vcpu-8gb' }),
      'Machine must be powered off before resizing.',
    );
    assert.match(
      (await act(id, { type: 'teleport' })).json().message,
      /^The action type "teleport" is not valid/,
    );
  });

  test('rename, rebuild, snapshot, kernel, IPv6, private networking, backups, restore, password reset', async () => {
    const id = await newMachine({ region: 'sfo3' }, 'droplets');
    await acted(id, { type: 'rename', name: 'web-renamed' }, 'droplets');
    assert422(
      await act(id, { type: 'rename', name: 'bad name' }, 'droplets'),
      'Name Only valid hostname characters are allowed. (a-z, A-Z, 0-9, . and -), at most 255',
    );
    await acted(id, { type: 'rebuild', image: 'debian-12-x64' }, 'droplets');
    await acted(id, { type: 'change_kernel', kernel: 8127 }, 'droplets');
    assert422(
      await act(id, { type: 'change_kernel', kernel: 1 }, 'droplets'),
      'You specified an invalid kernel.',
    );
    await acted(id, { type: 'enable_ipv6' }, 'droplets');
    assert422(
      await act(id, { type: 'enable_ipv6' }, 'droplets'),
      'IPv6 is already enabled for this droplet.',
    );
    await acted(id, { type: 'enable_private_networking' }, 'droplets');
    await acted(id, { type: 'password_reset' }, 'droplets');
    const snap = await acted(id, { type: 'snapshot', name: 'golden' }, 'droplets');
    assert.equal(snap.type, 'snapshot');
    assert422(
      await act(id, { type: 'disable_backups' }, 'droplets'),
      'Backups are not enabled for this droplet.',
    );
    assert422(
      await act(id, { type: 'change_backup_policy', backup_policy: { plan: 'daily' } }, 'droplets'),
      'Backups are not enabled for this droplet.',
    );
    await acted(
      id,
      { type: 'enable_backups', backup_policy: { plan: 'weekly', weekday: 'TUE', hour: 8 } },
      'droplets',
    );
    assert422(
      await act(id, { type: 'enable_backups' }, 'droplets'),
      'Backups are already enabled for this droplet.',
    );
    await acted(id, { type: 'change_backup_policy', backup_policy: { plan: 'daily', hour: 20 } }, 'droplets');

    const d = await machine(id, 'droplets');
    assert.equal(d.name, 'web-renamed');
    assert.equal(d.image.slug, 'debian-12-x64');
    assert.deepEqual(d.kernel, {
      id: 8127,
      name: 'Debian 12 x64 vmlinuz-6.1.0-21-amd64',
      version: '6.1.0-21-amd64',
    });
    assert.deepEqual(d.features, ['ipv6', 'private_networking', 'backups']);
    assert.equal(d.networks.v6.length, 1);
    assert.equal(d.snapshot_ids.length, 1);
    assert.equal(d.backup_ids.length, 1, 'enabling backups takes the first backup');
    // The window follows the policy: daily at 20:00 UTC.
    assert.match(d.next_backup_window.start, /T20:00:00Z$/);
    const { rows } = await db.query<{ backup_policy: object }>(
      'SELECT backup_policy FROM machines.machines WHERE id = $1',
      [id],
    );
    assert.deepEqual(rows[0]?.backup_policy, {
      plan: 'daily',
      weekday: null,
      hour: 20,
      window_length_hours: 4,
      retention_period_days: 7,
    });

    const snapshots = (await call('GET', `/v2/droplets/${id}/snapshots`)).json();
    assert.equal(snapshots.meta.total, 1);
    assert.equal(snapshots.snapshots[0].name, 'golden');
    assert.equal(snapshots.snapshots[0].type, 'snapshot');
    assert.deepEqual(snapshots.snapshots[0].regions, ['sfo3']);
    assert.equal(snapshots.snapshots[0].min_disk_size, 25);
    const backups = (await call('GET', `/v2/droplets/${id}/backups`)).json();
    assert.equal(backups.backups[0].type, 'backup');

    assert422(
      await act(id, { type: 'restore', image: 'ubuntu-24-04-x64' }, 'droplets'),
      'The image is not a backup or snapshot of this droplet.',
    );
    await acted(id, { type: 'restore', image: backups.backups[0].id }, 'droplets');
    await acted(id, { type: 'disable_backups' }, 'droplets');
    const after = await machine(id, 'droplets');
    assert.deepEqual(after.features, ['ipv6', 'private_networking']);
    assert.equal(after.next_backup_window, null);
    assert.equal(after.backup_ids.length, 1, 'existing backups are kept');

    // A new machine from the snapshot shows it as its image, and is made in the snapshot's region.
    const elsewhere = await call('POST', '/v2/machines', {
      ...validCreate,
      region: 'ams3',
      image: snapshots.snapshots[0].id,
    });
    assert422(elsewhere, `The image ${snapshots.snapshots[0].id} is not available in region ams3.`);
    const copy = await newMachine({ name: 'copy', region: undefined, image: snapshots.snapshots[0].id });
    const copied = await machine(copy);
    assert.equal(copied.image.id, snapshots.snapshots[0].id);
    assert.equal(copied.image.type, 'snapshot');
    assert.equal(copied.image.public, false);
    assert.equal(copied.image.distribution, 'Debian');
    assert.equal(copied.region.slug, 'sfo3');

    const listed = (await call('GET', `/v2/droplets/${id}/actions?per_page=3`)).json();
    assert.equal(listed.meta.total, 12);
    assert.deepEqual(
      listed.actions.map((a: { type: string }) => a.type),
      ['disable_backups', 'restore', 'change_backup_policy'],
    );
    const createAction = (await call('GET', `/v2/droplets/${id}/actions?page=4&per_page=3`))
      .json()
      .actions.at(-1);
    assert.equal(createAction.type, 'create');
    const one = await call('GET', `/v2/droplets/${id}/actions/${createAction.id}`);
    assert.equal(one.json().action.id, createAction.id);
    assert.equal((await call('GET', `/v2/droplets/${copy}/actions/${createAction.id}`)).statusCode, 404);
  });

  test('actions take effect when they complete on the provisioning clock, in every process', async () => {
    const slow = await startMachines({ MACHINES_PROVISION_MS: '3600000' }, { db });
    try {
      const created = await call('POST', '/v2/machines', validCreate, slow.app);
      const id = created.json().machine.id;
      assert422(
        await act(id, { type: 'power_off' }, 'machines', slow.app),
        'Machine already has a pending event.',
      );
      // An hour has passed for the create: the machine is active.
      await db.query(`UPDATE machines.machines SET created_at = created_at - interval '2 hours'`);
      await db.query(`UPDATE machines.actions SET started_at = started_at - interval '2 hours'`);
      const off = await act(id, { type: 'power_off' }, 'machines', slow.app);
      assert.equal(off.statusCode, 201);
      assert.equal(off.json().action.status, 'in-progress');
      assert.equal(off.json().action.completed_at, null);
      const still = (await call('GET', `/v2/machines/${id}`, undefined, slow.app)).json().machine;
      assert.equal(still.status, 'active', 'not off before the action completes');
      assert422(
        await act(id, { type: 'reboot' }, 'machines', slow.app),
        'Machine already has a pending event.',
      );

      await db.query(`UPDATE machines.actions SET started_at = started_at - interval '2 hours'`);
      const done = (await call('GET', `/v2/actions/${off.json().action.id}`, undefined, slow.app)).json()
        .action;
      assert.equal(done.status, 'completed');
      assert.equal(
        (await call('GET', `/v2/machines/${id}`, undefined, slow.app)).json().machine.status,
        'off',
      );
      const { rows } = await db.query<{ applied: boolean }>(
        'SELECT applied FROM machines.actions WHERE id = $1',
        [done.id],
      );
      assert.equal(rows[0]?.applied, true);
    } finally {
      await slow.close();
    }
  });

  test('actions by tag act on every tagged machine that can take them; GET /v2/actions lists all', async () => {
    const a = await newMachine({ name: 'a', tags: ['batch'] });
    const b = await newMachine({ name: 'b', tags: ['batch'] });
    await newMachine({ name: 'c' });
    await acted(b, { type: 'power_off' });
    const bulk = await call('POST', '/v2/machines/actions?tag_name=batch', { type: 'power_off' });
    assert.equal(bulk.statusCode, 201);
    assert.deepEqual(
      bulk.json().actions.map((x: { resource_id: number }) => x.resource_id),
      [a],
      'b was already off',
    );
    assert.equal((await machine(a)).status, 'off');
    const snapshots = await call('POST', '/v2/droplets/actions?tag_name=batch', { type: 'snapshot' });
    assert.equal(snapshots.json().actions.length, 2);
    assert.equal(snapshots.json().actions[0].resource_type, 'droplet');
    assert422(
      await call('POST', '/v2/machines/actions?tag_name=batch', { type: 'rename', name: 'x' }),
      `The action type "rename" can't be used with tag_name.`,
    );
    const missing = await call('POST', '/v2/machines/actions', { type: 'power_on' });
    assert.equal(missing.statusCode, 400);

    const all = (await call('GET', '/v2/actions?per_page=2')).json();
    assert.deepEqual(
      all.actions.map((x: { type: string }) => x.type),
      ['snapshot', 'snapshot'],
    );
    assert.ok(all.meta.total >= 8);
    assert.ok(all.links.pages.next.includes('page=2'));
  });
});
