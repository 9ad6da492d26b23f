import assert from 'node:assert/strict';
import { isIPv6 } from 'node:net';
import { after, before, test } from 'node:test';
import type { TestService } from '../../../test/service.js';
import type { MachinesSettings } from './settings.js';
import { auth, startMachines, validCreate } from './support.test.js';

// Issue 20's "found wrong" list, one test each (the 429's ratelimit-remaining is in lifecycle.test.ts).
let service: TestService<MachinesSettings>;
before(async () => {
  service = await startMachines();
});
after(() => service.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  service.app.inject({ method, url, headers: auth(), ...(payload ? { payload } : {}) });

test('IPv6 addresses and gateways are valid IPv6 (no group longer than four hex digits)', async () => {
  const created = await call('POST', '/v2/droplets', { ...validCreate, ipv6: true });
  const droplet = (await call('GET', `/v2/droplets/${created.json().droplet.id}`)).json().droplet;
  const [v6] = droplet.networks.v6;
  assert.ok(isIPv6(v6.ip_address), v6.ip_address);
  assert.ok(isIPv6(v6.gateway), v6.gateway);
  for (const group of v6.ip_address.split(':')) assert.ok(group.length <= 4, v6.ip_address);
  assert.equal(
    v6.ip_address,
    `2001:db8:2::${(droplet.id >>> 16).toString(16)}:${(droplet.id & 0xffff).toString(16)}`,
  );
});

test('volumes: [{"id": …}] (what godo sends) attaches the volume; an unknown one is a 422', async () => {
  const volume = (
    await call('POST', '/v2/volumes', { name: 'godo-vol', size_gigabytes: 10, region: 'nyc3' })
  ).json().volume;
  const created = await call('POST', '/v2/droplets', { ...validCreate, volumes: [{ id: volume.id }] });
  assert.equal(created.statusCode, 202, created.body);
  const id = created.json().droplet.id;
  assert.deepEqual(created.json().droplet.volume_ids, [volume.id]);
  assert.deepEqual((await call('GET', `/v2/volumes/${volume.id}`)).json().volume.droplet_ids, [id]);

  const unknown = await call('POST', '/v2/droplets', {
    ...validCreate,
    volumes: [{ id: '00000000-0000-4000-8000-000000000000' }],
  });
  assert.equal(unknown.statusCode, 422);
  assert.equal(
    unknown.json().message,
    'volumes: the volume {"id":"00000000-0000-4000-8000-000000000000"} does not exist.',
  );
  const taken = await call('POST', '/v2/droplets', { ...validCreate, volumes: [volume.id] });
  assert.equal(taken.json().message, 'volumes: the volume godo-vol is already attached.');
  await call('DELETE', `/v2/droplets/${id}`);
  assert.deepEqual((await call('GET', `/v2/volumes/${volume.id}`)).json().volume.droplet_ids, []);
});

test('?name= and ?type= filter the list (no size has a GPU, so type=gpus is empty)', async () => {
  await call('DELETE', '/v2/droplets?tag_name=filters');
  for (const name of ['alpha', 'beta', 'alpha'])
    await call('POST', '/v2/droplets', { ...validCreate, name, tags: ['filters'] });
  const byName = (await call('GET', '/v2/droplets?name=alpha&tag_name=filters')).json();
  assert.equal(byName.meta.total, 2);
  assert.deepEqual(
    byName.droplets.map((d: { name: string }) => d.name),
    ['alpha', 'alpha'],
  );
  assert.equal((await call('GET', '/v2/droplets?name=gamma')).json().meta.total, 0);
  const gpus = (await call('GET', '/v2/droplets?type=gpus')).json();
  assert.deepEqual([gpus.droplets, gpus.meta.total], [[], 0]);
  assert.equal((await call('GET', '/v2/droplets?type=droplets&tag_name=filters')).json().meta.total, 3);
  const bad = await call('GET', '/v2/droplets?type=tpus');
  assert.equal(bad.statusCode, 400);
});

test('a bodiless JSON DELETE to an unknown route is a 404, as a GET would be', async () => {
  for (const url of ['/v2/nothing', '/v2/droplets/1/nothing', '/v2/machines/1']) {
    const response = await service.app.inject({
      method: 'DELETE',
      url,
      headers: { ...auth(), 'content-type': 'application/json' },
    });
    assert.equal(response.statusCode, 404, url);
    assert.equal(response.json().id, 'not_found');
  }
  // A body that is not JSON is still refused as one.
  const broken = await service.app.inject({
    method: 'DELETE',
    url: '/v2/nothing',
    headers: { ...auth(), 'content-type': 'application/json' },
    payload: '{',
  });
  assert.equal(broken.statusCode, 400);
});

test('a droplet delete answers 204 with the JSON content type, as the provider does; other 204s carry none', async () => {
  const id = (await call('POST', '/v2/droplets', validCreate)).json().droplet.id;
  const deleted = await call('DELETE', `/v2/droplets/${id}`);
  assert.equal(deleted.statusCode, 204);
  assert.equal(deleted.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(deleted.body, '');
  const byTag = await call('DELETE', '/v2/machines?tag_name=none');
  assert.equal(byTag.headers['content-type'], 'application/json; charset=utf-8');
  await call('POST', '/v2/tags', { name: 'gone' });
  const tag = await call('DELETE', '/v2/tags/gone');
  assert.equal(tag.statusCode, 204);
  assert.equal(tag.headers['content-type'], undefined);
});

// Issue 38's "found wrong" list, one test each.
test('?name= matches droplet names case-insensitively, as the provider does', async () => {
  const id = (await call('POST', '/v2/droplets', { ...validCreate, name: 'Mixed-Case-1' })).json().droplet.id;
  const listed = (await call('GET', '/v2/droplets?name=mixed-case-1')).json();
  assert.deepEqual(
    listed.droplets.map((d: { id: number }) => d.id),
    [id],
  );
});

test("names ending in '-' or '.' are refused, as the provider's pattern says", async () => {
  for (const name of ['web-', 'web.']) {
    const refused = await call('POST', '/v2/droplets', { ...validCreate, name });
    assert.equal(refused.statusCode, 422, name);
  }
  assert.equal(
    (await call('POST', '/v2/droplets', { ...validCreate, names: ['ok-1', 'bad.'] })).statusCode,
    422,
  );
});

test('a region prefix ("nyc") deploys into a region of that city', async () => {
  const created = await call('POST', '/v2/droplets', { ...validCreate, region: 'nyc' });
  assert.equal(created.statusCode, 202, created.body);
  assert.match(created.json().droplet.region.slug, /^nyc\d$/);
  assert.equal((await call('POST', '/v2/droplets', { ...validCreate, region: 'xyz' })).statusCode, 422);
});

test('an invalid tag name is a 400, as the provider answers', async () => {
  const refused = await call('POST', '/v2/tags', { name: 'bad tag' });
  assert.equal(refused.statusCode, 400);
  const error = 'Error validating resource tag: "tag-name \\"bad tag\\" contains invalid characters"';
  assert.deepEqual(refused.json(), {
    id: 'bad_request',
    message: error,
    error,
    messages: null,
    root_causes: [`rpc error: code = InvalidArgument desc = ${error}`],
    request_id: refused.headers['x-request-id'],
  });
  const notJson = await service.app.inject({
    method: 'POST',
    url: '/v2/tags',
    headers: { ...auth(), 'content-type': 'application/json' },
    payload: '{',
  });
  assert.deepEqual(Object.keys(notJson.json()).sort(), ['id', 'message', 'request_id']);
});

test('a filesystem_label over 16 characters is refused', async () => {
  const body = { name: 'labelled', size_gigabytes: 1, region: 'nyc3', filesystem_type: 'ext4' };
  const refused = await call('POST', '/v2/volumes', { ...body, filesystem_label: 'a'.repeat(17) });
  assert.equal(refused.statusCode, 422);
  assert.equal(refused.json().message, 'filesystem_label must be at most 16 characters.');
  assert.equal(
    (await call('POST', '/v2/volumes', { ...body, filesystem_label: 'a'.repeat(16) })).statusCode,
    201,
  );
});

test('attach tags the volume with the tags it names', async () => {
  const volume = (
    await call('POST', '/v2/volumes', { name: 'to-tag', size_gigabytes: 1, region: 'nyc3' })
  ).json().volume;
  const droplet = (await call('POST', '/v2/droplets', validCreate)).json().droplet;
  const attached = await call('POST', `/v2/volumes/${volume.id}/actions`, {
    type: 'attach',
    droplet_id: droplet.id,
    tags: ['attached-vol'],
  });
  assert.equal(attached.statusCode, 202, attached.body);
  assert.deepEqual((await call('GET', `/v2/volumes/${volume.id}`)).json().volume.tags, ['attached-vol']);
  assert.equal((await call('GET', '/v2/tags/attached-vol')).json().tag.resources.volumes.count, 1);
});

test("the account's limit message names droplets, the provider's word", async () => {
  const limited = await startMachines({ MACHINES_LIMIT: '1' });
  try {
    await limited.app.inject({ method: 'POST', url: '/v2/droplets', headers: auth(), payload: validCreate });
    const account = (await limited.app.inject({ method: 'GET', url: '/v2/account', headers: auth() })).json();
    assert.equal(account.account.status_message, 'The account has reached its limit of 1 droplets.');
  } finally {
    await limited.close();
  }
});

test('tags keep their first spelling: CaseTag then casetag is one tag, named CaseTag everywhere', async () => {
  assert.equal((await call('POST', '/v2/tags', { name: 'CaseTag' })).json().tag.name, 'CaseTag');
  const again = await call('POST', '/v2/tags', { name: 'casetag' });
  assert.equal(again.statusCode, 201);
  assert.equal(again.json().tag.name, 'CaseTag');
  const droplet = (await call('POST', '/v2/droplets', { ...validCreate, tags: ['CASETAG'] })).json().droplet;
  assert.deepEqual(droplet.tags, ['CaseTag']);
  const volume = (
    await call('POST', '/v2/volumes', {
      name: 'case-vol',
      size_gigabytes: 1,
      region: 'nyc3',
      tags: ['caseTAG'],
    })
  ).json().volume;
  assert.deepEqual(volume.tags, ['CaseTag']);
  const tag = (await call('GET', '/v2/tags/casetag')).json().tag;
  assert.deepEqual([tag.name, tag.resources.droplets.count, tag.resources.volumes.count], ['CaseTag', 1, 1]);
  const stored = await service.db.query("SELECT name FROM machines.tags WHERE lower(name) = 'casetag'");
  assert.deepEqual(stored.rows, [{ name: 'CaseTag' }]);
});
