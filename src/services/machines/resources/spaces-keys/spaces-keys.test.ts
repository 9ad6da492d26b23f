import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokenHash } from '../../../../platform/secrets.js';
import { documented } from '../../check.test.js';
import { startMachines, tokens } from '../../support.test.js';

test("every Spaces key operation answers as DigitalOcean's document says; the secret is shown once and stored hashed", async () => {
  const service = await startMachines();
  try {
    const post = (status: number, body: unknown) =>
      documented(service, 'POST /v2/spaces/keys', '/v2/spaces/keys', status, body);
    const grants = [
      { bucket: 'assets', permission: 'read' },
      { bucket: 'uploads', permission: 'readwrite' },
    ];
    const created = await post(201, { name: 'ci', grants });
    const { access_key, secret_key } = created.key;
    assert.match(access_key, /^DO[0-9A-Z]{18}$/);
    assert.match(secret_key, /^[A-Za-z0-9+/]{43}$/);
    assert.deepEqual(created.key, {
      name: 'ci',
      grants,
      access_key,
      created_at: created.key.created_at,
      secret_key,
    });
    const stored = await service.db.query('SELECT secret_hash FROM machines.spaces_keys');
    assert.deepEqual(stored.rows, [{ secret_hash: tokenHash(secret_key) }]);
    const full = await post(201, { name: 'admin', grants: [{ bucket: '', permission: 'fullaccess' }] });
    const message = async (body: unknown) => (await post(400, body)).message;
    assert.equal(
      await message({ name: 'x', grants: [] }),
      'grants must name at least one bucket, or fullaccess.',
    );
    assert.equal(
      await message({ name: 'x', grants: [{ bucket: 'a', permission: 'write' }] }),
      'permission must be read, readwrite or fullaccess.',
    );
    assert.equal(
      await message({ name: 'x', grants: [{ bucket: 'assets', permission: 'fullaccess' }] }),
      'A fullaccess grant has an empty bucket (it covers every bucket).',
    );
    assert.equal(await message({ grants }), 'name is required (at most 255 characters).');
    await documented(
      service,
      'POST /v2/spaces/keys',
      '/v2/spaces/keys',
      403,
      { name: 'x', grants },
      tokens.read,
    );
    // The legacy machine:create scope covers the provider's spaces_key:create_credentials.
    const byLegacy = await documented(
      service,
      'POST /v2/spaces/keys',
      '/v2/spaces/keys',
      201,
      { name: 'old', grants },
      tokens.create,
    );
    await documented(
      service,
      'DELETE /v2/spaces/keys/{access_key}',
      `/v2/spaces/keys/${byLegacy.key.access_key}`,
      204,
    );

    const list = 'GET /v2/spaces/keys';
    // Newest first by default; names sort here, as two keys made in one millisecond have no order by time.
    const all = await documented(service, list, '/v2/spaces/keys?sort=name&sort_direction=asc', 200);
    const newest = await documented(service, list, '/v2/spaces/keys', 200);
    const byTime = await service.db.query<{ name: string }>(
      'SELECT name FROM machines.spaces_keys ORDER BY created_at DESC, access_key',
    );
    assert.deepEqual(
      newest.keys.map((k: { name: string }) => k.name),
      byTime.rows.map((r) => r.name),
    );
    assert.deepEqual(
      all.keys.map((k: { name: string }) => k.name),
      ['admin', 'ci'],
    );
    assert.equal('secret_key' in all.keys[0], false);
    const byBucket = await documented(
      service,
      list,
      '/v2/spaces/keys?bucket=uploads&sort=name&sort_direction=asc',
      200,
    );
    assert.deepEqual([byBucket.keys.map((k: { name: string }) => k.name), byBucket.meta.total], [['ci'], 1]);
    const byPermission = await documented(service, list, '/v2/spaces/keys?permission=fullaccess', 200);
    assert.deepEqual(
      byPermission.keys.map((k: { name: string }) => k.name),
      ['admin'],
    );
    await documented(service, list, '/v2/spaces/keys?sort=size', 400);

    const one = '/v2/spaces/keys/{access_key}';
    const url = `/v2/spaces/keys/${access_key}`;
    const read = await documented(service, `GET ${one}`, url, 200);
    assert.equal('secret_key' in read.key, false);
    await documented(service, `GET ${one}`, '/v2/spaces/keys/DONOPE', 404);
    const patched = await documented(service, `PATCH ${one}`, url, 200, { name: 'ci-2' });
    assert.deepEqual([patched.key.name, patched.key.grants], ['ci-2', grants]);
    await documented(service, `PATCH ${one}`, url, 400, { grants: [{ bucket: 'B!', permission: 'read' }] });
    await documented(service, `PATCH ${one}`, '/v2/spaces/keys/DONOPE', 404, { name: 'x' });
    const put = await documented(service, `PUT ${one}`, url, 200, {
      name: 'ci-3',
      grants: [{ bucket: 'assets', permission: 'readwrite' }],
    });
    assert.deepEqual(put.key.grants, [{ bucket: 'assets', permission: 'readwrite' }]);
    await documented(service, `PUT ${one}`, url, 400, { name: 'ci-3' });
    await documented(service, `PUT ${one}`, '/v2/spaces/keys/DONOPE', 404, { name: 'x', grants });
    await documented(service, `DELETE ${one}`, `/v2/spaces/keys/${full.key.access_key}`, 204);
    await documented(service, `DELETE ${one}`, `/v2/spaces/keys/${full.key.access_key}`, 404);
    const left = await service.db.query('SELECT name FROM machines.spaces_keys');
    assert.deepEqual(left.rows, [{ name: 'ci-3' }]);
  } finally {
    await service.close();
  }
});
