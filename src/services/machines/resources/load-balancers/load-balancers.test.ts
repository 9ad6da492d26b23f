import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApiClient } from 'dots-wrapper';
import { documented } from '../../check.test.js';
import { auth, startMachines, tokens, validCreate } from '../../support.test.js';
import { key, leaf } from '../certificates/pem.test.js';

const unknown = '00000000-0000-4000-8000-000000000000';
const http = { entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 };

test("every load balancer operation answers as DigitalOcean's document says, and keeps what it was told", async () => {
  const service = await startMachines();
  try {
    const droplet = async (body: object) =>
      (await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, { ...validCreate, ...body }))
        .droplet.id as number;
    const [a, b] = [await droplet({ name: 'web-1' }), await droplet({ name: 'web-2' })];
    const far = await droplet({ name: 'far', region: 'ams3' });
    const cert = (
      await documented(service, 'POST /v2/certificates', '/v2/certificates', 201, {
        name: 'shop',
        private_key: key,
        leaf_certificate: leaf,
      })
    ).certificate.id as string;

    const post = (status: number, body: unknown) =>
      documented(service, 'POST /v2/load_balancers', '/v2/load_balancers', status, body);
    const https = {
      entry_protocol: 'https',
      entry_port: 443,
      target_protocol: 'http',
      target_port: 8080,
      certificate_id: cert,
    };
    const created = await post(202, {
      name: 'lb-1',
      region: 'nyc3',
      forwarding_rules: [http, https],
      health_check: { protocol: 'http', port: 8080, path: '/health' },
      sticky_sessions: { type: 'cookies', cookie_name: 'srv', cookie_ttl_seconds: 300 },
      droplet_ids: [a],
    });
    const lb = created.load_balancer;
    const id = lb.id as string;
    assert.deepEqual(
      { ...lb, id: 'x', created_at: 'x', region: lb.region.slug, vpc_uuid: 'x' },
      {
        id: 'x',
        name: 'lb-1',
        ip: '198.51.100.1',
        size_unit: 1,
        size: 'lb-small',
        algorithm: 'round_robin',
        status: 'active',
        created_at: 'x',
        forwarding_rules: [http, https],
        health_check: {
          protocol: 'http',
          port: 8080,
          path: '/health',
          check_interval_seconds: 10,
          response_timeout_seconds: 5,
          unhealthy_threshold: 5,
          healthy_threshold: 3,
        },
        sticky_sessions: { type: 'cookies', cookie_name: 'srv', cookie_ttl_seconds: 300 },
        redirect_http_to_https: false,
        enable_proxy_protocol: false,
        enable_backend_keepalive: false,
        http_idle_timeout_seconds: 60,
        vpc_uuid: 'x',
        disable_lets_encrypt_dns_records: false,
        firewall: { deny: [], allow: [] },
        network: 'EXTERNAL',
        network_stack: 'IPV4',
        type: 'REGIONAL',
        tls_cipher_policy: 'DEFAULT',
        region: 'nyc3',
        droplet_ids: [a],
      },
    );
    const refused = async (body: object) =>
      (await post(422, { name: 'lb-2', region: 'nyc3', forwarding_rules: [http], ...body })).message;
    assert.equal(await refused({ forwarding_rules: [] }), 'forwarding_rules must have at least one rule.');
    assert.equal(
      await refused({ forwarding_rules: [{ ...http, entry_protocol: 'ftp' }] }),
      'forwarding_rules[0].entry_protocol must be one of http, https, http2, http3, tcp, udp.',
    );
    assert.equal(
      await refused({ forwarding_rules: [{ ...https, certificate_id: undefined }] }),
      'forwarding_rules[0]: an https entry needs a certificate_id or tls_passthrough.',
    );
    assert.equal(
      await refused({ forwarding_rules: [{ ...https, certificate_id: unknown }] }),
      `Certificate ${unknown} could not be found.`,
    );
    assert.equal(
      await refused({ forwarding_rules: [http, http] }),
      'entry port 80 is used by more than one forwarding rule.',
    );
    assert.equal(
      await refused({ droplet_ids: [a], tag: 'web' }),
      'Specify either droplet_ids or tag, not both.',
    );
    assert.equal(await refused({ droplet_ids: [7] }), 'Droplet 7 could not be found.');
    assert.equal(
      await refused({ droplet_ids: [far] }),
      `Droplet ${far} is in ams3, not in the load balancer's region nyc3.`,
    );
    assert.equal(
      await refused({ region: 'mars1' }),
      'region is required and must be a region slug, e.g. nyc3.',
    );
    assert.equal(
      await refused({ sticky_sessions: { type: 'cookies' } }),
      'sticky_sessions.cookie_name is required for cookies (letters, digits, "_" and "-").',
    );
    assert.equal(
      await refused({ health_check: { check_interval_seconds: 1 } }),
      'health_check.check_interval_seconds must be an integer between 3 and 300.',
    );
    await documented(
      service,
      'POST /v2/load_balancers',
      '/v2/load_balancers',
      403,
      { name: 'x' },
      tokens.read,
    );

    const listed = await documented(service, 'GET /v2/load_balancers', '/v2/load_balancers', 200);
    assert.deepEqual([listed.load_balancers.length, listed.meta.total], [1, 1]);
    await documented(service, 'GET /v2/load_balancers', '/v2/load_balancers?per_page=x', 400);
    const one = '/v2/load_balancers/{lb_id}';
    await documented(service, `GET ${one}`, `/v2/load_balancers/${id}`, 200);
    await documented(service, `GET ${one}`, `/v2/load_balancers/${unknown}`, 404);

    const droplets = `${one}/droplets`;
    await documented(service, `POST ${droplets}`, `/v2/load_balancers/${id}/droplets`, 204, {
      droplet_ids: [b],
    });
    await documented(service, `POST ${droplets}`, `/v2/load_balancers/${id}/droplets`, 422, {
      droplet_ids: [far],
    });
    await documented(service, `DELETE ${droplets}`, `/v2/load_balancers/${id}/droplets`, 204, {
      droplet_ids: [a],
    });
    await documented(service, `DELETE ${droplets}`, `/v2/load_balancers/${unknown}/droplets`, 404, {
      droplet_ids: [a],
    });
    const rules = `${one}/forwarding_rules`;
    const tcp = { entry_protocol: 'tcp', entry_port: 5432, target_protocol: 'tcp', target_port: 5432 };
    await documented(service, `POST ${rules}`, `/v2/load_balancers/${id}/forwarding_rules`, 204, {
      forwarding_rules: [tcp],
    });
    await documented(service, `POST ${rules}`, `/v2/load_balancers/${id}/forwarding_rules`, 422, {
      forwarding_rules: [{ ...tcp, target_port: 1 }],
    });
    await documented(service, `DELETE ${rules}`, `/v2/load_balancers/${id}/forwarding_rules`, 204, {
      forwarding_rules: [https],
    });
    await documented(service, `DELETE ${rules}`, `/v2/load_balancers/${unknown}/forwarding_rules`, 404, {
      forwarding_rules: [http],
    });
    const now = (await documented(service, `GET ${one}`, `/v2/load_balancers/${id}`, 200)).load_balancer;
    assert.deepEqual([now.forwarding_rules, now.droplet_ids], [[http, tcp], [b]]);

    const put = await documented(service, `PUT ${one}`, `/v2/load_balancers/${id}`, 200, {
      name: 'lb-main',
      forwarding_rules: [http],
      tag: 'web',
      redirect_http_to_https: true,
    });
    assert.deepEqual(
      [
        put.load_balancer.name,
        put.load_balancer.tag,
        put.load_balancer.redirect_http_to_https,
        put.load_balancer.region.slug,
      ],
      ['lb-main', 'web', true, 'nyc3'],
    );
    // No droplet has the tag yet; the droplets named before were replaced by the tag.
    assert.deepEqual(put.load_balancer.droplet_ids, []);
    await documented(service, `PUT ${one}`, `/v2/load_balancers/${id}`, 422, {
      name: 'x',
      region: 'ams3',
      forwarding_rules: [http],
    });
    await documented(service, `PUT ${one}`, `/v2/load_balancers/${unknown}`, 404, {
      name: 'x',
      forwarding_rules: [http],
    });
    assert.equal(
      (
        await documented(service, `POST ${droplets}`, `/v2/load_balancers/${id}/droplets`, 422, {
          droplet_ids: [b],
        })
      ).message,
      'This load balancer follows the tag web; tag droplets instead.',
    );

    await documented(service, `DELETE ${one}/cache`, `/v2/load_balancers/${id}/cache`, 204);
    await documented(service, `DELETE ${one}/cache`, `/v2/load_balancers/${unknown}/cache`, 404);
    const inUse = await service.app.inject({
      method: 'DELETE',
      url: `/v2/certificates/${cert}`,
      headers: auth(),
    });
    assert.equal(inUse.statusCode, 204, 'the https rule that used it was removed');
    await documented(service, `DELETE ${one}`, `/v2/load_balancers/${id}`, 204);
    await documented(service, `DELETE ${one}`, `/v2/load_balancers/${id}`, 404);
    assert.deepEqual((await service.db.query('SELECT * FROM machines.load_balancer_droplets')).rows, []);
  } finally {
    await service.close();
  }
});

test('a load balancer by tag follows the droplets that get the tag in its region; a deleted droplet leaves it', async () => {
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
    const { load_balancer: lb } = await call('POST', '/v2/load_balancers', {
      name: 'by-tag',
      region: 'nyc3',
      forwarding_rules: [http],
      tag: 'web',
    });
    const { droplet } = await call('POST', '/v2/droplets', { ...validCreate, tags: ['web'] });
    const far = await call('POST', '/v2/droplets', { ...validCreate, region: 'ams3', tags: ['web'] });
    const plain = await call('POST', '/v2/droplets', { ...validCreate, name: 'later' });
    assert.deepEqual((await call('GET', `/v2/load_balancers/${lb.id}`)).load_balancer.droplet_ids, [
      droplet.id,
    ]);
    await call('POST', '/v2/tags/web/resources', {
      resources: [{ resource_id: String(plain.droplet.id), resource_type: 'droplet' }],
    });
    assert.deepEqual((await call('GET', `/v2/load_balancers/${lb.id}`)).load_balancer.droplet_ids, [
      droplet.id,
      plain.droplet.id,
    ]);
    assert.equal(await call('DELETE', `/v2/droplets/${droplet.id}`), 204);
    assert.deepEqual((await call('GET', `/v2/load_balancers/${lb.id}`)).load_balancer.droplet_ids, [
      plain.droplet.id,
    ]);
    assert.ok(far.droplet.id);

    const direct = await call('POST', '/v2/load_balancers', {
      name: 'direct',
      region: 'nyc3',
      forwarding_rules: [http],
      droplet_ids: [plain.droplet.id],
    });
    // A city prefix takes the first of its regions, as droplets do.
    const city = await call('POST', '/v2/load_balancers', {
      name: 'city',
      region: 'ams',
      forwarding_rules: [http],
    });
    assert.match(city.load_balancer.region.slug, /^ams\d$/);
    assert.equal(await call('DELETE', `/v2/droplets/${plain.droplet.id}`), 204);
    assert.deepEqual(
      (await call('GET', `/v2/load_balancers/${direct.load_balancer.id}`)).load_balancer.droplet_ids,
      [],
    );
  } finally {
    await service.close();
  }
});

test('a new load balancer is "new" without an address for the provisioning time', async () => {
  const service = await startMachines({ MACHINES_PROVISION_MS: '600000' });
  try {
    const made = await documented(service, 'POST /v2/load_balancers', '/v2/load_balancers', 202, {
      name: 'slow',
      region: 'nyc3',
      forwarding_rules: [http],
    });
    assert.deepEqual([made.load_balancer.status, made.load_balancer.ip], ['new', '']);
  } finally {
    await service.close();
  }
});

test('dots-wrapper drives the load balancer calls unchanged', async () => {
  const service = await startMachines({}, { listen: true });
  try {
    const client = createApiClient({ token: tokens.full, endpoint: `${service.url}/v2` });
    const { data: made } = await client.droplet.createDroplet({ ...validCreate });
    const { status, data } = await client.loadBalancer.createLoadBalancer({
      name: 'sdk-lb',
      region: 'nyc3',
      forwarding_rules: [http],
      droplet_ids: [made.droplet.id],
    } as never);
    assert.equal(status, 202);
    const load_balancer_id = data.load_balancer.id as string;
    assert.equal((await client.loadBalancer.listLoadBalancers({})).data.load_balancers.length, 1);
    assert.equal(
      (await client.loadBalancer.getLoadBalancer({ load_balancer_id })).data.load_balancer.name,
      'sdk-lb',
    );
    assert.equal(
      (
        await client.loadBalancer.removeDropletsFromLoadBalancer({
          load_balancer_id,
          droplet_ids: [made.droplet.id],
        })
      ).status,
      204,
    );
    assert.equal(
      (
        await client.loadBalancer.addDropletsToLoadBalancer({
          load_balancer_id,
          droplet_ids: [made.droplet.id],
        })
      ).status,
      204,
    );
    const rule = { entry_protocol: 'tcp', entry_port: 22, target_protocol: 'tcp', target_port: 22 };
    assert.equal(
      (
        await client.loadBalancer.addRulesToLoadBalancer({
          load_balancer_id,
          forwarding_rules: [rule],
        } as never)
      ).status,
      204,
    );
    assert.equal(
      (
        await client.loadBalancer.removeRulesFromLoadBalancer({
          load_balancer_id,
          forwarding_rules: [rule],
        } as never)
      ).status,
      204,
    );
    const updated = await client.loadBalancer.updateLoadBalancer({
      load_balancer_id,
      name: 'sdk-lb-2',
      region: 'nyc3',
      forwarding_rules: [http],
      droplet_ids: [],
    } as never);
    assert.deepEqual(
      [updated.data.load_balancer.name, updated.data.load_balancer.droplet_ids],
      ['sdk-lb-2', []],
    );
    assert.equal((await client.loadBalancer.deleteLoadBalancer({ load_balancer_id })).status, 204);
  } finally {
    await service.close();
  }
});
