import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../../../../test/db.js';
import { documented } from '../../check.test.js';
import { auth, startMachines, tokens, validCreate } from '../../support.test.js';

const publicAddresses = (droplet: { networks: { v4: { ip_address: string; type: string }[] } }) =>
  droplet.networks.v4.filter((n) => n.type === 'public').map((n) => n.ip_address);

test("every reserved IP operation answers as DigitalOcean's document says; droplets show and lose them", async () => {
  const db = await createTestDatabase();
  let service = await startMachines({}, { db });
  try {
    const getDroplet = async (id: number) =>
      (await documented(service, 'GET /v2/droplets/{droplet_id}', `/v2/droplets/${id}`, 200)).droplet;
    const web = (await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, validCreate)).droplet;
    const other = (
      await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, {
        ...validCreate,
        name: 'lon',
        region: 'lon1',
      })
    ).droplet;
    const project = (
      await documented(service, 'POST /v2/projects', '/v2/projects', 201, { name: 'p', purpose: 'IoT' })
    ).project;

    // Created assigned to a droplet: the droplet's region, an assign action, and a second public address.
    const create = 'POST /v2/reserved_ips';
    const assigned = await documented(service, create, '/v2/reserved_ips', 202, { droplet_id: web.id });
    assert.equal(assigned.reserved_ip.ip, '203.0.113.2');
    assert.equal(assigned.reserved_ip.region.slug, 'nyc3');
    assert.equal(assigned.reserved_ip.droplet.id, web.id);
    assert.equal(assigned.links.droplets[0].id, web.id);
    assert.equal(assigned.links.actions[0].rel, 'assign_ip');
    const before = publicAddresses(await getDroplet(web.id));
    assert.equal(before[1], '203.0.113.2');
    // Reserved to a region, into a project.
    const reserved = (
      await documented(service, create, '/v2/reserved_ips', 202, { region: 'nyc3', project_id: project.id })
    ).reserved_ip;
    assert.deepEqual(
      [reserved.ip, reserved.droplet, reserved.locked, reserved.project_id],
      ['203.0.113.3', null, false, project.id],
    );
    const bad = async (body: object) =>
      (await documented(service, create, '/v2/reserved_ips', 422, body)).message;
    assert.equal(await bad({}), 'Give either droplet_id or region.');
    assert.equal(await bad({ region: 'mars1' }), 'region "mars1" is not a valid region.');
    assert.equal(await bad({ droplet_id: 1 }), 'Droplet 1 could not be found.');
    assert.equal(await bad({ droplet_id: web.id }), `Droplet ${web.id} already has a reserved IP.`);
    await documented(service, create, '/v2/reserved_ips', 202, { region: 'lon1' });
    assert.equal(await bad({ region: 'nyc3' }), 'The account has reached its limit of 3 reserved IPs.');
    await documented(service, create, '/v2/reserved_ips', 403, { region: 'nyc3' }, tokens.read);

    const list = await documented(service, 'GET /v2/reserved_ips', '/v2/reserved_ips', 200);
    assert.deepEqual(
      list.reserved_ips.map((r: { ip: string }) => r.ip),
      ['203.0.113.2', '203.0.113.3', '203.0.113.4'],
    );
    await documented(service, 'GET /v2/reserved_ips', '/v2/reserved_ips?page=0', 400);
    const one = 'GET /v2/reserved_ips/{reserved_ip}';
    assert.equal(
      (await documented(service, one, '/v2/reserved_ips/203.0.113.3', 200)).reserved_ip.ip,
      '203.0.113.3',
    );
    await documented(service, one, '/v2/reserved_ips/203.0.113.99', 404);
    // Default project for the others.
    const held = await documented(
      service,
      'GET /v2/projects/default/resources',
      '/v2/projects/default/resources',
      200,
    );
    assert.ok(held.resources.some((r: { urn: string }) => r.urn === 'do:floatingip:203.0.113.2'));

    // Actions: assign in the IP's region only; unassign; a droplet holds one.
    const act = 'POST /v2/reserved_ips/{reserved_ip}/actions';
    const actBad = async (ip: string, body: object, status = 422) =>
      (await documented(service, act, `/v2/reserved_ips/${ip}/actions`, status, body)).message;
    assert.equal(
      await actBad('203.0.113.3', { type: 'assign', droplet_id: other.id }),
      'The reserved IP is in nyc3 and the droplet in lon1.',
    );
    assert.equal(
      await actBad('203.0.113.3', { type: 'assign', droplet_id: web.id }),
      `Droplet ${web.id} already has a reserved IP.`,
    );
    assert.equal(
      await actBad('203.0.113.3', { type: 'unassign' }),
      'The reserved IP is not assigned to a droplet.',
    );
    assert.equal(await actBad('203.0.113.3', { type: 'grow' }), 'type must be assign or unassign.');
    await actBad('203.0.113.99', { type: 'unassign' }, 404);
    const unassigned = (
      await documented(service, act, '/v2/reserved_ips/203.0.113.2/actions', 201, { type: 'unassign' })
    ).action;
    assert.deepEqual(
      [unassigned.type, unassigned.resource_type, unassigned.region_slug],
      ['unassign_ip', 'reserved_ip', 'nyc3'],
    );
    assert.deepEqual(publicAddresses(await getDroplet(web.id)), [before[0]]);
    const assignAction = (
      await documented(service, act, '/v2/reserved_ips/203.0.113.3/actions', 201, {
        type: 'assign',
        droplet_id: web.id,
      })
    ).action;
    assert.equal(assignAction.type, 'assign_ip');
    assert.deepEqual(publicAddresses(await getDroplet(web.id)), [before[0], '203.0.113.3']);
    const actions = 'GET /v2/reserved_ips/{reserved_ip}/actions';
    assert.deepEqual(
      (await documented(service, actions, '/v2/reserved_ips/203.0.113.2/actions', 200)).actions.map(
        (a: { type: string }) => a.type,
      ),
      ['unassign_ip', 'assign_ip'],
    );
    await documented(service, actions, '/v2/reserved_ips/203.0.113.99/actions', 404);
    const action = 'GET /v2/reserved_ips/{reserved_ip}/actions/{action_id}';
    assert.equal(
      (await documented(service, action, `/v2/reserved_ips/203.0.113.3/actions/${assignAction.id}`, 200))
        .action.id,
      assignAction.id,
    );
    await documented(service, action, `/v2/reserved_ips/203.0.113.2/actions/${assignAction.id}`, 404);

    // A restart keeps them.
    const reads = ['/v2/reserved_ips', `/v2/droplets/${web.id}`, '/v2/reserved_ips/203.0.113.3/actions'];
    const read = async (url: string) => (await service.app.inject({ url, headers: auth() })).json();
    const kept = await Promise.all(reads.map(read));
    await service.close();
    service = await startMachines({}, { db });
    assert.deepEqual(await Promise.all(reads.map(read)), kept);

    // Deleting the droplet unassigns its IP, which stays reserved; releasing one removes it from its project.
    await documented(service, 'DELETE /v2/droplets/{droplet_id}', `/v2/droplets/${web.id}`, 204);
    assert.equal(
      (await documented(service, one, '/v2/reserved_ips/203.0.113.3', 200)).reserved_ip.droplet,
      null,
    );
    const del = 'DELETE /v2/reserved_ips/{reserved_ip}';
    await documented(service, del, '/v2/reserved_ips/203.0.113.3', 204);
    await documented(service, del, '/v2/reserved_ips/203.0.113.3', 404);
    assert.deepEqual(
      (
        await db.query(
          `SELECT urn FROM machines.project_resources WHERE urn LIKE 'do:floatingip:%' ORDER BY urn`,
        )
      ).rows,
      [{ urn: 'do:floatingip:203.0.113.2' }, { urn: 'do:floatingip:203.0.113.4' }],
    );
    assert.equal(
      (await documented(service, 'GET /v2/account', '/v2/account', 200)).account.floating_ip_limit,
      3,
    );
  } finally {
    await service.close();
    await db.close();
  }
});
