import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createTestDatabase } from '../../../test/db.js';
import type { TestService } from '../../../test/service.js';
import type { Database } from '../../platform/database.js';
import { defaultVpcUuid } from './resources/catalog/data.js';
import type { MachinesSettings } from './settings.js';
import { auth, startMachines, tokens, validCreate } from './support.test.js';

let db: Database;
let service: TestService<MachinesSettings>;

before(async () => {
  db = await createTestDatabase();
  service = await startMachines({ MACHINES_LIMIT: '8' }, { db });
});
after(async () => {
  await service.close();
  await db.close();
});
beforeEach(async () => {
  await db.query('DELETE FROM machines.machines');
});

const create = (body: unknown, token = tokens.full, word = 'machines') =>
  service.app.inject({ method: 'POST', url: `/v2/${word}`, headers: auth(token), payload: body as object });
const get = (url: string, token = tokens.full) =>
  service.app.inject({ method: 'GET', url, headers: { ...auth(token), host: 'api.example.test:8084' } });
const del = (url: string, token = tokens.full) =>
  service.app.inject({ method: 'DELETE', url, headers: auth(token) });

const isoSeconds = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

function assertError(
  response: { statusCode: number; json(): Record<string, unknown>; headers: Record<string, unknown> },
  status: number,
  id: string,
  message?: string,
) {
  assert.equal(response.statusCode, status);
  const body = response.json();
  assert.deepEqual(Object.keys(body).sort(), ['id', 'message', 'request_id']);
  assert.equal(body.id, id);
  assert.equal(body.request_id, response.headers['x-request-id']);
  if (message !== undefined) assert.equal(body.message, message);
  return body;
}

describe('machines lifecycle', () => {
  test('create → list → get → delete, with the full machine object', async () => {
    const created = await create({ ...validCreate, tags: ['web', 'env:prod'], ipv6: true, monitoring: true });
    assert.equal(created.statusCode, 202);
    const body = created.json();
    assert.deepEqual(Object.keys(body).sort(), ['links', 'machine']);
    const m = body.machine;
    assert.equal(typeof m.id, 'number');
    assert.equal(m.name, 'web-1');
    assert.equal(m.memory, 1024);
    assert.equal(m.vcpus, 1);
    assert.equal(m.disk, 25);
    assert.equal(m.locked, false);
    assert.equal(m.kernel, null);
    assert.equal(m.next_backup_window, null);
    assert.match(m.created_at, isoSeconds);
    assert.deepEqual(m.features, ['ipv6', 'monitoring']);
    assert.deepEqual([m.backup_ids, m.snapshot_ids, m.volume_ids], [[], [], []]);
    assert.equal(m.size_slug, 's-1vcpu-1gb');
    assert.deepEqual(m.size, {
      slug: 's-1vcpu-1gb',
      memory: 1024,
      vcpus: 1,
      disk: 25,
      transfer: 1,
      price_monthly: 6,
      price_hourly: 0.00893,
      regions: ['nyc1', 'nyc3', 'sfo3', 'ams3', 'fra1', 'lon1', 'sgp1', 'tor1', 'blr1', 'syd1'],
      available: true,
      description: 'Basic',
    });
    assert.equal(m.region.slug, 'nyc3');
    assert.equal(m.region.name, 'New York 3');
    assert.equal(m.region.available, true);
    assert.ok(m.region.sizes.includes('s-1vcpu-1gb'));
    assert.equal(m.image.slug, 'ubuntu-24-04-x64');
    assert.equal(m.image.distribution, 'Ubuntu');
    assert.equal(m.image.public, true);
    assert.deepEqual(m.tags, ['web', 'env:prod']);
    assert.equal('vpc_uuid' in m, false, 'the create response has no vpc_uuid');
    assert.equal(body.links.actions.length, 1);
    const [action] = body.links.actions;
    assert.equal(action.rel, 'create');
    assert.equal(action.href, `http://localhost:80/v2/actions/${action.id}`);

    const listed = await get('/v2/machines');
    assert.equal(listed.statusCode, 200);
    const list = listed.json();
    assert.deepEqual(list.links, {});
    assert.deepEqual(list.meta, { total: 1 });
    assert.equal(list.machines.length, 1);
    const read = list.machines[0];
    assert.equal(read.id, m.id);
    assert.equal(read.status, 'active');
    assert.equal(read.vpc_uuid, defaultVpcUuid('nyc3'));
    assert.equal(read.networks.v4.length, 2);
    assert.deepEqual(
      read.networks.v4.map((n: { type: string }) => n.type),
      ['private', 'public'],
    );
    assert.equal(read.networks.v6.length, 1);
    assert.equal(read.networks.v6[0].netmask, 64);

    const one = await get(`/v2/machines/${m.id}`);
    assert.equal(one.statusCode, 200);
    assert.deepEqual(one.json(), { machine: read });

    const deleted = await del(`/v2/machines/${m.id}`);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    assertError(
      await get(`/v2/machines/${m.id}`),
      404,
      'not_found',
      'The resource you were accessing could not be found.',
    );
    assertError(await del(`/v2/machines/${m.id}`), 404, 'not_found');
    assert.deepEqual((await get('/v2/machines')).json().meta, { total: 0 });
  });

  test('names creates several at once, each with its own action', async () => {
    const created = await create({ ...validCreate, name: undefined, names: ['a1', 'a2', 'a3'] });
    assert.equal(created.statusCode, 202);
    const body = created.json();
    assert.deepEqual(
      body.machines.map((m: { name: string }) => m.name),
      ['a1', 'a2', 'a3'],
    );
    assert.equal(body.links.actions.length, 3);
    for (const a of body.links.actions) {
      assert.equal(a.rel, 'multiple_create');
      const action = await get(`/v2/actions/${a.id}`);
      assert.equal(action.statusCode, 200);
      assert.equal(action.json().action.type, 'create');
    }
  });

  test('the region is optional; a size not offered there picks one that offers it', async () => {
    const created = await create({ name: 'small', size: 's-1vcpu-512mb-10gb', image: 160000004 });
    assert.equal(created.statusCode, 202);
    assert.equal(created.json().machine.region.slug, 'nyc3');
    assert.equal(created.json().machine.image.slug, 'debian-12-x64');
    const byStringId = await create({
      name: 'small2',
      size: 's-2vcpu-4gb',
      image: '160000002',
      region: 'syd1',
    });
    assert.equal(byStringId.statusCode, 202);
    assert.equal(byStringId.json().machine.image.slug, 'ubuntu-22-04-x64');
  });

  test('tag_name filters the list and DELETE ?tag_name= removes only those', async () => {
    await create({ ...validCreate, name: 'a', tags: ['blue'] });
    await create({ ...validCreate, name: 'b', tags: ['blue', 'green'] });
    await create({ ...validCreate, name: 'c', tags: ['green'] });
    const blue = (await get('/v2/machines?tag_name=blue')).json();
    assert.deepEqual(
      blue.machines.map((m: { name: string }) => m.name),
      ['a', 'b'],
    );
    assert.deepEqual(blue.meta, { total: 2 });
    assert.deepEqual((await get('/v2/machines?tag_name=none')).json(), {
      machines: [],
      links: {},
      meta: { total: 0 },
    });
    const removed = await del('/v2/machines?tag_name=blue');
    assert.equal(removed.statusCode, 204);
    assert.equal(removed.body, '');
    const left = (await get('/v2/machines')).json();
    assert.deepEqual(
      left.machines.map((m: { name: string }) => m.name),
      ['c'],
    );
    assertError(
      await del('/v2/machines'),
      400,
      'bad_request',
      'tag_name is required to delete machines by tag',
    );
  });

  test('pagination: links.pages has first/prev/next/last where they apply, from the Host header', async () => {
    await create({ ...validCreate, name: undefined, names: ['p1', 'p2', 'p3', 'p4', 'p5'] });
    const base = 'http://api.example.test:8084/v2/machines';
    const first = (await get('/v2/machines?per_page=2&tag_name=')).json();
    assert.deepEqual(
      first.machines.map((m: { name: string }) => m.name),
      ['p1', 'p2'],
    );
    assert.deepEqual(first.meta, { total: 5 });
    assert.deepEqual(first.links, {
      pages: { next: `${base}?per_page=2&tag_name=&page=2`, last: `${base}?per_page=2&tag_name=&page=3` },
    });
    const middle = (await get('/v2/machines?page=2&per_page=2')).json();
    assert.deepEqual(
      middle.machines.map((m: { name: string }) => m.name),
      ['p3', 'p4'],
    );
    assert.deepEqual(middle.links.pages, {
      first: `${base}?page=1&per_page=2`,
      prev: `${base}?page=1&per_page=2`,
      next: `${base}?page=3&per_page=2`,
      last: `${base}?page=3&per_page=2`,
    });
    const last = (await get('/v2/machines?page=3&per_page=2')).json();
    assert.deepEqual(
      last.machines.map((m: { name: string }) => m.name),
      ['p5'],
    );
    assert.deepEqual(last.links.pages, {
      first: `${base}?page=1&per_page=2`,
      prev: `${base}?page=2&per_page=2`,
    });
    const capped = (await get('/v2/machines?page=2&per_page=500')).json();
    assert.deepEqual(capped.machines, []);
    assert.deepEqual(capped.links.pages, {
      first: `${base}?page=1&per_page=200`,
      prev: `${base}?page=1&per_page=200`,
    });
    assertError(await get('/v2/machines?page=0'), 400, 'bad_request');
    assertError(await get('/v2/machines?per_page=abc'), 400, 'bad_request');
  });

  test('the same resources are served at /v2/droplets with droplet keys', async () => {
    const created = await create({ ...validCreate, name: 'orig' }, tokens.full, 'droplets');
    assert.equal(created.statusCode, 202);
    const { droplet, links } = created.json();
    assert.equal(droplet.name, 'orig');
    const action = (await get(`/v2/actions/${links.actions[0].id}`)).json().action;
    assert.equal(action.resource_type, 'droplet');
    const list = (await get('/v2/droplets')).json();
    assert.deepEqual(Object.keys(list).sort(), ['droplets', 'links', 'meta']);
    assert.equal(list.droplets[0].id, droplet.id);
    const asMachine = (await get(`/v2/machines/${droplet.id}`)).json();
    assert.equal(asMachine.machine.id, droplet.id);
    assert.deepEqual((await get(`/v2/droplets/${droplet.id}`)).json(), { droplet: asMachine.machine });
    assert.equal((await del(`/v2/droplets/${droplet.id}`)).statusCode, 204);
    assertError(await get(`/v2/droplets/${droplet.id}`), 404, 'not_found');
  });
});

describe('bad input', () => {
  const invalid = (field: string) => `You specified an invalid ${field} for Machine creation.`;
  const cases: [string, unknown, string][] = [
    ['unknown size', { ...validCreate, size: 'huge' }, invalid('size')],
    ['unknown region', { ...validCreate, region: 'mars1' }, invalid('region')],
    ['unknown image', { ...validCreate, image: 'windows-95' }, invalid('image')],
    ['unknown image id', { ...validCreate, image: 42 }, invalid('image')],
    ['missing size', { ...validCreate, size: undefined }, 'You must specify a size for Machine creation.'],
    ['missing image', { ...validCreate, image: undefined }, 'You must specify a image for Machine creation.'],
    ['missing name', { ...validCreate, name: undefined }, 'You must specify a name for Machine creation.'],
    [
      'size not offered in the region',
      { ...validCreate, size: 's-1vcpu-512mb-10gb', region: 'blr1' },
      'The size s-1vcpu-512mb-10gb is not available in region blr1; choose another size or region.',
    ],
    [
      'bad name',
      { ...validCreate, name: 'web_1!' },
      'Name Only valid hostname characters are allowed. (a-z, A-Z, 0-9, . and -), at most 255',
    ],
    [
      'name too long',
      { ...validCreate, name: 'a'.repeat(256) },
      'Name Only valid hostname characters are allowed. (a-z, A-Z, 0-9, . and -), at most 255',
    ],
    ['bad tag', { ...validCreate, tags: ['has space'] }, invalid('tag ("has space")')],
    [
      'too many names',
      { ...validCreate, names: Array.from({ length: 11 }, (_, i) => `n${i}`) },
      'You may only create up to 10 Machines at a time (names).',
    ],
    [
      'user_data over 64 KiB',
      { ...validCreate, user_data: 'x'.repeat(65_537) },
      'user_data must be at most 64 KiB.',
    ],
    ['bad vpc_uuid', { ...validCreate, vpc_uuid: 'not-a-uuid' }, invalid('vpc_uuid')],
    ['wrong type', { ...validCreate, tags: { a: 1 } }, 'tags must be array'],
    ['wrong flag type', { ...validCreate, backups: 'maybe' }, 'backups must be boolean'],
    ['body is not an object', ['web'], 'The request body must be a JSON object.'],
  ];
  for (const [name, body, message] of cases) {
    test(`${name} → 422`, async () => {
      assertError(await create(body), 422, 'unprocessable_entity', message);
      assert.equal((await db.query('SELECT 1 FROM machines.machines')).rows.length, 0);
    });
  }

  test('a body that is not JSON → 400', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/v2/machines',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    assertError(response, 400, 'bad_request', 'error parsing request body');
  });

  test('a non-JSON content type → 415 in the same shape', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/v2/machines',
      headers: { ...auth(), 'content-type': 'text/plain' },
      payload: 'name=web',
    });
    assertError(response, 415, 'unsupported_media_type');
  });

  test('an oversized body → 413 in the same shape', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/v2/machines',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: JSON.stringify({ ...validCreate, user_data: 'x'.repeat(1_100_000) }),
    });
    assertError(response, 413, 'request_entity_too_large');
  });

  test('browsers: preflight needs no token, and the rate-limit headers are exposed', async () => {
    const origin = 'http://localhost:5173';
    const preflight = await service.app.inject({
      method: 'OPTIONS',
      url: '/v2/machines',
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], origin);
    const response = await service.app.inject({
      url: '/v2/machines',
      headers: { ...auth(), authorization: `bearer ${tokens.full}`, origin },
    });
    assert.equal(response.statusCode, 200);
    assert.match(
      String(response.headers['access-control-expose-headers']),
      /ratelimit-remaining.*retry-after/,
    );
  });

  test('ids that are not numbers and unknown routes → 404', async () => {
    assertError(await get('/v2/machines/abc'), 404, 'not_found');
    assertError(await get('/v2/machines/99999999999999'), 404, 'not_found');
    assertError(await get('/v2/actions/12'), 404, 'not_found');
    assertError(await get('/v2/nothing-here'), 404, 'not_found');
  });

  test('the account limit → 422 and nothing is created', async () => {
    assert.equal(
      (await create({ ...validCreate, names: ['l1', 'l2', 'l3', 'l4', 'l5', 'l6'] })).statusCode,
      202,
    );
    assertError(
      await create({ ...validCreate, names: ['l7', 'l8', 'l9'] }),
      422,
      'unprocessable_entity',
      'creating this/these machine(s) will exceed your machine limit',
    );
    assertError(
      await create({ ...validCreate, names: ['l7', 'l8', 'l9'] }, tokens.full, 'droplets'),
      422,
      'unprocessable_entity',
      'creating this/these droplet(s) will exceed your droplet limit',
    );
    assert.equal((await get('/v2/machines')).json().meta.total, 6);
    assert.equal((await create({ ...validCreate, names: ['l7', 'l8'] })).statusCode, 202);
  });
});

describe('auth and scopes', () => {
  const unauthorized = 'Unable to authenticate you';
  test('no token, a malformed one, or an unknown one → 401', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Basic ${tokens.full}` },
      { authorization: `Bearer dop_v1_${'f'.repeat(64)}` },
    ]) {
      const response = await service.app.inject({ method: 'GET', url: '/v2/machines', headers });
      assertError(response, 401, 'unauthorized', unauthorized);
      assert.equal(response.headers['ratelimit-limit'], '5000');
    }
    const post = await service.app.inject({ method: 'POST', url: '/v2/machines', payload: validCreate });
    assertError(post, 401, 'unauthorized', unauthorized);
    assertError(await service.app.inject({ method: 'GET', url: '/v2/regions' }), 401, 'unauthorized');
  });

  test('each route needs its scope → 403 otherwise', async () => {
    const forbidden = 'You do not have permission to perform this action.';
    assertError(await create(validCreate, tokens.read), 403, 'forbidden', forbidden);
    assertError(await create(validCreate, tokens.remove, 'droplets'), 403, 'forbidden', forbidden);
    const made = await create(validCreate, tokens.create);
    assert.equal(made.statusCode, 202);
    const id = made.json().machine.id;
    assertError(await get('/v2/machines', tokens.create), 403, 'forbidden', forbidden);
    assertError(await get(`/v2/machines/${id}`, tokens.remove), 403, 'forbidden');
    assert.equal((await get(`/v2/machines/${id}`, tokens.read)).statusCode, 200);
    assertError(await del(`/v2/machines/${id}`, tokens.read), 403, 'forbidden');
    assertError(await del('/v2/machines?tag_name=x', tokens.create), 403, 'forbidden');
    assert.equal((await del(`/v2/machines/${id}`, tokens.remove)).statusCode, 204);
    // The catalog needs a read scope too (regions:read, sizes:read), as DigitalOcean's document says.
    assertError(await get('/v2/sizes', tokens.remove), 403, 'forbidden', forbidden);
    assert.equal((await get('/v2/sizes', tokens.read)).statusCode, 200);
  });
});

describe('catalog', () => {
  test('regions, sizes and images, paginated like machines', async () => {
    const regions = (await get('/v2/regions?per_page=200')).json();
    assert.equal(regions.meta.total, 10);
    assert.deepEqual(regions.links, {});
    assert.deepEqual(
      regions.regions.map((r: { slug: string }) => r.slug),
      ['nyc1', 'nyc3', 'sfo3', 'ams3', 'fra1', 'lon1', 'sgp1', 'tor1', 'blr1', 'syd1'],
    );
    assert.equal(regions.regions[8].sizes.includes('s-1vcpu-512mb-10gb'), false);
    const sizes = (await get('/v2/sizes')).json();
    assert.deepEqual(
      sizes.sizes.map((s: { slug: string }) => s.slug),
      [
        's-1vcpu-512mb-10gb',
        's-1vcpu-1gb',
        's-1vcpu-2gb',
        's-2vcpu-2gb',
        's-2vcpu-4gb',
        's-4vcpu-8gb',
        's-8vcpu-16gb',
      ],
    );
    assert.equal(sizes.sizes[6].price_monthly, 96);
    const images = (await get('/v2/images?type=distribution&per_page=2')).json();
    assert.equal(images.images.length, 2);
    assert.equal(images.meta.total, 9);
    assert.equal(images.images[0].slug, 'ubuntu-24-04-x64');
    assert.equal(
      images.links.pages.last,
      'http://api.example.test:8084/v2/images?type=distribution&per_page=2&page=5',
    );
    assert.deepEqual((await get('/v2/images?type=application')).json().meta, { total: 0 });
  });

  test('the OpenAPI document describes both resource words', async () => {
    const doc = (await service.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of [
      '/v2/machines',
      '/v2/machines/{id}',
      '/v2/droplets',
      '/v2/actions/{id}',
      '/v2/regions',
    ]) {
      assert.ok(doc.paths[path], path);
    }
  });
});
