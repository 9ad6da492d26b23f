import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApiClient } from 'dots-wrapper';
import { testClock } from '../../../test/clock.js';
import { auth, startMachines, tokens } from './support.test.js';

/**
 * The first project of a Terraform or doctl user, driven by a published DigitalOcean client (dots-wrapper) where it
 * covers the step and by plain HTTP where it does not (reserved IPs: dots-wrapper still calls them floating IPs):
 * VPC → tagged droplets → firewall by tag → load balancer by tag → domain with an A record to the load balancer →
 * reserved IP → a project holding all of them → teardown, after which nothing is left behind.
 */
test('a first project: VPC, droplets, firewall, load balancer, domain, reserved IP and project, then a clean teardown', async () => {
  // The service's clock moves only when told, so "new → active" needs no waiting.
  const clock = testClock(Date.now());
  const service = await startMachines({ MACHINES_PROVISION_MS: '1500' }, { listen: true, clock });
  try {
    const client = createApiClient({ token: tokens.full, endpoint: `${service.url}/v2` });
    const http = async (method: string, url: string, payload?: object) => {
      const res = await service.app.inject({ method: method as 'GET', url, headers: auth(), payload });
      return { status: res.statusCode, body: res.body ? res.json() : undefined };
    };

    // An account that has used the region has its default VPC (the first VPC of a region becomes its default, and
    // a default cannot be deleted, at DigitalOcean as here); the project's own VPC comes next.
    const { data: account } = await client.vpc.createVpc({ name: 'default-nyc3', region: 'nyc3' });
    assert.equal(account.vpc.default, true);
    const { data: made } = await client.vpc.createVpc({
      name: 'shop-net',
      region: 'nyc3',
      ip_range: '10.20.0.0/24',
    });
    const vpc = made.vpc;
    assert.equal(vpc.ip_range, '10.20.0.0/24');

    const created = await client.droplet.createDroplets({
      names: ['web-1', 'web-2'],
      region: 'nyc3',
      size: 's-1vcpu-1gb',
      image: 'ubuntu-24-04-x64',
      tags: ['web'],
      vpc_uuid: vpc.id,
    });
    assert.equal(created.status, 202);
    const ids = created.data.droplets.map((d) => d.id);
    clock.advance(1500);
    // Addresses show once a droplet is active (the create answer has none, and no vpc_uuid, as the provider's).
    const running = (await client.droplet.listDroplets({ tag_name: 'web' })).data.droplets;
    for (const droplet of running) {
      assert.equal(droplet.vpc_uuid, vpc.id);
      const privateV4 = droplet.networks.v4.find((n) => n.type === 'private');
      assert.match(privateV4?.ip_address ?? '', /^10\.20\.0\.\d+$/, 'a private address from the VPC');
    }
    const members = await client.vpc.listVpcResources({ vpc_id: vpc.id });
    assert.deepEqual(
      members.data.members.map((m) => m.urn).sort(),
      ids.map((id) => `do:droplet:${id}`).sort(),
    );

    const firewall = (
      await client.firewall.createFirewall({
        name: 'web-fw',
        inbound_rules: [{ protocol: 'tcp', ports: '80', sources: { addresses: ['0.0.0.0/0'] } }],
        outbound_rules: [{ protocol: 'tcp', ports: 'all', destinations: { addresses: ['0.0.0.0/0'] } }],
        tags: ['web'],
      })
    ).data.firewall;
    assert.deepEqual(
      [...(firewall.droplet_ids ?? [])].sort(),
      [...ids].sort(),
      'the firewall follows the tag',
    );

    const lb = (
      await client.loadBalancer.createLoadBalancer({
        name: 'web-lb',
        region: 'nyc3',
        forwarding_rules: [
          { entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 80 },
        ],
        tag: 'web',
        vpc_uuid: vpc.id,
      } as Parameters<typeof client.loadBalancer.createLoadBalancer>[0])
    ).data.load_balancer;
    assert.equal(lb.status, 'new');
    clock.advance(1500);
    const active = (await client.loadBalancer.getLoadBalancer({ load_balancer_id: lb.id })).data
      .load_balancer;
    assert.equal(active.status, 'active');
    assert.match(active.ip, /^\d+\.\d+\.\d+\.\d+$/);
    assert.deepEqual([...active.droplet_ids].sort(), [...ids].sort(), 'the load balancer follows the tag');

    await client.domain.createDomain({ name: 'shop.example.com' });
    const record = (
      await client.domain.createDomainRecord({
        domain_name: 'shop.example.com',
        type: 'A',
        name: 'www',
        data: active.ip,
        ttl: 300,
      })
    ).data.domain_record;
    assert.equal(record.data, active.ip);

    const reserved = await http('POST', '/v2/reserved_ips', { droplet_id: ids[0] });
    assert.equal(reserved.status, 202);
    const ip: string = reserved.body.reserved_ip.ip;
    const first = (await client.droplet.getDroplet({ droplet_id: ids[0] as number })).data.droplet;
    assert.ok(
      first.networks.v4.some((n) => n.type === 'public' && n.ip_address === ip),
      'the reserved IP shows in the droplet',
    );

    const project = (
      await client.project.createProject({
        name: 'shop',
        description: 'the shop',
        purpose: 'Web Application',
        environment: 'Production',
      })
    ).data.project;
    const urns = [
      ...ids.map((id) => `do:droplet:${id}`),
      `do:loadbalancer:${lb.id}`,
      'do:domain:shop.example.com',
      `do:floatingip:${ip}`,
    ];
    await client.project.assignResourcesToProject({ project_id: project.id, resources: urns });
    const held = await client.project.listProjectResources({ project_id: project.id });
    assert.deepEqual(held.data.resources.map((r) => r.urn).sort(), [...urns].sort());

    // Teardown, in the order a `terraform destroy` takes it.
    assert.equal((await http('DELETE', `/v2/reserved_ips/${ip}`)).status, 204);
    await client.domain.deleteDomain({ name: 'shop.example.com' });
    await client.loadBalancer.deleteLoadBalancer({ load_balancer_id: lb.id });
    await client.firewall.deleteFirewall({ firewall_id: firewall.id as string });
    await client.droplet.deleteDropletsByTag({ tag_name: 'web' });
    assert.deepEqual(
      (await client.project.listProjectResources({ project_id: project.id })).data.resources,
      [],
    );
    await client.project.deleteProject({ project_id: project.id });
    await client.vpc.deleteVpc({ vpc_id: vpc.id });

    const left = {
      droplets: (await http('GET', '/v2/droplets')).body.droplets,
      firewalls: (await http('GET', '/v2/firewalls')).body.firewalls,
      load_balancers: (await http('GET', '/v2/load_balancers')).body.load_balancers,
      domains: (await http('GET', '/v2/domains')).body.domains,
      reserved_ips: (await http('GET', '/v2/reserved_ips')).body.reserved_ips,
      projects: (await http('GET', '/v2/projects')).body.projects.map((p: { name: string }) => p.name),
      default_project: (await http('GET', '/v2/projects/default/resources')).body.resources,
      vpcs: (await http('GET', '/v2/vpcs')).body.vpcs.filter((v: { id: string }) => v.id === vpc.id),
    };
    assert.deepEqual(left, {
      droplets: [],
      firewalls: [],
      load_balancers: [],
      domains: [],
      reserved_ips: [],
      projects: ['first-project'],
      default_project: [],
      vpcs: [],
    });
  } finally {
    await service.close();
  }
});
