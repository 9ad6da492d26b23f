import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import {
  assertMatchesOracle,
  documentedOperations,
  leftOutOperations,
} from '../../../test/oracles/digitalocean.js';
import type { TestService } from '../../../test/service.js';
import type { MachinesSettings } from './settings.js';
import { auth, startMachines, tokens } from './support.test.js';

/**
 * Every operation served under the provider's words, its successes and its errors, checked against the schemas of
 * DigitalOcean's own OpenAPI document. Rows run in order on one service; `{name}` in a URL or body is a value an
 * earlier row saved.
 */
interface Row {
  /** The documented operation: method and path template as in the document. */
  op: string;
  url: string;
  status: number;
  body?: unknown;
  token?: string;
  /** Saves values for later rows. */
  // biome-ignore lint/suspicious/noExplicitAny: each row reads its own response shape
  save?: (body: Record<string, any>, saved: Record<string, string>) => void;
}

const ed25519 =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGIQitVLRodLs3IJ4TLFyHCjNELitRbpbMjiN3ijIJYF dev@backlot';
const stranger = `dop_v1_${'e'.repeat(64)}`;
const unknownVolume = '00000000-0000-4000-8000-000000000000';

const rows: Row[] = [
  { op: 'GET /v2/account', url: '/v2/account', status: 200 },
  { op: 'GET /v2/account', url: '/v2/account', status: 401, token: stranger },
  { op: 'GET /v2/regions', url: '/v2/regions', status: 200 },
  { op: 'GET /v2/sizes', url: '/v2/sizes?per_page=3', status: 200 },
  { op: 'GET /v2/images', url: '/v2/images?type=distribution', status: 200 },
  { op: 'GET /v2/images/{image_id}', url: '/v2/images/ubuntu-24-04-x64', status: 200 },
  { op: 'GET /v2/images/{image_id}', url: '/v2/images/99', status: 404 },
  {
    op: 'POST /v2/account/keys',
    url: '/v2/account/keys',
    status: 201,
    body: { name: 'laptop', public_key: ed25519 },
    save: (b, s) => {
      s.key = String(b.ssh_key.id);
      s.fingerprint = b.ssh_key.fingerprint;
    },
  },
  {
    op: 'POST /v2/account/keys',
    url: '/v2/account/keys',
    status: 422,
    body: { name: 'x', public_key: 'ssh-rsa nope' },
  },
  { op: 'GET /v2/account/keys', url: '/v2/account/keys', status: 200 },
  { op: 'GET /v2/account/keys/{ssh_key_identifier}', url: '/v2/account/keys/{fingerprint}', status: 200 },
  { op: 'GET /v2/account/keys/{ssh_key_identifier}', url: '/v2/account/keys/1', status: 404 },
  {
    op: 'PUT /v2/account/keys/{ssh_key_identifier}',
    url: '/v2/account/keys/{key}',
    status: 200,
    body: { name: 'desk' },
  },
  {
    op: 'POST /v2/volumes',
    url: '/v2/volumes',
    status: 201,
    body: { name: 'data-1', size_gigabytes: 10, region: 'nyc3', filesystem_type: 'ext4', tags: ['db'] },
    save: (b, s) => {
      s.volume = b.volume.id;
    },
  },
  {
    op: 'POST /v2/volumes',
    url: '/v2/volumes',
    status: 422,
    body: { name: 'Bad Name', size_gigabytes: 10, region: 'nyc3' },
  },
  {
    op: 'POST /v2/droplets',
    url: '/v2/droplets',
    status: 202,
    body: {
      name: 'web-1',
      region: 'nyc3',
      size: 's-1vcpu-1gb',
      image: 'ubuntu-24-04-x64',
      ssh_keys: ['{fingerprint}'],
      volumes: [{ id: '{volume}' }],
      tags: ['web'],
      ipv6: true,
    },
    save: (b, s) => {
      s.droplet = String(b.droplet.id);
      s.createAction = String(b.links.actions[0].id);
    },
  },
  {
    op: 'POST /v2/droplets',
    url: '/v2/droplets',
    status: 202,
    body: { names: ['web-2', 'web-3'], size: 's-1vcpu-1gb', image: 'debian-12-x64', tags: ['web'] },
  },
  {
    op: 'POST /v2/droplets',
    url: '/v2/droplets',
    status: 422,
    body: { name: 'x', size: 'huge', image: 'debian-12-x64' },
  },
  { op: 'POST /v2/droplets', url: '/v2/droplets', status: 403, token: tokens.read, body: { name: 'x' } },
  { op: 'GET /v2/droplets', url: '/v2/droplets?tag_name=web&per_page=2', status: 200 },
  { op: 'GET /v2/droplets', url: '/v2/droplets?type=gpus', status: 200 },
  { op: 'GET /v2/droplets', url: '/v2/droplets?page=0', status: 400 },
  { op: 'GET /v2/droplets/{droplet_id}', url: '/v2/droplets/{droplet}', status: 200 },
  { op: 'GET /v2/droplets/{droplet_id}', url: '/v2/droplets/1', status: 404 },
  { op: 'GET /v2/actions/{action_id}', url: '/v2/actions/{createAction}', status: 200 },
  { op: 'GET /v2/actions/{action_id}', url: '/v2/actions/7', status: 404 },
  ...[
    { type: 'power_off' },
    { type: 'resize', size: 's-2vcpu-4gb', disk: true },
    { type: 'power_on' },
    { type: 'shutdown' },
    { type: 'power_on' },
    { type: 'reboot' },
    { type: 'power_cycle' },
    { type: 'rename', name: 'web-1b' },
    { type: 'snapshot', name: 'before-upgrade' },
    { type: 'enable_backups', backup_policy: { plan: 'weekly', weekday: 'SUN', hour: 4 } },
    { type: 'change_backup_policy', backup_policy: { plan: 'daily', hour: 8 } },
    { type: 'change_kernel', kernel: 7515 },
    { type: 'enable_private_networking' },
    { type: 'password_reset' },
    { type: 'rebuild', image: 'debian-12-x64' },
    { type: 'disable_backups' },
  ].map(
    (body): Row => ({
      op: 'POST /v2/droplets/{droplet_id}/actions',
      url: '/v2/droplets/{droplet}/actions',
      status: 201,
      body,
      save: (b, s) => {
        s.action = String(b.action.id);
      },
    }),
  ),
  {
    op: 'POST /v2/droplets/{droplet_id}/actions',
    url: '/v2/droplets/{droplet}/actions',
    status: 422,
    body: { type: 'power_on' },
  },
  {
    op: 'POST /v2/droplets/{droplet_id}/actions',
    url: '/v2/droplets/{droplet}/actions',
    status: 422,
    body: { type: 'enable_ipv6' },
  },
  {
    op: 'POST /v2/droplets/{droplet_id}/actions',
    url: '/v2/droplets/1/actions',
    status: 404,
    body: { type: 'reboot' },
  },
  {
    op: 'GET /v2/droplets/{droplet_id}/snapshots',
    url: '/v2/droplets/{droplet}/snapshots',
    status: 200,
    save: (b, s) => {
      s.snapshot = String(b.snapshots[0].id);
    },
  },
  {
    op: 'GET /v2/droplets/{droplet_id}/backups',
    url: '/v2/droplets/{droplet}/backups',
    status: 200,
    save: (b, s) => {
      s.backup = String(b.backups[0].id);
    },
  },
  {
    op: 'POST /v2/droplets/{droplet_id}/actions',
    url: '/v2/droplets/{droplet}/actions',
    status: 201,
    body: { type: 'restore', image: '{backup}' },
  },
  { op: 'GET /v2/droplets/{droplet_id}/snapshots', url: '/v2/droplets/1/snapshots', status: 404 },
  { op: 'GET /v2/droplets/{droplet_id}/backups', url: '/v2/droplets/1/backups', status: 404 },
  { op: 'GET /v2/droplets/{droplet_id}/kernels', url: '/v2/droplets/{droplet}/kernels', status: 200 },
  { op: 'GET /v2/droplets/{droplet_id}/kernels', url: '/v2/droplets/1/kernels', status: 404 },
  { op: 'GET /v2/droplets/{droplet_id}/neighbors', url: '/v2/droplets/{droplet}/neighbors', status: 200 },
  { op: 'GET /v2/droplets/{droplet_id}/neighbors', url: '/v2/droplets/1/neighbors', status: 404 },
  { op: 'GET /v2/droplets/{droplet_id}/actions', url: '/v2/droplets/{droplet}/actions', status: 200 },
  { op: 'GET /v2/droplets/{droplet_id}/actions', url: '/v2/droplets/1/actions', status: 404 },
  {
    op: 'GET /v2/droplets/{droplet_id}/actions/{action_id}',
    url: '/v2/droplets/{droplet}/actions/{action}',
    status: 200,
  },
  {
    op: 'GET /v2/droplets/{droplet_id}/actions/{action_id}',
    url: '/v2/droplets/{droplet}/actions/1',
    status: 404,
  },
  {
    op: 'POST /v2/droplets/actions',
    url: '/v2/droplets/actions?tag_name=web',
    status: 201,
    body: { type: 'enable_ipv6' },
  },
  {
    op: 'POST /v2/droplets/actions',
    url: '/v2/droplets/actions?tag_name=web',
    status: 422,
    body: { type: 'resize' },
  },
  { op: 'GET /v2/actions', url: '/v2/actions?per_page=5', status: 200 },
  { op: 'GET /v2/images', url: '/v2/images?private=true', status: 200 },
  { op: 'GET /v2/images/{image_id}', url: '/v2/images/{snapshot}', status: 200 },
  { op: 'POST /v2/tags', url: '/v2/tags', status: 201, body: { name: 'prod' } },
  { op: 'POST /v2/tags', url: '/v2/tags', status: 400, body: { name: 'not valid!' } },
  {
    op: 'POST /v2/tags/{tag_id}/resources',
    url: '/v2/tags/prod/resources',
    status: 204,
    body: {
      resources: [
        { resource_id: '{droplet}', resource_type: 'droplet' },
        { resource_id: '{volume}', resource_type: 'volume' },
        { resource_id: '{snapshot}', resource_type: 'image' },
      ],
    },
  },
  {
    op: 'POST /v2/tags/{tag_id}/resources',
    url: '/v2/tags/nope/resources',
    status: 404,
    body: { resources: [{ resource_id: '{droplet}', resource_type: 'droplet' }] },
  },
  { op: 'GET /v2/tags', url: '/v2/tags', status: 200 },
  { op: 'GET /v2/tags/{tag_id}', url: '/v2/tags/prod', status: 200 },
  { op: 'GET /v2/tags/{tag_id}', url: '/v2/tags/nope', status: 404 },
  {
    op: 'DELETE /v2/tags/{tag_id}/resources',
    url: '/v2/tags/prod/resources',
    status: 204,
    body: { resources: [{ resource_id: '{volume}', resource_type: 'volume' }] },
  },
  {
    op: 'DELETE /v2/tags/{tag_id}/resources',
    url: '/v2/tags/prod/resources',
    status: 404,
    body: { resources: [{ resource_id: '1', resource_type: 'droplet' }] },
  },
  { op: 'GET /v2/volumes', url: '/v2/volumes?region=nyc3', status: 200 },
  { op: 'GET /v2/volumes/{volume_id}', url: '/v2/volumes/{volume}', status: 200 },
  { op: 'GET /v2/volumes/{volume_id}', url: `/v2/volumes/${unknownVolume}`, status: 404 },
  { op: 'DELETE /v2/volumes/{volume_id}', url: `/v2/volumes/${unknownVolume}`, status: 404 },
  {
    op: 'POST /v2/volumes/{volume_id}/actions',
    url: '/v2/volumes/{volume}/actions',
    status: 202,
    body: { type: 'detach', droplet_id: '{droplet}' },
    save: (b, s) => {
      s.volumeAction = String(b.action.id);
    },
  },
  {
    op: 'POST /v2/volumes/{volume_id}/actions',
    url: '/v2/volumes/{volume}/actions',
    status: 422,
    body: { type: 'detach', droplet_id: '{droplet}' },
  },
  {
    op: 'POST /v2/volumes/actions',
    url: '/v2/volumes/actions',
    status: 202,
    body: { type: 'attach', volume_name: 'data-1', region: 'nyc3', droplet_id: '{droplet}' },
  },
  {
    op: 'POST /v2/volumes/actions',
    url: '/v2/volumes/actions',
    status: 404,
    body: { type: 'attach', volume_name: 'none' },
  },
  { op: 'GET /v2/volumes/{volume_id}/actions', url: '/v2/volumes/{volume}/actions', status: 200 },
  {
    op: 'GET /v2/volumes/{volume_id}/actions/{action_id}',
    url: '/v2/volumes/{volume}/actions/{volumeAction}',
    status: 200,
  },
  {
    op: 'GET /v2/volumes/{volume_id}/actions/{action_id}',
    url: '/v2/volumes/{volume}/actions/1',
    status: 404,
  },
  {
    op: 'POST /v2/volumes/{volume_id}/actions',
    url: '/v2/volumes/{volume}/actions',
    status: 202,
    body: { type: 'detach', droplet_id: '{droplet}' },
  },
  {
    op: 'POST /v2/volumes',
    url: '/v2/volumes',
    status: 201,
    body: { name: 'scratch', size_gigabytes: 5, region: 'ams3' },
  },
  { op: 'DELETE /v2/volumes', url: '/v2/volumes?name=scratch&region=ams3', status: 204 },
  { op: 'DELETE /v2/volumes', url: '/v2/volumes?name=scratch&region=ams3', status: 404 },
  { op: 'DELETE /v2/volumes/{volume_id}', url: '/v2/volumes/{volume}', status: 204 },
  { op: 'DELETE /v2/tags/{tag_id}', url: '/v2/tags/prod', status: 204 },
  { op: 'DELETE /v2/tags/{tag_id}', url: '/v2/tags/prod', status: 404 },
  { op: 'DELETE /v2/account/keys/{ssh_key_identifier}', url: '/v2/account/keys/{key}', status: 204 },
  { op: 'DELETE /v2/account/keys/{ssh_key_identifier}', url: '/v2/account/keys/{key}', status: 404 },
  { op: 'DELETE /v2/droplets/{droplet_id}', url: '/v2/droplets/{droplet}', status: 204 },
  {
    op: 'DELETE /v2/droplets/{droplet_id}',
    url: '/v2/droplets/{droplet}',
    status: 404,
    token: tokens.remove,
  },
  { op: 'DELETE /v2/droplets', url: '/v2/droplets?tag_name=web', status: 204 },
  { op: 'DELETE /v2/droplets', url: '/v2/droplets', status: 400 },
  { op: 'GET /v2/regions', url: '/v2/regions', status: 401, token: stranger },
  { op: 'GET /v2/sizes', url: '/v2/sizes?per_page=0', status: 400 },
  { op: 'GET /v2/images', url: '/v2/images?page=x', status: 400 },
  { op: 'GET /v2/account/keys', url: '/v2/account/keys', status: 403, token: tokens.create },
  {
    op: 'PUT /v2/account/keys/{ssh_key_identifier}',
    url: '/v2/account/keys/1',
    status: 404,
    body: { name: 'n' },
  },
  { op: 'GET /v2/actions', url: '/v2/actions', status: 401, token: stranger },
  { op: 'GET /v2/tags', url: '/v2/tags?per_page=-1', status: 400 },
  { op: 'GET /v2/volumes', url: '/v2/volumes', status: 403, token: tokens.remove },
  { op: 'GET /v2/volumes/{volume_id}/actions', url: '/v2/volumes/{volume}/actions', status: 404 },
];

let service: TestService<MachinesSettings>;
before(async () => {
  service = await startMachines();
});
after(() => service.close());

/** `{name}` replaced by a saved value; a whole-string placeholder of digits becomes a number. */
function fill(value: unknown, saved: Record<string, string>): unknown {
  if (typeof value === 'string') {
    const whole = /^\{(\w+)\}$/.exec(value);
    const replaced = value.replace(/\{(\w+)\}/g, (_, name: string) => {
      assert.ok(name in saved, `nothing saved as ${name}`);
      return saved[name] as string;
    });
    return whole && /^\d+$/.test(replaced) && !['fingerprint', 'backup'].includes(whole[1] as string)
      ? Number(replaced)
      : replaced;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, saved));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, saved)]));
  return value;
}

test("every response of every operation matches DigitalOcean's OpenAPI document", async () => {
  const saved: Record<string, string> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const [method, path] = row.op.split(' ') as [string, string];
    const url = fill(row.url, saved) as string;
    const response = await service.app.inject({
      method: method as 'GET',
      url,
      headers: { ...auth(row.token), 'content-type': 'application/json' },
      ...(row.body === undefined ? {} : { payload: JSON.stringify(fill(row.body, saved)) }),
    });
    const where = `${method} ${url} (${row.op})`;
    assert.equal(response.statusCode, row.status, `${where}: ${response.body}`);
    const body = response.body === '' ? '' : response.json();
    assertMatchesOracle(method, path, row.status, body);
    if (row.status >= 400) assert.equal(body.request_id, response.headers['x-request-id'], where);
    if (row.status === 204) {
      // The document says which 204s carry a content type: the droplet deletes.
      const typed = path.startsWith('/v2/droplets');
      assert.equal(
        response.headers['content-type'],
        typed ? 'application/json; charset=utf-8' : undefined,
        where,
      );
    }
    row.save?.(body, saved);
    seen.add(`${row.op} ${row.status < 400 ? 'ok' : 'error'}`);
  }
  // Every operation was tried with a success and with an error.
  const ops = new Set(rows.map((r) => r.op));
  const untried = [...ops].flatMap((op) =>
    ['ok', 'error'].filter((k) => !seen.has(`${op} ${k}`)).map((k) => `${op} ${k}`),
  );
  assert.deepEqual(untried, []);
  assert.equal(ops.size, 40);
});

test('the oracle refuses what the document does not allow, and takes its nullable fields', () => {
  assert.throws(
    () => assertMatchesOracle('GET', '/v2/droplets/{droplet_id}', 200, { droplet: { id: 'x' } }),
    /must be integer/,
  );
  assert.throws(
    () => assertMatchesOracle('GET', '/v2/actions/{action_id}', 200, { action: { id: 1, status: 'done' } }),
    /must be equal to one of the allowed values/,
  );
  assert.throws(
    () => assertMatchesOracle('GET', '/v2/account', 404, { message: 'no id' }),
    /required property 'id'/,
  );
  assertMatchesOracle('GET', '/v2/actions/{action_id}', 200, {
    action: { id: 1, status: 'in-progress', completed_at: null, resource_id: null, region_slug: null },
  });
});

/**
 * An operation of the document is served when a machines test checks it against the document: named, as
 * `'METHOD /v2/…'` or `` `METHOD ${path}` `` with `path` a constant of the file, in a file that validates through
 * the oracle (contract rows here, `documented()` in the resource tests, which assert a success and an error each).
 * Every other operation must be in docs/machines.md's "Left out" list, one `` - `METHOD /v2/…`: reason `` a line.
 */
test('every operation of the document is either served or listed as left out with a reason', () => {
  const root = new URL('./', import.meta.url);
  const served = new Set<string>();
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.test.ts')) continue;
    const text = readFileSync(new URL(file, root), 'utf8');
    if (!/\bdocumented\(|assertMatchesOracle\(/.test(text)) continue;
    // Path constants, `'/v2/…'` or built from another (`${one}/droplets`), in the order they are written.
    const constants = new Map<string, string>();
    for (const m of text.matchAll(/const (\w+) = (?:'(\/v2\/[^']*)'|`\$\{(\w+)\}([^`$]*)`)/g)) {
      const path =
        m[2] ?? (constants.has(m[3] as string) ? `${constants.get(m[3] as string)}${m[4]}` : undefined);
      if (path) constants.set(m[1] as string, path);
    }
    for (const m of text.matchAll(/'((?:GET|POST|PUT|PATCH|DELETE) \/v2\/[^']*)'/g))
      served.add(m[1] as string);
    for (const m of text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) \$\{(\w+)\}([^`$]*)`/g)) {
      const path = constants.get(m[2] as string);
      if (path) served.add(`${m[1]} ${path}${m[3]}`);
    }
  }
  const leftOut = leftOutOperations();
  const operations = documentedOperations();
  assert.equal(operations.length, 150);
  const neither = operations.filter((op) => !served.has(op) && !leftOut.has(op));
  const both = operations.filter((op) => served.has(op) && leftOut.has(op));
  const unknown = [...leftOut.keys()].filter((op) => !operations.includes(op));
  assert.deepEqual({ neither, both, unknown }, { neither: [], both: [], unknown: [] });
});
