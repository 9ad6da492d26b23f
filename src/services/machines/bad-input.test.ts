import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auth, startMachines, validCreate } from './support.test.js';

// Ids beyond PostgreSQL's integer and NULs in text reached the database and were 500s.
test('ids beyond the database integer name nothing, NULs in text are refused: 4xx, never 500', async () => {
  const service = await startMachines();
  try {
    const call = (method: string, url: string, payload?: object) =>
      service.app.inject({ method: method as 'GET', url, headers: auth(), ...(payload ? { payload } : {}) });
    const id = (await call('POST', '/v2/droplets', validCreate)).json().droplet.id;
    await call('POST', '/v2/tags', { name: 'x' });
    const volume = (
      await call('POST', '/v2/volumes', { name: 'v', size_gigabytes: 1, region: 'nyc3' })
    ).json().volume.id;
    const big = 9_999_999_999;
    const cases: [string, string, object | undefined, number][] = [
      ['GET', `/v2/droplets/${big}`, undefined, 404],
      ['DELETE', `/v2/droplets/${big}`, undefined, 404],
      ['GET', `/v2/droplets/${big}/actions`, undefined, 404],
      ['POST', `/v2/droplets/${big}/actions`, { type: 'reboot' }, 404],
      ['GET', `/v2/droplets/${id}/actions/${big}`, undefined, 404],
      ['GET', `/v2/actions/${big}`, undefined, 404],
      ['GET', `/v2/images/${big}`, undefined, 404],
      ['GET', `/v2/account/keys/${big}`, undefined, 404],
      ['PUT', `/v2/account/keys/${big}`, { name: 'x' }, 404],
      ['DELETE', `/v2/account/keys/${big}`, undefined, 404],
      ['POST', `/v2/droplets/${id}/actions`, { type: 'rebuild', image: big }, 422],
      ['POST', '/v2/droplets', { ...validCreate, image: big }, 422],
      ['POST', '/v2/droplets', { ...validCreate, ssh_keys: [big] }, 422],
      ['POST', '/v2/droplets', { ...validCreate, ssh_keys: ['not-a-fingerprint'] }, 422],
      [
        'POST',
        '/v2/tags/x/resources',
        { resources: [{ resource_id: String(big), resource_type: 'droplet' }] },
        404,
      ],
      ['POST', `/v2/volumes/${volume}/actions`, { type: 'attach', droplet_id: big }, 422],
      ['POST', `/v2/droplets/${id}/actions`, { type: 'snapshot', name: 'a\u0000b' }, 422],
      ['POST', '/v2/volumes', { name: 'ok', size_gigabytes: 1, region: 'nyc3', description: 'a\u0000' }, 422],
      ['POST', '/v2/volumes/actions', { type: 'attach', volume_name: 'v\u0000' }, 422],
      ['POST', '/v2/account/keys', { name: 'a\u0000', public_key: 'ssh-ed25519 AAAA' }, 422],
      ['POST', '/v2/droplets', { ...validCreate, user_data: '\u0000' }, 422],
    ];
    for (const [method, url, payload, status] of cases) {
      const response = await call(method, url, payload);
      assert.equal(
        response.statusCode,
        status,
        `${method} ${url} ${JSON.stringify(payload)}: ${response.body}`,
      );
      assert.equal(response.json().id, status === 404 ? 'not_found' : 'unprocessable_entity');
    }
    const nul = await call('POST', '/v2/account/keys', { name: 'a\u0000', public_key: 'x' });
    assert.equal(nul.json().message, 'Text fields must not contain NUL characters.');
  } finally {
    await service.close();
  }
});
