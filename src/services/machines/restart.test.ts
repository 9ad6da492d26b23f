import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createTestDatabase, usingPostgres } from '../../../test/db.js';
import { type Database, openEmbedded, openPostgres } from '../../platform/database.js';
import { auth, startMachines, validCreate } from './support.test.js';

/** A database that can be closed and opened again: a PGlite directory, or a database on the test server. */
async function reopenableDatabase(): Promise<{ open(): Promise<Database>; cleanup(): void }> {
  if (usingPostgres) {
    const first = await createTestDatabase();
    const url = first.url as string;
    await first.close();
    const sslCaFile = process.env.BACKLOT_TEST_DATABASE_CA;
    return {
      open: () => openPostgres({ url, source: 'BACKLOT_TEST_DATABASE_URL', sslCaFile }),
      cleanup() {},
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'backlot-machines-restart-'));
  return { open: () => openEmbedded(dir), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const ed25519 =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGIQitVLRodLs3IJ4TLFyHCjNELitRbpbMjiN3ijIJYF dev@backlot';
// Everything a client can read back; compared before and after the restart.
const reads = (id: number, volume: string) => [
  `/v2/droplets/${id}`,
  `/v2/droplets/${id}/actions`,
  `/v2/droplets/${id}/snapshots`,
  `/v2/droplets/${id}/backups`,
  '/v2/account/keys',
  '/v2/tags',
  `/v2/volumes/${volume}`,
  '/v2/images?private=true',
  '/v2/actions',
];

test('machines, actions and their effects, keys, tags, images and volumes survive a restart', async () => {
  const database = await reopenableDatabase();
  const env = { MACHINES_PROVISION_MS: '3600000' };
  let db = await database.open();
  let service = await startMachines(env, { db });
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    service.app.inject({
      method,
      url,
      headers: { ...auth(), host: 'api.test' },
      ...(payload ? { payload } : {}),
    });
  // Actions complete an hour after they start: moving the clock is moving the stored times back.
  const hourPasses = async () => {
    await db.query(`UPDATE machines.machines SET created_at = created_at - interval '61 minutes'`);
    await db.query(`UPDATE machines.actions SET started_at = started_at - interval '61 minutes'`);
  };
  try {
    const key = (await call('POST', '/v2/account/keys', { name: 'k', public_key: ed25519 })).json().ssh_key;
    const volume = (
      await call('POST', '/v2/volumes', { name: 'vol', size_gigabytes: 5, region: 'nyc3' })
    ).json().volume;
    const created = await call('POST', '/v2/droplets', {
      ...validCreate,
      ssh_keys: [key.id],
      volumes: [volume.id],
      tags: ['keep'],
      ipv6: true,
    });
    const id = created.json().droplet.id;
    await hourPasses();
    for (const body of [
      { type: 'power_off' },
      { type: 'resize', size: 's-2vcpu-4gb', disk: true },
      { type: 'rename', name: 'renamed' },
      { type: 'snapshot', name: 'snap' },
      { type: 'enable_backups' },
    ]) {
      assert.equal((await call('POST', `/v2/droplets/${id}/actions`, body)).statusCode, 201);
      await hourPasses();
    }
    // One more action, still in progress when the service stops.
    assert.equal((await call('POST', `/v2/droplets/${id}/actions`, { type: 'power_on' })).statusCode, 201);
    const before = [];
    for (const url of reads(id, volume.id)) before.push((await call('GET', url)).json());
    assert.equal(before[0].droplet.status, 'off');
    assert.equal(before[0].droplet.name, 'renamed');

    await service.close();
    await db.close();
    db = await database.open();
    service = await startMachines(env, { db });

    const after = [];
    for (const url of reads(id, volume.id)) after.push((await call('GET', url)).json());
    assert.deepEqual(after, before);
    assert.deepEqual(
      [after[0].droplet.size_slug, after[0].droplet.disk, after[0].droplet.tags, after[0].droplet.volume_ids],
      ['s-2vcpu-4gb', 80, ['keep'], [volume.id]],
    );
    assert.equal(after[0].droplet.snapshot_ids.length, 1);
    assert.equal(after[0].droplet.backup_ids.length, 1);
    // The action begun before the restart completes after it.
    await hourPasses();
    assert.equal((await call('GET', `/v2/droplets/${id}`)).json().droplet.status, 'active');
  } finally {
    await service.close();
    await db.close();
    database.cleanup();
  }
});

test('domains, certificates, load balancers, CDN endpoints, alert policies and Spaces keys survive a restart', async () => {
  const database = await reopenableDatabase();
  const env = { MACHINES_PROVISION_MS: '3600000' };
  let db = await database.open();
  let service = await startMachines(env, { db });
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await service.app.inject({
      method,
      url,
      headers: { ...auth(), host: 'api.test' },
      ...(payload ? { payload } : {}),
    });
    assert.ok(response.statusCode < 300, `${method} ${url}: ${response.body}`);
    return response.json();
  };
  try {
    const { droplet } = await call('POST', '/v2/droplets', { ...validCreate, tags: ['web'] });
    await call('POST', '/v2/domains', { name: 'example.com', ip_address: '198.51.100.9' });
    await call('POST', '/v2/domains/example.com/records', {
      type: 'MX',
      data: 'mail.example.com.',
      priority: 10,
    });
    const { certificate } = await call('POST', '/v2/certificates', {
      name: 'le',
      dns_names: ['example.com'],
    });
    const { load_balancer } = await call('POST', '/v2/load_balancers', {
      name: 'lb',
      region: 'nyc3',
      tag: 'web',
      forwarding_rules: [
        { entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 80 },
      ],
    });
    const { endpoint } = await call('POST', '/v2/cdn/endpoints', {
      origin: 'static.nyc3.digitaloceanspaces.com',
    });
    const { policy } = await call('POST', '/v2/monitoring/alerts', {
      type: 'v1/insights/droplet/load_5',
      description: 'busy',
      compare: 'GreaterThan',
      value: 2,
      window: '10m',
      entities: [String(droplet.id)],
      tags: [],
      alerts: { email: ['ops@example.com'], slack: [] },
      enabled: true,
    });
    const { key } = await call('POST', '/v2/spaces/keys', {
      name: 'ci',
      grants: [{ bucket: 'b-1', permission: 'read' }],
    });
    const reads = [
      '/v2/domains',
      '/v2/domains/example.com/records',
      `/v2/certificates/${certificate.id}`,
      `/v2/load_balancers/${load_balancer.id}`,
      `/v2/cdn/endpoints/${endpoint.id}`,
      `/v2/monitoring/alerts/${policy.uuid}`,
      `/v2/spaces/keys/${key.access_key}`,
    ];
    const before = [];
    for (const url of reads) before.push(await call('GET', url));
    assert.deepEqual([before[2].certificate.state, before[3].load_balancer.status], ['pending', 'new']);
    assert.deepEqual(before[3].load_balancer.droplet_ids, [droplet.id]);

    await service.close();
    await db.close();
    db = await database.open();
    service = await startMachines(env, { db });
    const after = [];
    for (const url of reads) after.push(await call('GET', url));
    assert.deepEqual(after, before);
    // Provisioning begun before the restart completes after it.
    await db.query(`UPDATE machines.load_balancers SET created_at = created_at - interval '61 minutes'`);
    await db.query(`UPDATE machines.certificates SET created_at = created_at - interval '61 minutes'`);
    const lb = (await call('GET', reads[3] as string)).load_balancer;
    assert.deepEqual([lb.status, lb.ip], ['active', '198.51.100.1']);
    assert.equal((await call('GET', reads[2] as string)).certificate.state, 'verified');
  } finally {
    await service.close();
    await db.close();
    database.cleanup();
  }
});
