import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApiClient } from 'dots-wrapper';
import { documented } from '../../check.test.js';
import { startMachines, tokens } from '../../support.test.js';

const soaNs = (serial: string) => [
  '$ORIGIN example.com.',
  '$TTL 1800',
  `example.com. 1800 IN SOA ns1.digitalocean.com. hostmaster.example.com. ${serial} 10800 3600 604800 1800`,
  'example.com. 1800 IN NS ns1.digitalocean.com.',
  'example.com. 1800 IN NS ns2.digitalocean.com.',
  'example.com. 1800 IN NS ns3.digitalocean.com.',
];

test("every domain and record operation answers as DigitalOcean's document says, and keeps what it was told", async () => {
  const service = await startMachines();
  try {
    const created = await documented(service, 'POST /v2/domains', '/v2/domains', 201, {
      name: 'Example.com',
      ip_address: '198.51.100.7',
    });
    const serial = /SOA \S+ \S+ (\d+) /.exec(created.domain.zone_file)?.[1] as string;
    assert.deepEqual(created.domain, {
      name: 'example.com',
      ttl: 1800,
      zone_file: `${[...soaNs(serial), 'example.com. 1800 IN A 198.51.100.7'].join('\n')}\n`,
    });
    const post = (status: number, body: unknown) =>
      documented(service, 'POST /v2/domains', '/v2/domains', status, body);
    assert.equal((await post(422, { name: 'example.com' })).message, 'example.com already exists.');
    assert.equal((await post(422, { name: 'bad_name.com' })).message, 'name is not a valid domain name.');
    assert.equal(
      (await post(422, { name: 'x.org', ip_address: '1.2.3' })).message,
      'ip_address is not a valid IP address.',
    );
    await documented(service, 'POST /v2/domains', '/v2/domains', 403, { name: 'y.org' }, tokens.read);
    await post(201, { name: 'b.example.org' });

    const listed = await documented(service, 'GET /v2/domains', '/v2/domains', 200);
    assert.deepEqual(
      listed.domains.map((d: { name: string }) => d.name),
      ['b.example.org', 'example.com'],
    );
    assert.deepEqual(listed.meta, { total: 2 });
    await documented(service, 'GET /v2/domains', '/v2/domains?per_page=0', 400);
    await documented(service, 'GET /v2/domains/{domain_name}', '/v2/domains/example.com', 200);
    await documented(service, 'GET /v2/domains/{domain_name}', '/v2/domains/nope.com', 404);

    const records = '/v2/domains/{domain_name}/records';
    const url = '/v2/domains/example.com/records';
    const defaults = await documented(service, `GET ${records}`, url, 200);
    assert.deepEqual(
      defaults.domain_records.map((r: { type: string; name: string; data: string }) => [
        r.type,
        r.name,
        r.data,
      ]),
      [
        ['SOA', '@', '1800'],
        ['NS', '@', 'ns1.digitalocean.com'],
        ['NS', '@', 'ns2.digitalocean.com'],
        ['NS', '@', 'ns3.digitalocean.com'],
        ['A', '@', '198.51.100.7'],
      ],
    );
    await documented(service, `GET ${records}`, '/v2/domains/nope.com/records', 404);

    const add = (status: number, body: unknown) => documented(service, `POST ${records}`, url, status, body);
    const www = await add(201, { type: 'CNAME', name: 'www', data: '@' });
    assert.deepEqual(www.domain_record, {
      id: www.domain_record.id,
      type: 'CNAME',
      name: 'www',
      data: '@',
      priority: null,
      port: null,
      ttl: 1800,
      weight: null,
      flags: null,
      tag: null,
    });
    const mx = await add(201, { type: 'MX', data: 'Mail.Example.com.', priority: 10, ttl: 3600 });
    assert.deepEqual([mx.domain_record.name, mx.domain_record.data], ['@', 'mail.example.com']);
    await add(201, { type: 'AAAA', name: 'v6', data: '2001:db8::1' });
    await add(201, { type: 'TXT', name: '@', data: 'v=spf1 -all' });
    await add(201, {
      type: 'SRV',
      name: '_sip._tcp',
      data: 'sip.example.com.',
      priority: 1,
      weight: 5,
      port: 5060,
    });
    await add(201, { type: 'CAA', name: '@', data: 'letsencrypt.org', flags: 0, tag: 'issue' });
    await add(201, { type: 'NS', name: 'sub', data: 'ns1.other.net.' });
    const refused = async (body: unknown) => (await add(422, body)).message;
    assert.equal(
      await refused({ type: 'CNAME', name: 'blog', data: 'example.net' }),
      'Data needs to end with a dot (.)',
    );
    assert.equal(
      await refused({ type: 'A', name: 'www', data: '10.0.0.1' }),
      'CNAME records cannot share a name with other records.',
    );
    assert.equal(await refused({ type: 'A', name: 'x', data: '::1' }), 'Data must be a valid IPv4 address.');
    assert.equal(
      await refused({ type: 'MX', data: 'mx.example.com.' }),
      'Priority is required for this record type.',
    );
    assert.equal(
      await refused({ type: 'SRV', name: '_x._tcp', data: 'a.b.', priority: 1, weight: 1, port: 0 }),
      'Port must be between 1 and 65535.',
    );
    assert.equal(
      await refused({ type: 'CAA', name: '@', data: 'x', flags: 0, tag: 'bad' }),
      'Tag must be one of issue, issuewild or iodef.',
    );
    assert.equal(await refused({ type: 'SOA', name: '@', data: 'x' }), 'SOA records cannot be created.');
    assert.equal(
      await refused({ type: 'PTR', name: 'x', data: 'y' }),
      'type must be one of A, AAAA, CAA, CNAME, MX, NS, SOA, SRV, TXT.',
    );
    assert.equal(
      await refused({ type: 'A', name: 'bad name', data: '10.0.0.1' }),
      'Name must be "@" or a valid hostname.',
    );
    assert.equal(
      await refused({ type: 'A', name: 'x', data: '10.0.0.1', ttl: 5 }),
      'TTL must be at least 30 seconds.',
    );
    await documented(service, `POST ${records}`, '/v2/domains/nope.com/records', 404, {
      type: 'A',
      name: 'x',
      data: '10.0.0.1',
    });

    const filtered = await documented(
      service,
      `GET ${records}`,
      `${url}?type=CNAME&name=www.example.com`,
      200,
    );
    assert.deepEqual(
      filtered.domain_records.map((r: { id: number }) => r.id),
      [www.domain_record.id],
    );
    assert.equal(
      (await documented(service, `GET ${records}`, `${url}?type=NS&per_page=2`, 200)).meta.total,
      4,
    );

    const one = '/v2/domains/{domain_name}/records/{domain_record_id}';
    const mxUrl = `${url}/${mx.domain_record.id}`;
    await documented(service, `GET ${one}`, mxUrl, 200);
    await documented(service, `GET ${one}`, `${url}/1`, 404);
    await documented(service, `GET ${one}`, `${url}/9999999999`, 404);
    const patched = await documented(service, `PATCH ${one}`, mxUrl, 200, { priority: 20 });
    assert.deepEqual([patched.domain_record.priority, patched.domain_record.ttl], [20, 3600]);
    await documented(service, `PATCH ${one}`, mxUrl, 422, { type: 'A' });
    const put = await documented(service, `PUT ${one}`, mxUrl, 200, { type: 'MX', data: 'mx2.example.com.' });
    assert.deepEqual([put.domain_record.data, put.domain_record.priority], ['mx2.example.com', 20]);
    await documented(service, `PUT ${one}`, `${url}/1`, 404, { type: 'MX' });
    const soa = defaults.domain_records[0].id;
    const soaTtl = await documented(service, `PATCH ${one}`, `${url}/${soa}`, 200, {
      ttl: 600,
      data: 'ignored',
    });
    assert.deepEqual([soaTtl.domain_record.ttl, soaTtl.domain_record.data], [600, '1800']);
    await documented(service, `DELETE ${one}`, `${url}/${soa}`, 422);
    await documented(service, `DELETE ${one}`, `${url}/${www.domain_record.id}`, 204);
    await documented(service, `DELETE ${one}`, `${url}/${www.domain_record.id}`, 404);

    const zone = (await documented(service, 'GET /v2/domains/{domain_name}', '/v2/domains/example.com', 200))
      .domain.zone_file as string;
    const newSerial = /SOA \S+ \S+ (\d+) /.exec(zone)?.[1] as string;
    assert.ok(Number(newSerial) > Number(serial), 'every change moves the SOA serial');
    assert.deepEqual(zone.split('\n').slice(6), [
      'example.com. 1800 IN A 198.51.100.7',
      'example.com. 3600 IN MX 20 mx2.example.com.',
      'v6.example.com. 1800 IN AAAA 2001:db8::1',
      'example.com. 1800 IN TXT "v=spf1 -all"',
      '_sip._tcp.example.com. 1800 IN SRV 1 5 5060 sip.example.com.',
      'example.com. 1800 IN CAA 0 issue "letsencrypt.org"',
      'sub.example.com. 1800 IN NS ns1.other.net.',
      '',
    ]);
    assert.match(zone, /example\.com\. 600 IN SOA/);

    await documented(service, 'DELETE /v2/domains/{domain_name}', '/v2/domains/example.com', 204);
    await documented(service, 'DELETE /v2/domains/{domain_name}', '/v2/domains/example.com', 404);
    const left = await service.db.query(
      "SELECT count(*)::int AS n FROM machines.domain_records WHERE domain = 'example.com'",
    );
    assert.deepEqual(left.rows, [{ n: 0 }]);
  } finally {
    await service.close();
  }
});

test('dots-wrapper drives domains, records, certificates and CDN endpoints unchanged; an A record names a load balancer', async () => {
  const service = await startMachines({}, { listen: true });
  try {
    const client = createApiClient({ token: tokens.full, endpoint: `${service.url}/v2` });
    const { data: lb } = await client.loadBalancer.createLoadBalancer({
      name: 'front',
      region: 'nyc3',
      forwarding_rules: [
        { entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 80 },
      ],
      tag: 'web',
    } as never);
    const ip = lb.load_balancer.ip as string;
    assert.match(ip, /^198\.51\.100\.\d+$/);
    const { status, data } = await client.domain.createDomain({ name: 'shop.example' });
    assert.deepEqual([status, data.domain.name], [201, 'shop.example']);
    const { data: made } = await client.domain.createDomainRecord({
      domain_name: 'shop.example',
      type: 'A',
      name: 'www',
      data: ip,
      ttl: 300,
    } as never);
    const domain_record_id = made.domain_record.id as number;
    const { data: listed } = await client.domain.listDomainRecords({
      domain_name: 'shop.example',
      type: 'A',
    } as never);
    assert.deepEqual(
      listed.domain_records.map((r: { name: string; data: string }) => [r.name, r.data]),
      [['www', ip]],
    );
    const { data: updated } = await client.domain.updateDomainRecord({
      domain_name: 'shop.example',
      domain_record_id,
      type: 'A',
      ttl: 600,
    } as never);
    assert.deepEqual([updated.domain_record.ttl, updated.domain_record.data], [600, ip]);
    const { data: got } = await client.domain.getDomainRecord({
      domain_name: 'shop.example',
      domain_record_id,
    });
    assert.equal(got.domain_record.ttl, 600);
    assert.match(
      (await client.domain.getDomain({ name: 'shop.example' })).data.domain.zone_file as string,
      new RegExp(`www\\.shop\\.example\\. 600 IN A ${ip.replaceAll('.', '\\.')}`),
    );
    assert.equal((await client.domain.listDomains({})).data.domains.length, 1);

    const { data: cert } = await client.certificate.createCertificate({
      name: 'shop',
      type: 'lets_encrypt',
      dns_names: ['shop.example', 'www.shop.example'],
    } as never);
    const certificate_id = cert.certificate.id as string;
    assert.equal(
      (await client.certificate.getCertificate({ certificate_id })).data.certificate.state,
      'verified',
    );
    assert.equal((await client.certificate.listCertificates({})).data.certificates.length, 1);
    const { data: cdn } = await client.cdnEndpoint.createCdnEndpoint({
      origin: 'shop.nyc3.digitaloceanspaces.com',
    } as never);
    const cdn_endpoint_id = cdn.endpoint.id as string;
    const { data: changed } = await client.cdnEndpoint.updateCdnEndpoint({
      cdn_endpoint_id,
      ttl: 86400,
      certificate_id,
      custom_domain: 'cdn.shop.example',
    } as never);
    assert.deepEqual([changed.endpoint.ttl, changed.endpoint.custom_domain], [86400, 'cdn.shop.example']);
    assert.equal(
      (await client.cdnEndpoint.getCdnEndpoint({ cdn_endpoint_id })).data.endpoint.certificate_id,
      certificate_id,
    );
    assert.equal((await client.cdnEndpoint.listCdnEndpoints({})).data.endpoints.length, 1);
    assert.equal((await client.cdnEndpoint.purgeCache({ cdn_endpoint_id, files: ['*'] })).status, 204);
    assert.equal((await client.cdnEndpoint.deleteCdnEndpoint({ cdn_endpoint_id })).status, 204);
    assert.equal((await client.certificate.deleteCertificate({ certificate_id })).status, 204);
    assert.equal(
      (await client.domain.deleteDomainRecord({ domain_name: 'shop.example', domain_record_id })).status,
      204,
    );
    assert.equal((await client.domain.deleteDomain({ name: 'shop.example' })).status, 204);
    const left = await service.db.query(
      'SELECT (SELECT count(*) FROM machines.domain_records)::int AS records, (SELECT count(*) FROM machines.certificates)::int AS certificates',
    );
    assert.deepEqual(left.rows, [{ records: 0, certificates: 0 }]);
  } finally {
    await service.close();
  }
});
