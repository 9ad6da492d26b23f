import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documented } from '../../check.test.js';
import { auth, startMachines, tokens } from '../../support.test.js';
import { key, leaf, otherKey } from './pem.test.js';

const unknown = '00000000-0000-4000-8000-000000000000';

test("every certificate and CDN endpoint operation answers as DigitalOcean's document says", async () => {
  const service = await startMachines();
  try {
    const post = (status: number, body: unknown) =>
      documented(service, 'POST /v2/certificates', '/v2/certificates', status, body);
    const custom = await post(201, {
      name: 'shop',
      type: 'custom',
      private_key: key,
      leaf_certificate: leaf,
    });
    assert.deepEqual(
      { ...custom.certificate, id: 'x', created_at: 'x' },
      {
        id: 'x',
        name: 'shop',
        not_after: '2126-11-04T02:28:08Z',
        sha1_fingerprint: 'd0dadf7d61aa38a1de00db0e73ae8c9f0ef13d44',
        created_at: 'x',
        dns_names: ['shop.example.com', 'www.shop.example.com'],
        state: 'verified',
        type: 'custom',
      },
    );
    const stored = await service.db.query('SELECT leaf_certificate FROM machines.certificates');
    assert.deepEqual(stored.rows, [{ leaf_certificate: leaf }]);
    const message = async (body: unknown) => (await post(422, body)).message;
    assert.equal(
      await message({ name: 'x', private_key: otherKey, leaf_certificate: leaf }),
      'private_key does not match leaf_certificate.',
    );
    assert.equal(
      await message({ name: 'x', private_key: key, leaf_certificate: 'nope' }),
      'leaf_certificate is not a valid PEM-encoded certificate.',
    );
    assert.equal(
      await message({ name: 'x', type: 'custom', leaf_certificate: leaf }),
      'private_key and leaf_certificate are required for a custom certificate.',
    );
    assert.equal(
      await message({ name: 'shop', private_key: key, leaf_certificate: leaf }),
      'A certificate named shop already exists.',
    );
    assert.equal(
      await message({ name: 'le', type: 'lets_encrypt', dns_names: ['www.example.com'] }),
      "www.example.com is not in a domain managed by DigitalOcean's DNS.",
    );
    assert.equal(
      await message({ name: 'le', type: 'lets_encrypt', dns_names: [] }),
      'dns_names must name at least one domain for a lets_encrypt certificate.',
    );
    await documented(service, 'POST /v2/certificates', '/v2/certificates', 403, { name: 'x' }, tokens.read);
    await service.app.inject({
      method: 'POST',
      url: '/v2/domains',
      headers: auth(),
      payload: { name: 'example.com' },
    });
    const le = await post(201, {
      name: 'le',
      type: 'lets_encrypt',
      dns_names: ['example.com', '*.Example.com'],
    });
    assert.deepEqual(
      [le.certificate.type, le.certificate.state, le.certificate.dns_names],
      ['lets_encrypt', 'verified', ['example.com', '*.example.com']],
    );
    assert.equal(
      new Date(le.certificate.not_after).getTime() - new Date(le.certificate.created_at).getTime(),
      90 * 86_400_000,
    );

    const listed = await documented(service, 'GET /v2/certificates', '/v2/certificates', 200);
    assert.deepEqual(
      listed.certificates.map((c: { name: string }) => c.name),
      ['shop', 'le'],
    );
    const named = await documented(service, 'GET /v2/certificates', '/v2/certificates?name=le', 200);
    assert.deepEqual([named.certificates.length, named.meta.total], [1, 1]);
    await documented(service, 'GET /v2/certificates', '/v2/certificates?page=0', 400);
    const one = 'GET /v2/certificates/{certificate_id}';
    await documented(service, one, `/v2/certificates/${custom.certificate.id}`, 200);
    await documented(service, one, `/v2/certificates/${unknown}`, 404);

    // CDN endpoints
    const cdn = (status: number, body: unknown) =>
      documented(service, 'POST /v2/cdn/endpoints', '/v2/cdn/endpoints', status, body);
    const made = await cdn(201, { origin: 'static.nyc3.digitaloceanspaces.com', ttl: 600 });
    const id = made.endpoint.id as string;
    assert.deepEqual(
      { ...made.endpoint, id: 'x', created_at: 'x' },
      {
        id: 'x',
        origin: 'static.nyc3.digitaloceanspaces.com',
        endpoint: 'static.nyc3.cdn.digitaloceanspaces.com',
        ttl: 600,
        created_at: 'x',
      },
    );
    assert.equal(
      (await cdn(422, { origin: 'example.com' })).message,
      'origin must be a Spaces bucket, e.g. static.nyc3.digitaloceanspaces.com.',
    );
    assert.equal(
      (await cdn(422, { origin: 'img.ams3.digitaloceanspaces.com', ttl: 5 })).message,
      'ttl must be one of 60, 600, 3600, 86400, 604800.',
    );
    assert.equal(
      (await cdn(422, { origin: 'img.ams3.digitaloceanspaces.com', custom_domain: 'cdn.example.com' }))
        .message,
      'custom_domain and certificate_id are given together (a custom domain needs a certificate).',
    );
    const again = await service.app.inject({
      method: 'POST',
      url: '/v2/cdn/endpoints',
      headers: auth(),
      payload: { origin: 'static.nyc3.digitaloceanspaces.com' },
    });
    assert.equal(again.statusCode, 409);
    await documented(service, 'GET /v2/cdn/endpoints', '/v2/cdn/endpoints', 200);
    await documented(service, 'GET /v2/cdn/endpoints', '/v2/cdn/endpoints', 403, undefined, tokens.create);
    const endpoint = '/v2/cdn/endpoints/{cdn_id}';
    await documented(service, `GET ${endpoint}`, `/v2/cdn/endpoints/${id}`, 200);
    await documented(service, `GET ${endpoint}`, `/v2/cdn/endpoints/${unknown}`, 404);
    const put = await documented(service, `PUT ${endpoint}`, `/v2/cdn/endpoints/${id}`, 200, {
      custom_domain: 'static.example.com',
      certificate_id: le.certificate.id,
    });
    assert.deepEqual(
      [put.endpoint.ttl, put.endpoint.custom_domain, put.endpoint.certificate_id],
      [600, 'static.example.com', le.certificate.id],
    );
    await documented(service, `PUT ${endpoint}`, `/v2/cdn/endpoints/${id}`, 422, { certificate_id: unknown });
    await documented(service, `PUT ${endpoint}`, `/v2/cdn/endpoints/${unknown}`, 404, { ttl: 60 });
    const cache = `DELETE ${endpoint}/cache`;
    await documented(service, cache, `/v2/cdn/endpoints/${id}/cache`, 204, {
      files: ['assets/*', 'index.html'],
    });
    await documented(service, cache, `/v2/cdn/endpoints/${id}/cache`, 422, { files: [] });
    await documented(service, cache, `/v2/cdn/endpoints/${unknown}/cache`, 404, { files: ['*'] });
    const purged = await service.db.query(
      'SELECT purged_at IS NOT NULL AS purged FROM machines.cdn_endpoints',
    );
    assert.deepEqual(purged.rows, [{ purged: true }]);

    // A certificate in use stays; once the endpoint lets go of it, it can be deleted.
    const remove = 'DELETE /v2/certificates/{certificate_id}';
    const inUse = await service.app.inject({
      method: 'DELETE',
      url: `/v2/certificates/${le.certificate.id}`,
      headers: auth(),
    });
    assert.equal(inUse.statusCode, 409);
    assert.equal(inUse.json().message, 'The certificate is in use by a load balancer or CDN endpoint.');
    await documented(service, `DELETE ${endpoint}`, `/v2/cdn/endpoints/${id}`, 204);
    await documented(service, `DELETE ${endpoint}`, `/v2/cdn/endpoints/${id}`, 404);
    await documented(service, remove, `/v2/certificates/${le.certificate.id}`, 204);
    await documented(service, remove, `/v2/certificates/${le.certificate.id}`, 404);
  } finally {
    await service.close();
  }
});

test("a Let's Encrypt certificate is pending for the provisioning time", async () => {
  const service = await startMachines({ MACHINES_PROVISION_MS: '600000' });
  try {
    await service.app.inject({
      method: 'POST',
      url: '/v2/domains',
      headers: auth(),
      payload: { name: 'example.com' },
    });
    const le = await documented(service, 'POST /v2/certificates', '/v2/certificates', 201, {
      name: 'le',
      dns_names: ['shop.example.com'],
    });
    assert.deepEqual([le.certificate.type, le.certificate.state], ['lets_encrypt', 'pending']);
    const custom = await documented(service, 'POST /v2/certificates', '/v2/certificates', 201, {
      name: 'mine',
      private_key: key,
      leaf_certificate: leaf,
      certificate_chain: leaf,
    });
    assert.equal(custom.certificate.state, 'verified');
  } finally {
    await service.close();
  }
});
