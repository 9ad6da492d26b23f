import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestService } from '../../../test/service.js';
import { parsePublicKey } from './resources/keys/sshkey.js';
import type { MachinesSettings } from './settings.js';
import { auth, startMachines, tokens, validCreate } from './support.test.js';

let service: TestService<MachinesSettings>;
before(async () => {
  service = await startMachines({ MACHINES_LIMIT: '3' });
});
after(() => service.close());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  token = tokens.full,
) => service.app.inject({ method, url, headers: auth(token), ...(payload ? { payload } : {}) });

// Made with ssh-keygen; the fingerprints are what `ssh-keygen -l -E md5` prints for them.
const ed25519 =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGIQitVLRodLs3IJ4TLFyHCjNELitRbpbMjiN3ijIJYF dev@backlot';
const ed25519Md5 = '56:e5:b5:4c:0d:bd:f9:7e:ba:04:18:37:62:71:47:27';
const rsa =
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDdQdWNp4AH3JpfDg8A7VxUORkVwdbOZxlwSdEqvfsL6iLvNQ1FNHFu8W/pXTapMgtZYpFUpnYxfe0oiHVLqoCUiKe0/82pPblYXFXg48XCH9FtLy5FmPPQ5+r/uvNpNL1HglBe45U5ATmaWDfMgm+M8uUU6Ug9Ykz/fNl0ePZfLbjLKIZ7+Ljp3qEjHlbfGF82DBkLu7yoHc14AfJg3cjS4Ht8I3q6YKF5q4ZfFJePcXilQLSIFjMZ3qIt9UjQQp2ZVcNaZxaw2dvyAe0zXzqZ+bqtZEaIkoou7rgUs/tqBnW9f/Ao+uhNob+1RkBH+F9nmj5OnKqhKGNWE1upe8aV ops';
const rsaMd5 = '98:96:d4:ed:a1:07:a2:04:c6:b5:e8:25:c8:8b:c2:a3';

describe('SSH keys', () => {
  test('public keys are parsed and fingerprinted with MD5 as ssh-keygen does; malformed ones are refused', () => {
    assert.deepEqual(parsePublicKey(ed25519), { type: 'ssh-ed25519', fingerprint: ed25519Md5 });
    assert.deepEqual(parsePublicKey(rsa), { type: 'ssh-rsa', fingerprint: rsaMd5 });
    const [type, blob] = ed25519.split(' ') as [string, string];
    assert.equal(parsePublicKey(`${type} ${blob}`)?.fingerprint, ed25519Md5, 'the comment is optional');
    assert.equal(parsePublicKey(`ssh-rsa ${blob}`), undefined, 'the blob names another type');
    assert.equal(parsePublicKey(`${type} ${blob.slice(0, -8)}`), undefined, 'truncated');
    assert.equal(parsePublicKey(`${type} not*base64`), undefined);
    assert.equal(parsePublicKey('ssh-foo AAAA'), undefined);
    assert.equal(parsePublicKey(''), undefined);
  });

  test('CRUD by id or fingerprint; creating a machine with ssh_keys checks they exist', async () => {
    const created = await call('POST', '/v2/account/keys', { name: 'laptop', public_key: ed25519 });
    assert.equal(created.statusCode, 201);
    const key = created.json().ssh_key;
    assert.deepEqual(key, { id: key.id, fingerprint: ed25519Md5, public_key: ed25519, name: 'laptop' });
    const again = await call('POST', '/v2/account/keys', { name: 'other', public_key: ed25519 });
    assert.equal(again.statusCode, 422);
    assert.equal(again.json().message, 'SSH Key is already in use on your account');
    const bad = await call('POST', '/v2/account/keys', { name: 'x', public_key: 'ssh-rsa AAAA' });
    assert.equal(bad.json().message, "Key invalid, key should be of the form 'type key [comment]'");
    assert.equal(
      (await call('POST', '/v2/account/keys', { public_key: rsa })).json().message,
      'name is required.',
    );
    const second = (await call('POST', '/v2/account/keys', { name: 'ops', public_key: rsa })).json().ssh_key;

    assert.deepEqual((await call('GET', `/v2/account/keys/${key.id}`)).json().ssh_key, key);
    assert.deepEqual((await call('GET', `/v2/account/keys/${ed25519Md5.toUpperCase()}`)).json().ssh_key, key);
    const renamed = await call('PUT', `/v2/account/keys/${ed25519Md5}`, { name: 'desk' });
    assert.equal(renamed.json().ssh_key.name, 'desk');
    const list = (await call('GET', '/v2/account/keys?per_page=1')).json();
    assert.equal(list.meta.total, 2);
    assert.deepEqual(
      list.ssh_keys.map((k: { name: string }) => k.name),
      ['desk'],
    );
    assert.equal((await call('GET', '/v2/account/keys/not-a-key')).statusCode, 404);

    const missing = await call('POST', '/v2/machines', { ...validCreate, ssh_keys: [key.id, 99] });
    assert.equal(missing.statusCode, 422);
    assert.equal(missing.json().message, 'ssh_keys: the SSH key 99 does not exist.');
    const withKeys = await call('POST', '/v2/machines', { ...validCreate, ssh_keys: [key.id, rsaMd5] });
    assert.equal(withKeys.statusCode, 202);
    const { rows } = await service.db.query<{ ssh_key_ids: number[] }>(
      'SELECT ssh_key_ids FROM machines.machines WHERE id = $1',
      [withKeys.json().machine.id],
    );
    assert.deepEqual(rows[0]?.ssh_key_ids, [key.id, second.id]);

    assert.equal(
      (await call('DELETE', `/v2/account/keys/${key.id}`, undefined, tokens.read)).statusCode,
      403,
    );
    assert.equal((await call('DELETE', `/v2/account/keys/${key.id}`)).statusCode, 204);
    assert.equal((await call('GET', `/v2/account/keys/${key.id}`)).statusCode, 404);
    await call('DELETE', `/v2/machines/${withKeys.json().machine.id}`);
  });
});

test('account: the machine limit, and status warning once it is reached', async () => {
  const account = (await call('GET', '/v2/account', undefined, tokens.read)).json().account;
  assert.equal(account.droplet_limit, 3);
  assert.equal(account.status, 'active');
  assert.equal(account.email_verified, true);
  assert.match(account.uuid, /^[0-9a-f]{40}$/);
  const created = await call('POST', '/v2/machines', {
    ...validCreate,
    name: undefined,
    names: ['l1', 'l2', 'l3'],
  });
  const full = (await call('GET', '/v2/account')).json().account;
  assert.equal(full.status, 'warning');
  assert.equal(full.status_message, 'The account has reached its limit of 3 droplets.');
  for (const m of created.json().machines) await call('DELETE', `/v2/machines/${m.id}`);
});

test('tags: created on their own or by tagging at create; tag and untag machines, images, volumes; filters', async () => {
  const m = (await call('POST', '/v2/machines', { ...validCreate, tags: ['web'] })).json().machine;
  const web = (await call('GET', '/v2/tags/web')).json().tag;
  assert.equal(web.resources.count, 1);
  assert.deepEqual(web.resources.droplets, {
    count: 1,
    last_tagged_uri: `http://localhost:80/v2/droplets/${m.id}`,
  });
  const created = await call('POST', '/v2/tags', { name: 'Prod' });
  assert.equal(created.statusCode, 201);
  assert.deepEqual(created.json().tag.resources.images, { count: 0 });

  await call('POST', `/v2/machines/${m.id}/actions`, { type: 'snapshot', name: 'snap' });
  const snapshot = (await call('GET', `/v2/machines/${m.id}/snapshots`)).json().snapshots[0];
  const volume = (await call('POST', '/v2/volumes', { name: 'v1', size_gigabytes: 1, region: 'nyc3' })).json()
    .volume;
  const tagged = await call('POST', '/v2/tags/Prod/resources', {
    resources: [
      { resource_id: String(m.id), resource_type: 'droplet' },
      { resource_id: String(snapshot.id), resource_type: 'image' },
      { resource_id: volume.id, resource_type: 'volume' },
    ],
  });
  assert.equal(tagged.statusCode, 204);
  const prod = (await call('GET', '/v2/tags/Prod')).json().tag;
  assert.equal(prod.resources.count, 3);
  assert.equal(prod.resources.last_tagged_uri, `http://localhost:80/v2/volumes/${volume.id}`);
  assert.deepEqual((await call('GET', `/v2/machines/${m.id}`)).json().machine.tags, ['web', 'Prod']);
  assert.equal((await call('GET', '/v2/machines?tag_name=Prod')).json().meta.total, 1);
  assert.deepEqual(
    (await call('GET', '/v2/images?tag_name=Prod')).json().images.map((i: { id: number }) => i.id),
    [snapshot.id],
  );
  assert.deepEqual((await call('GET', `/v2/volumes/${volume.id}`)).json().volume.tags, ['Prod']);

  const unknown = await call('POST', '/v2/tags/Prod/resources', {
    resources: [{ resource_id: '1', resource_type: 'droplet' }],
  });
  assert.equal(unknown.statusCode, 404);
  const wrongType = await call('POST', '/v2/tags/Prod/resources', {
    resources: [{ resource_id: '1', resource_type: 'database' }],
  });
  assert.equal(wrongType.statusCode, 422);
  await call('DELETE', '/v2/tags/Prod/resources', {
    resources: [{ resource_id: m.id, resource_type: 'droplet' }],
  });
  assert.deepEqual((await call('GET', `/v2/machines/${m.id}`)).json().machine.tags, ['web']);
  assert.deepEqual(
    (await call('GET', '/v2/tags')).json().tags.map((t: { name: string }) => t.name),
    ['Prod', 'web'],
  );
  assert.equal((await call('DELETE', '/v2/tags/Prod')).statusCode, 204);
  assert.deepEqual((await call('GET', `/v2/volumes/${volume.id}`)).json().volume.tags, []);
  assert.equal((await call('GET', '/v2/tags/Prod')).statusCode, 404);
  assert.equal((await call('POST', '/v2/tags', { name: 'no spaces' })).statusCode, 400);
  await call('DELETE', `/v2/machines/${m.id}`);
  await call('DELETE', `/v2/volumes/${volume.id}`);
});

test('images by id or slug; type and private filters; snapshots outlive their machine', async () => {
  assert.equal((await call('GET', '/v2/images/debian-12-x64')).json().image.id, 160000004);
  assert.equal((await call('GET', '/v2/images/160000004')).json().image.slug, 'debian-12-x64');
  assert.equal((await call('GET', '/v2/images/nope')).statusCode, 404);
  const m = (await call('POST', '/v2/machines', validCreate)).json().machine;
  await call('POST', `/v2/machines/${m.id}/actions`, { type: 'snapshot', name: 'keep-me' });
  await call('DELETE', `/v2/machines/${m.id}`);
  const own = (await call('GET', '/v2/images?private=true')).json();
  const snapshot = own.images.find((i: { name: string }) => i.name === 'keep-me');
  assert.deepEqual(
    [snapshot.type, snapshot.public, snapshot.slug, snapshot.regions],
    ['snapshot', false, null, ['nyc3']],
  );
  assert.deepEqual((await call('GET', `/v2/images/${snapshot.id}`)).json().image, snapshot);
  const distributions = (await call('GET', '/v2/images?type=distribution&per_page=50')).json();
  assert.equal(distributions.meta.total, 9);
  assert.ok(distributions.images.every((i: { public: boolean }) => i.public));
  assert.equal((await call('GET', '/v2/images?type=application')).json().meta.total, 0);
  const all = (await call('GET', '/v2/images?per_page=50')).json();
  assert.equal(all.meta.total, 9 + own.meta.total);
});

test('volumes: create, list by name and region, attach and detach through actions, delete', async () => {
  const m = (await call('POST', '/v2/machines', { ...validCreate, region: 'fra1' })).json().machine;
  const created = await call('POST', '/v2/volumes', {
    name: 'pg-data',
    size_gigabytes: 50,
    region: 'fra1',
    description: 'database',
    filesystem_type: 'xfs',
  });
  assert.equal(created.statusCode, 201);
  const volume = created.json().volume;
  assert.match(volume.id, /^[0-9a-f-]{36}$/);
  assert.deepEqual(
    [volume.droplet_ids, volume.region.slug, volume.filesystem_type, volume.description],
    [[], 'fra1', 'xfs', 'database'],
  );
  const dup = await call('POST', '/v2/volumes', { name: 'pg-data', size_gigabytes: 5, region: 'fra1' });
  assert.equal(dup.statusCode, 409);
  assert.equal(
    (await call('POST', '/v2/volumes', { name: 'x', size_gigabytes: 0, region: 'fra1' })).statusCode,
    422,
  );
  assert.equal((await call('GET', '/v2/volumes?name=pg-data&region=fra1')).json().meta.total, 1);
  assert.equal((await call('GET', '/v2/volumes?region=nyc1')).json().meta.total, 0);

  const attach = await call('POST', `/v2/volumes/${volume.id}/actions`, { type: 'attach', droplet_id: m.id });
  assert.equal(attach.statusCode, 202);
  const action = attach.json().action;
  assert.deepEqual(
    [action.type, action.resource_id, action.resource_type],
    ['attach_volume', null, 'volume'],
  );
  assert.deepEqual((await call('GET', `/v2/machines/${m.id}`)).json().machine.volume_ids, [volume.id]);
  assert.deepEqual((await call('GET', `/v2/volumes/${volume.id}`)).json().volume.droplet_ids, [m.id]);
  const other = (await call('POST', '/v2/machines', { ...validCreate, name: 'other' })).json().machine;
  const elsewhere = await call('POST', `/v2/volumes/${volume.id}/actions`, {
    type: 'attach',
    droplet_id: other.id,
  });
  assert.equal(elsewhere.json().message, 'The volume is already attached to a droplet.');
  const busy = await call('DELETE', `/v2/volumes/${volume.id}`);
  assert.equal(busy.statusCode, 409);
  const resized = await call('POST', '/v2/volumes/actions', {
    type: 'resize',
    volume_name: 'pg-data',
    region: 'fra1',
    size_gigabytes: 100,
  });
  assert.equal(resized.statusCode, 202);
  assert.equal((await call('GET', `/v2/volumes/${volume.id}`)).json().volume.size_gigabytes, 100);
  const detach = await call('POST', '/v2/volumes/actions', {
    type: 'detach',
    volume_name: 'pg-data',
    region: 'fra1',
    droplet_id: m.id,
  });
  assert.equal(detach.statusCode, 202);
  assert.deepEqual((await call('GET', `/v2/machines/${m.id}`)).json().machine.volume_ids, []);
  const actions = (await call('GET', `/v2/volumes/${volume.id}/actions`)).json();
  assert.deepEqual(
    actions.actions.map((a: { type: string }) => a.type),
    ['detach_volume', 'resize_volume', 'attach_volume'],
  );
  assert.equal((await call('DELETE', '/v2/volumes?name=pg-data&region=fra1')).statusCode, 204);
  assert.equal((await call('GET', `/v2/volumes/${volume.id}`)).statusCode, 404);
  await call('DELETE', `/v2/machines/${m.id}`);
  await call('DELETE', `/v2/machines/${other.id}`);
});

test('machine sub-resources: kernels, neighbors (none), and 404 for an unknown machine', async () => {
  const m = (await call('POST', '/v2/droplets', validCreate)).json().droplet;
  const kernels = (await call('GET', `/v2/droplets/${m.id}/kernels?per_page=2`)).json();
  assert.equal(kernels.meta.total, 4);
  assert.deepEqual(kernels.kernels[0], {
    id: 7515,
    name: 'DigitalOcean GrubLoader v0.2 (20160714)',
    version: '2016.07.13-DigitalOcean_loader_Ubuntu',
  });
  assert.deepEqual((await call('GET', `/v2/machines/${m.id}/neighbors`)).json(), { machines: [] });
  assert.deepEqual((await call('GET', `/v2/droplets/${m.id}/neighbors`)).json(), { droplets: [] });
  for (const sub of ['kernels', 'snapshots', 'backups', 'neighbors', 'actions'])
    assert.equal((await call('GET', `/v2/machines/1/${sub}`)).statusCode, 404, sub);
  await call('DELETE', `/v2/droplets/${m.id}`);
});
