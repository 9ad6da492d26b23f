import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApiClient } from 'dots-wrapper';
import { createTestDatabase } from '../../../../../test/db.js';
import { migrate } from '../../../../platform/migrations.js';
import { documented } from '../../check.test.js';
import { migrations } from '../../migrations.js';
import { auth, startMachines, tokens, validCreate } from '../../support.test.js';

const unknown = '00000000-0000-4000-8000-000000000000';
const ssh = { protocol: 'tcp', ports: '22', sources: { addresses: ['18.0.0.0/8', '2001:db8::/32'] } };
const web = { protocol: 'tcp', ports: '80', destinations: { addresses: ['0.0.0.0/0', '::/0'] } };
const ping = { protocol: 'icmp', sources: { tags: ['web'] } };

test("every firewall operation answers as DigitalOcean's document says, and keeps what it was told", async () => {
  const service = await startMachines();
  try {
    const tagged = await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, {
      ...validCreate,
      tags: ['web'],
    });
    const plain = await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, {
      ...validCreate,
      name: 'db-1',
    });
    const [a, b] = [tagged.droplet.id as number, plain.droplet.id as number];

    const created = await documented(service, 'POST /v2/firewalls', '/v2/firewalls', 202, {
      name: 'fw-1',
      inbound_rules: [ssh],
      outbound_rules: [web],
      droplet_ids: [b],
      tags: ['web'],
    });
    const id = created.firewall.id as string;
    assert.deepEqual(
      { ...created.firewall, id: 'x', created_at: 'x' },
      {
        id: 'x',
        name: 'fw-1',
        status: 'succeeded',
        created_at: 'x',
        pending_changes: [],
        droplet_ids: [a, b],
        tags: ['web'],
        inbound_rules: [ssh],
        outbound_rules: [web],
      },
    );
    const bad = (body: unknown) => documented(service, 'POST /v2/firewalls', '/v2/firewalls', 400, body);
    assert.equal(
      (await bad({ name: 'fw-2', inbound_rules: [{ ...ssh, protocol: 'ftp' }] })).message,
      'protocol must be one of tcp, udp or icmp.',
    );
    assert.equal(
      (await bad({ name: 'fw-2', inbound_rules: [{ ...ssh, ports: '70000' }] })).message,
      'You must specify a positive value for ports.',
    );
    assert.equal(
      (await bad({ name: 'fw-2', inbound_rules: [{ ...ssh, sources: { addresses: ['1.2.3.4/33'] } }] }))
        .message,
      '"1.2.3.4/33" is not a valid IP address or CIDR.',
    );
    assert.equal(
      (await bad({ name: 'fw-2', inbound_rules: [{ ...ssh, sources: {} }] })).message,
      'sources must name at least one address, droplet, tag or load balancer.',
    );
    assert.equal((await bad({ name: 'fw-2' })).message, 'At least one inbound or outbound rule is required.');
    assert.match((await bad({ name: '-fw', inbound_rules: [ssh] })).message, /^name must begin/);
    assert.equal(
      (await bad({ name: 'fw-2', inbound_rules: [ssh], droplet_ids: [1] })).message,
      'Droplet 1 could not be found.',
    );
    assert.equal(
      (await bad({ name: 'fw-2', inbound_rules: [ssh], tags: ['nope'] })).message,
      'Tag "nope" does not exist.',
    );
    const duplicate = await service.app.inject({
      method: 'POST',
      url: '/v2/firewalls',
      headers: auth(),
      payload: { name: 'fw-1', inbound_rules: [ssh] },
    });
    assert.equal(duplicate.statusCode, 409);
    assert.equal(duplicate.json().message, 'duplicate name');

    const listed = await documented(service, 'GET /v2/firewalls', '/v2/firewalls', 200);
    assert.deepEqual(
      listed.firewalls.map((f: { id: string }) => f.id),
      [id],
    );
    assert.deepEqual(listed.meta, { total: 1 });
    await documented(
      service,
      'GET /v2/firewalls',
      '/v2/firewalls',
      401,
      undefined,
      `dop_v1_${'e'.repeat(64)}`,
    );
    assert.equal(
      (await documented(service, 'GET /v2/firewalls', '/v2/firewalls', 403, undefined, tokens.create)).id,
      'forbidden',
    );
    await documented(service, 'GET /v2/firewalls/{firewall_id}', `/v2/firewalls/${id}`, 200);
    await documented(service, 'GET /v2/firewalls/{firewall_id}', `/v2/firewalls/${unknown}`, 404);

    const put = 'PUT /v2/firewalls/{firewall_id}';
    const replaced = await documented(service, put, `/v2/firewalls/${id}`, 200, {
      name: 'fw-main',
      inbound_rules: [ssh, ping],
      droplet_ids: [a],
    });
    assert.deepEqual(
      [replaced.firewall.name, replaced.firewall.droplet_ids, replaced.firewall.tags],
      ['fw-main', [a], []],
    );
    assert.deepEqual(replaced.firewall.inbound_rules[1], {
      protocol: 'icmp',
      ports: '0',
      sources: { tags: ['web'] },
    });
    assert.deepEqual(replaced.firewall.outbound_rules, []);
    await documented(service, put, `/v2/firewalls/${id}`, 400, { name: 'fw-main' });
    await documented(service, put, `/v2/firewalls/${unknown}`, 404, {
      name: 'fw-main',
      inbound_rules: [ssh],
    });

    const droplets = '/v2/firewalls/{firewall_id}/droplets';
    await documented(service, `POST ${droplets}`, `/v2/firewalls/${id}/droplets`, 204, { droplet_ids: [b] });
    await documented(service, `POST ${droplets}`, `/v2/firewalls/${id}/droplets`, 400, { droplet_ids: [7] });
    await documented(service, `DELETE ${droplets}`, `/v2/firewalls/${id}/droplets`, 204, {
      droplet_ids: [a],
    });
    await documented(service, `DELETE ${droplets}`, `/v2/firewalls/${unknown}/droplets`, 404, {
      droplet_ids: [a],
    });
    const tags = '/v2/firewalls/{firewall_id}/tags';
    await documented(service, `POST ${tags}`, `/v2/firewalls/${id}/tags`, 204, { tags: ['web'] });
    await documented(service, `POST ${tags}`, `/v2/firewalls/${id}/tags`, 400, { tags: ['nope'] });
    const rules = '/v2/firewalls/{firewall_id}/rules';
    await documented(service, `POST ${rules}`, `/v2/firewalls/${id}/rules`, 204, { outbound_rules: [web] });
    await documented(service, `POST ${rules}`, `/v2/firewalls/${id}/rules`, 400, {
      outbound_rules: [{ protocol: 'tcp' }],
    });
    // Removing takes the same rule with its lists in any order.
    await documented(service, `DELETE ${rules}`, `/v2/firewalls/${id}/rules`, 204, {
      inbound_rules: [{ ...ssh, sources: { addresses: ['2001:db8::/32', '18.0.0.0/8'] } }],
    });
    await documented(service, `DELETE ${rules}`, `/v2/firewalls/${unknown}/rules`, 404, {
      inbound_rules: [ssh],
    });
    const now = await documented(service, 'GET /v2/firewalls/{firewall_id}', `/v2/firewalls/${id}`, 200);
    assert.deepEqual(now.firewall.inbound_rules, [
      { protocol: 'icmp', ports: '0', sources: { tags: ['web'] } },
    ]);
    assert.deepEqual(now.firewall.outbound_rules, [web]);
    assert.deepEqual([now.firewall.tags, now.firewall.droplet_ids], [['web'], [a, b]]);
    await documented(service, `DELETE ${tags}`, `/v2/firewalls/${id}/tags`, 204, { tags: ['web'] });
    await documented(service, `DELETE ${tags}`, `/v2/firewalls/${unknown}/tags`, 404, { tags: ['web'] });

    const forDroplet = 'GET /v2/droplets/{droplet_id}/firewalls';
    const ofB = await documented(service, forDroplet, `/v2/droplets/${b}/firewalls`, 200);
    assert.deepEqual(
      ofB.firewalls.map((f: { id: string }) => f.id),
      [id],
    );
    assert.deepEqual(
      (await documented(service, forDroplet, `/v2/droplets/${a}/firewalls`, 200)).firewalls,
      [],
    );
    await documented(service, forDroplet, '/v2/droplets/1/firewalls', 404);

    const stored = await service.db.query('SELECT name, tags FROM machines.firewalls');
    assert.deepEqual(stored.rows, [{ name: 'fw-main', tags: [] }]);
    await documented(service, 'DELETE /v2/firewalls/{firewall_id}', `/v2/firewalls/${id}`, 204);
    await documented(service, 'DELETE /v2/firewalls/{firewall_id}', `/v2/firewalls/${id}`, 404);
    assert.deepEqual((await service.db.query('SELECT * FROM machines.firewall_droplets')).rows, []);
  } finally {
    await service.close();
  }
});

test('a firewall applied by tag follows the droplets that get the tag; a deleted droplet leaves its firewalls', async () => {
  const service = await startMachines();
  try {
    const call = async (method: string, url: string, payload?: unknown) => {
      const r = await service.app.inject({
        method: method as 'GET',
        url,
        headers: auth(),
        ...(payload ? { payload } : {}),
      });
      return r.body ? r.json() : r.statusCode;
    };
    await call('POST', '/v2/tags', { name: 'edge' });
    const { firewall } = await call('POST', '/v2/firewalls', {
      name: 'edge-fw',
      inbound_rules: [ssh],
      tags: ['edge'],
    });
    const { droplet } = await call('POST', '/v2/droplets', validCreate);
    assert.deepEqual((await call('GET', `/v2/firewalls/${firewall.id}`)).firewall.droplet_ids, []);

    await call('POST', '/v2/tags/edge/resources', {
      resources: [{ resource_id: String(droplet.id), resource_type: 'droplet' }],
    });
    assert.deepEqual((await call('GET', `/v2/firewalls/${firewall.id}`)).firewall.droplet_ids, [droplet.id]);
    assert.deepEqual(
      (await call('GET', `/v2/machines/${droplet.id}/firewalls`)).firewalls.map((f: { id: string }) => f.id),
      [firewall.id],
    );

    const other = await call('POST', '/v2/droplets', { ...validCreate, name: 'web-2' });
    await call('POST', `/v2/firewalls/${firewall.id}/droplets`, { droplet_ids: [other.droplet.id] });
    assert.equal(await call('DELETE', `/v2/droplets/${other.droplet.id}`), 204);
    assert.deepEqual((await call('GET', `/v2/firewalls/${firewall.id}`)).firewall.droplet_ids, [droplet.id]);
    assert.deepEqual((await service.db.query('SELECT machine_id FROM machines.firewall_droplets')).rows, []);
  } finally {
    await service.close();
  }
});

test('a changed firewall is "waiting", with its droplets pending, for the provisioning time', async () => {
  const service = await startMachines({ MACHINES_PROVISION_MS: '600000' });
  try {
    const made = await service.app.inject({
      method: 'POST',
      url: '/v2/droplets',
      headers: auth(),
      payload: validCreate,
    });
    const id = made.json().droplet.id;
    const created = await documented(service, 'POST /v2/firewalls', '/v2/firewalls', 202, {
      name: 'slow',
      inbound_rules: [ssh],
      droplet_ids: [id],
    });
    assert.equal(created.firewall.status, 'waiting');
    assert.deepEqual(created.firewall.pending_changes, [
      { droplet_id: id, removing: false, status: 'waiting' },
    ]);
  } finally {
    await service.close();
  }
});

test('dots-wrapper drives every firewall call unchanged', async () => {
  const service = await startMachines({}, { listen: true });
  try {
    const client = createApiClient({ token: tokens.full, endpoint: `${service.url}/v2` });
    const { data: made } = await client.droplet.createDroplet({ ...validCreate, tags: ['api'] });
    const dropletId = made.droplet.id;
    const { status, data } = await client.firewall.createFirewall({
      name: 'sdk-fw',
      inbound_rules: [{ protocol: 'tcp', ports: '443', sources: { addresses: ['0.0.0.0/0'] } }],
      outbound_rules: [],
      tags: ['api'],
    } as never);
    assert.equal(status, 202);
    const firewall_id = data.firewall.id as string;
    assert.deepEqual(data.firewall.droplet_ids, [dropletId]);

    assert.equal((await client.firewall.listFirewalls({})).data.firewalls.length, 1);
    assert.equal((await client.firewall.getFirewall({ firewall_id })).data.firewall.name, 'sdk-fw');
    const updated = await client.firewall.updateFirewall({
      id: firewall_id,
      name: 'sdk-fw-2',
      inbound_rules: [{ protocol: 'udp', ports: '53', sources: { addresses: ['10.0.0.0/8'] } }],
      outbound_rules: [],
      droplet_ids: [],
      tags: [],
    } as never);
    assert.equal(updated.data.firewall.name, 'sdk-fw-2');
    assert.deepEqual(updated.data.firewall.droplet_ids, []);
    assert.equal(
      (await client.firewall.addDropletsToFirewall({ firewall_id, droplet_ids: [dropletId] })).status,
      204,
    );
    assert.equal(
      (await client.firewall.removeDropletsFromFirewall({ firewall_id, droplet_ids: [dropletId] })).status,
      204,
    );
    assert.equal((await client.firewall.addTagsToFirewall({ firewall_id, tags: ['api'] })).status, 204);
    assert.equal((await client.firewall.removeTagsFromFirewall({ firewall_id, tags: ['api'] })).status, 204);
    const rule = { protocol: 'tcp', ports: '8000-9000', destinations: { tags: ['api'] } };
    assert.equal(
      (await client.firewall.addRulesToFirewall({ firewall_id, outbound_rules: [rule] } as never)).status,
      204,
    );
    assert.deepEqual((await client.firewall.getFirewall({ firewall_id })).data.firewall.outbound_rules, [
      rule,
    ]);
    assert.equal(
      (await client.firewall.removeRulesFromFirewall({ firewall_id, outbound_rules: [rule] } as never))
        .status,
      204,
    );
    assert.equal((await client.firewall.deleteFirewall({ firewall_id })).status, 204);
    await assert.rejects(
      client.firewall.getFirewall({ firewall_id }),
      (error: { response: { status: number } }) => {
        assert.equal(error.response.status, 404);
        return true;
      },
    );
  } finally {
    await service.close();
  }
});

test('firewalls survive a restart; tokens from before firewalls are left as stored', async () => {
  const db = await createTestDatabase();
  try {
    // The database as it was before firewalls: every migration up to theirs, and a token with the three scopes.
    const before = migrations.slice(
      0,
      migrations.findIndex((m) => m.name === '006_firewalls'),
    );
    await migrate(db, 'machines', before);
    await db.query(
      `INSERT INTO machines.tokens (name, token_hash, scopes, source) VALUES ('old', 'x', $1, 'cli'), ('ro', 'y', $2, 'cli')`,
      [['machine:create', 'machine:read', 'machine:delete'], ['machine:read']],
    );
    let service = await startMachines({}, { db });
    const stored = await db.query(
      'SELECT name, scopes FROM machines.tokens WHERE source = $1 ORDER BY name',
      ['cli'],
    );
    assert.deepEqual(stored.rows, [
      {
        name: 'old',
        // Kept as stored: the legacy machine:* scopes cover the firewall scopes (scopes.ts's `grants`).
        scopes: ['machine:create', 'machine:read', 'machine:delete'],
      },
      { name: 'ro', scopes: ['machine:read'] },
    ]);
    await service.app.inject({ method: 'POST', url: '/v2/tags', headers: auth(), payload: { name: 'edge' } });
    const made = await service.app.inject({
      method: 'POST',
      url: '/v2/firewalls',
      headers: auth(),
      payload: { name: 'kept', inbound_rules: [ssh], tags: ['edge'] },
    });
    const url = `/v2/firewalls/${made.json().firewall.id}`;
    const first = (await service.app.inject({ method: 'GET', url, headers: auth() })).json();
    await service.close();
    service = await startMachines({}, { db });
    assert.deepEqual((await service.app.inject({ method: 'GET', url, headers: auth() })).json(), first);
    await service.close();
  } finally {
    await db.close();
  }
});
