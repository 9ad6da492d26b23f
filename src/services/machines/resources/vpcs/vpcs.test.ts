import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../../../../test/db.js';
import { migrate } from '../../../../platform/migrations.js';
import { documented } from '../../check.test.js';
import { migrations } from '../../migrations.js';
import { auth, startMachines, tokens, validCreate } from '../../support.test.js';

const unknown = '00000000-0000-4000-8000-000000000000';

test("every VPC operation answers as DigitalOcean's document says; droplets take addresses from their VPC", async () => {
  const db = await createTestDatabase();
  let service = await startMachines({}, { db });
  try {
    // A droplet in a region with no VPC makes the region's default, and takes its first free address.
    const first = await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, validCreate);
    const listed = await documented(service, 'GET /v2/vpcs', '/v2/vpcs', 200);
    assert.equal(listed.vpcs.length, 1);
    const fallback = listed.vpcs[0];
    assert.deepEqual(
      { ...fallback, id: 'x', urn: 'x', created_at: 'x' },
      {
        id: 'x',
        urn: 'x',
        name: 'default-nyc3',
        description: '',
        region: 'nyc3',
        ip_range: '10.101.0.0/16',
        default: true,
        created_at: 'x',
      },
    );
    assert.equal(fallback.urn, `do:vpc:${fallback.id}`);
    const one = 'GET /v2/vpcs/{vpc_id}';
    const read = (await documented(service, one, `/v2/vpcs/${fallback.id}`, 200)).vpc;
    assert.deepEqual(read, fallback);
    await documented(service, one, `/v2/vpcs/${unknown}`, 404);
    await documented(service, one, '/v2/vpcs/nope', 404);
    await documented(service, 'GET /v2/vpcs', '/v2/vpcs', 401, undefined, `dop_v1_${'e'.repeat(64)}`);
    const shown = (
      await documented(service, 'GET /v2/droplets/{droplet_id}', `/v2/droplets/${first.droplet.id}`, 200)
    ).droplet;
    assert.equal(shown.vpc_uuid, fallback.id);
    assert.deepEqual(shown.networks.v4[0], {
      ip_address: '10.101.0.2',
      netmask: '255.255.0.0',
      gateway: '10.101.0.1',
      type: 'private',
    });

    // A VPC of one's own, in a region with a default already: not the default.
    const create = 'POST /v2/vpcs';
    const made = (
      await documented(service, create, '/v2/vpcs', 201, {
        name: 'env.prod-vpc',
        region: 'nyc3',
        description: 'production',
        ip_range: '10.10.10.0/24',
      })
    ).vpc;
    assert.deepEqual(
      [made.name, made.description, made.ip_range, made.default],
      ['env.prod-vpc', 'production', '10.10.10.0/24', false],
    );
    const bad = async (body: object, status = 422) =>
      (await documented(service, create, '/v2/vpcs', status, body)).message;
    assert.equal(
      await bad({ name: 'x', region: 'nyc3', ip_range: '10.10.10.128/25' }),
      'ip_range 10.10.10.128/25 overlaps another VPC network of the account.',
    );
    assert.equal(
      await bad({ name: 'x', region: 'nyc3', ip_range: '8.8.8.0/24' }),
      'ip_range must be in a private (RFC 1918) network.',
    );
    assert.equal(
      await bad({ name: 'x', region: 'nyc3', ip_range: '10.0.0.0/8' }),
      'ip_range may not be smaller than /28 nor larger than /16.',
    );
    assert.equal(
      await bad({ name: 'x', region: 'nyc3', ip_range: '10.0.0.1/24' }),
      'ip_range "10.0.0.1/24" is not a valid CIDR network.',
    );
    assert.equal(
      await bad({ name: 'x y', region: 'nyc3' }),
      'name may only contain letters, digits, dashes and periods.',
    );
    assert.equal(await bad({ name: 'x', region: 'mars1' }), 'region "mars1" is not a valid region.');
    assert.equal(
      await bad({ name: 'ENV.prod-vpc', region: 'nyc3' }, 409),
      'A VPC named "ENV.prod-vpc" already exists.',
    );
    assert.equal(await bad({ name: 'x' }), "region must have required property 'region'");
    await documented(service, create, '/v2/vpcs', 403, { name: 'x', region: 'nyc3' }, tokens.read);
    // Without ip_range: a free /20; the first VPC of a region is its default.
    const auto = (await documented(service, create, '/v2/vpcs', 201, { name: 'lon', region: 'lon1' })).vpc;
    assert.deepEqual([auto.ip_range, auto.default], ['10.10.16.0/20', true]);

    // Droplets created into a VPC take its addresses, one each; a VPC of another region is refused.
    const inVpc = await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, {
      ...validCreate,
      names: ['a-1', 'a-2'],
      name: undefined,
      vpc_uuid: made.id,
    });
    const ids = inVpc.droplets.map((d: { id: number }) => d.id);
    const addresses = [];
    for (const id of ids) {
      const d = (await documented(service, 'GET /v2/droplets/{droplet_id}', `/v2/droplets/${id}`, 200))
        .droplet;
      assert.equal(d.vpc_uuid, made.id);
      addresses.push(d.networks.v4[0]);
    }
    assert.deepEqual(addresses, [
      { ip_address: '10.10.10.2', netmask: '255.255.255.0', gateway: '10.10.10.1', type: 'private' },
      { ip_address: '10.10.10.3', netmask: '255.255.255.0', gateway: '10.10.10.1', type: 'private' },
    ]);
    assert.equal(
      (
        await documented(service, 'POST /v2/droplets', '/v2/droplets', 422, {
          ...validCreate,
          vpc_uuid: auto.id,
        })
      ).message,
      'vpc_uuid: the VPC lon is in lon1, not nyc3.',
    );
    assert.equal(
      (
        await documented(service, 'POST /v2/droplets', '/v2/droplets', 422, {
          ...validCreate,
          vpc_uuid: unknown,
        })
      ).message,
      `vpc_uuid: the VPC ${unknown} does not exist.`,
    );

    // Members: the droplets, as URNs; another resource type lists none.
    const members = 'GET /v2/vpcs/{vpc_id}/members';
    const m = await documented(service, members, `/v2/vpcs/${made.id}/members?per_page=1`, 200);
    assert.deepEqual(
      m.members.map((x: { name: string; urn: string }) => [x.name, x.urn]),
      [['a-1', `do:droplet:${ids[0]}`]],
    );
    assert.equal(m.meta.total, 2);
    assert.ok(m.links.pages.next);
    assert.deepEqual(
      (await documented(service, members, `/v2/vpcs/${made.id}/members?resource_type=droplet`, 200)).meta,
      {
        total: 2,
      },
    );
    assert.deepEqual(
      (await documented(service, members, `/v2/vpcs/${made.id}/members?resource_type=load_balancer`, 200))
        .members,
      [],
    );
    await documented(service, members, `/v2/vpcs/${unknown}/members`, 404);

    // Updates: PUT replaces name and description, PATCH changes what it names; `default` moves, never unsets.
    const put = 'PUT /v2/vpcs/{vpc_id}';
    const patch = 'PATCH /v2/vpcs/{vpc_id}';
    const replaced = (await documented(service, put, `/v2/vpcs/${made.id}`, 200, { name: 'prod' })).vpc;
    assert.deepEqual([replaced.name, replaced.description], ['prod', '']);
    await documented(service, put, `/v2/vpcs/${made.id}`, 422, { description: 'no name' });
    await documented(service, put, `/v2/vpcs/${unknown}`, 404, { name: 'x' });
    assert.equal(
      (await documented(service, patch, `/v2/vpcs/${made.id}`, 409, { name: 'default-nyc3' })).message,
      'A VPC named "default-nyc3" already exists.',
    );
    const patched = (
      await documented(service, patch, `/v2/vpcs/${made.id}`, 200, { description: 'p', default: true })
    ).vpc;
    assert.deepEqual([patched.name, patched.description, patched.default], ['prod', 'p', true]);
    assert.equal((await documented(service, one, `/v2/vpcs/${fallback.id}`, 200)).vpc.default, false);
    assert.equal(
      (await documented(service, patch, `/v2/vpcs/${made.id}`, 422, { default: false })).message,
      'The default VPC cannot be unset; make another VPC of the region the default.',
    );
    // The new default takes droplets created without vpc_uuid.
    const next = await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, {
      ...validCreate,
      name: 'b-1',
    });
    assert.equal(
      (await documented(service, 'GET /v2/droplets/{droplet_id}', `/v2/droplets/${next.droplet.id}`, 200))
        .droplet.vpc_uuid,
      made.id,
    );

    // Peerings: PROVISIONING then ACTIVE on the provisioning clock (0 here), renamed by PATCH.
    const peer = 'POST /v2/vpcs/{vpc_id}/peerings';
    const peering = (
      await documented(service, peer, `/v2/vpcs/${made.id}/peerings`, 202, {
        name: 'nyc-lon',
        vpc_id: auto.id,
      })
    ).peering;
    assert.deepEqual(
      [peering.name, peering.vpc_ids, peering.status],
      ['nyc-lon', [made.id, auto.id], 'ACTIVE'],
    );
    assert.equal(
      (
        await documented(service, peer, `/v2/vpcs/${auto.id}/peerings`, 409, {
          name: 'again',
          vpc_id: made.id,
        })
      ).message,
      'These VPCs are already peered.',
    );
    await documented(service, peer, `/v2/vpcs/${made.id}/peerings`, 422, { name: 'self', vpc_id: made.id });
    await documented(service, peer, `/v2/vpcs/${made.id}/peerings`, 422, { name: 'a.b', vpc_id: auto.id });
    await documented(service, peer, `/v2/vpcs/${made.id}/peerings`, 404, { name: 'x', vpc_id: unknown });
    const peerings = 'GET /v2/vpcs/{vpc_id}/peerings';
    assert.deepEqual((await documented(service, peerings, `/v2/vpcs/${auto.id}/peerings`, 200)).peerings, [
      peering,
    ]);
    await documented(service, peerings, `/v2/vpcs/${unknown}/peerings`, 404);
    const rename = 'PATCH /v2/vpcs/{vpc_id}/peerings/{vpc_peering_id}';
    const renamed = (
      await documented(service, rename, `/v2/vpcs/${made.id}/peerings/${peering.id}`, 200, {
        name: 'prod-lon',
      })
    ).peering;
    assert.equal(renamed.name, 'prod-lon');
    await documented(service, rename, `/v2/vpcs/${fallback.id}/peerings/${peering.id}`, 404, { name: 'x' });

    // A restart keeps VPCs, peerings and addresses.
    const reads = [
      '/v2/vpcs',
      `/v2/vpcs/${made.id}/members`,
      `/v2/vpcs/${made.id}/peerings`,
      `/v2/droplets/${ids[1]}`,
    ];
    const before = [];
    for (const url of reads)
      before.push(
        (await service.app.inject({ url, headers: { authorization: `Bearer ${tokens.full}` } })).json(),
      );
    await service.close();
    service = await startMachines({}, { db });
    for (const [i, url] of reads.entries())
      assert.deepEqual(
        (await service.app.inject({ url, headers: { authorization: `Bearer ${tokens.full}` } })).json(),
        before[i],
      );

    // Deleting: not a default, not one with members; an address freed is given out again.
    const del = 'DELETE /v2/vpcs/{vpc_id}';
    assert.equal(
      (await documented(service, del, `/v2/vpcs/${made.id}`, 403)).message,
      'Cannot delete the default VPC of a region.',
    );
    await documented(service, patch, `/v2/vpcs/${fallback.id}`, 200, { default: true });
    assert.equal(
      (await documented(service, del, `/v2/vpcs/${made.id}`, 403)).message,
      'Cannot delete a VPC that still has members.',
    );
    await documented(service, 'DELETE /v2/droplets/{droplet_id}', `/v2/droplets/${ids[0]}`, 204);
    const again = await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, {
      ...validCreate,
      name: 'c-1',
      vpc_uuid: made.id,
    });
    const reused = await documented(
      service,
      'GET /v2/droplets/{droplet_id}',
      `/v2/droplets/${again.droplet.id}`,
      200,
    );
    assert.equal(reused.droplet.networks.v4[0].ip_address, '10.10.10.2');
    for (const id of [ids[1], next.droplet.id, again.droplet.id])
      await documented(service, 'DELETE /v2/droplets/{droplet_id}', `/v2/droplets/${id}`, 204);
    await documented(service, del, `/v2/vpcs/${made.id}`, 204);
    await documented(service, del, `/v2/vpcs/${made.id}`, 404);
    // Its peerings went with it.
    assert.deepEqual((await documented(service, peerings, `/v2/vpcs/${auto.id}/peerings`, 200)).peerings, []);
    assert.deepEqual((await db.query('SELECT name FROM machines.vpcs ORDER BY name')).rows, [
      { name: 'default-nyc3' },
      { name: 'lon' },
    ]);
  } finally {
    await service.close();
    await db.close();
  }
});

test('machines made before VPCs were stored join their region’s default VPC and keep their address', async () => {
  const db = await createTestDatabase();
  try {
    await migrate(
      db,
      'machines',
      migrations.slice(
        0,
        migrations.findIndex((m) => m.name === '501_vpcs'),
      ),
    );
    // One machine in the region's default VPC, one naming a VPC that was never stored (any UUID was taken).
    await db.query(
      `INSERT INTO machines.machines (id, name, region, size, image_id, vpc_uuid, created_at)
       VALUES (420000001, 'old-1', 'nyc3', 's-1vcpu-1gb', 160000001, 'a', now()), (420000002, 'old-2', 'nyc3', 's-1vcpu-1gb', 160000001, $1, now())`,
      [unknown],
    );
    const service = await startMachines({}, { db });
    try {
      const vpcs = (await service.app.inject({ url: '/v2/vpcs', headers: auth() })).json().vpcs;
      assert.deepEqual(
        vpcs.map((v: { name: string; ip_range: string; default: boolean }) => [
          v.name,
          v.ip_range,
          v.default,
        ]),
        [['default-nyc3', '10.101.0.0/16', true]],
      );
      const droplet = (await service.app.inject({ url: '/v2/droplets/420000002', headers: auth() })).json()
        .droplet;
      assert.equal(droplet.vpc_uuid, vpcs[0].id);
      // The address the machine always showed: 10.<100+region>.<n / 250 % 250>.<n % 250 + 2>, n = id % 65024.
      assert.equal(droplet.networks.v4[0].ip_address, '10.101.39.238');
      const made = await service.app.inject({
        method: 'POST',
        url: '/v2/droplets',
        headers: auth(),
        payload: validCreate,
      });
      const shown = await service.app.inject({
        url: `/v2/droplets/${made.json().droplet.id}`,
        headers: auth(),
      });
      assert.equal(shown.json().droplet.networks.v4[0].ip_address, '10.101.0.2');
    } finally {
      await service.close();
    }
  } finally {
    await db.close();
  }
});
