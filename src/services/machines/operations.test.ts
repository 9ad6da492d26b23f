import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { startMachines } from './support.test.js';

const destroy = '/v2/droplets/{droplet_id}/destroy_with_associated_resources';

/**
 * The operations of DigitalOcean's document not served, by group as docs/machines.md lists them with the reason
 * ("Operations of DigitalOcean's document"). Serving one means taking it out of here (and out of that list).
 */
const leftOut: Record<string, string[]> = {
  'image create, update, delete, transfers and actions': [
    'POST /v2/images',
    'PUT /v2/images/{image_id}',
    'DELETE /v2/images/{image_id}',
    ...['', '/accept', '/cancel', '/decline'].map((p) => `POST /v2/images/{image_id}/account_transfer${p}`),
    'GET /v2/images/{image_id}/actions',
    'POST /v2/images/{image_id}/actions',
    'GET /v2/images/{image_id}/actions/{action_id}',
  ],
  'droplet backup policies and destroy-with-associated-resources': [
    'GET /v2/droplets/{droplet_id}/backups/policy',
    'GET /v2/droplets/backups/policies',
    'GET /v2/droplets/backups/supported_policies',
    `GET ${destroy}`,
    `DELETE ${destroy}/selective`,
    `DELETE ${destroy}/dangerous`,
    `GET ${destroy}/status`,
    `POST ${destroy}/retry`,
  ],
  'droplet neighbor reports': ['GET /v2/reports/droplet_neighbors_ids'],
  'reserved IPs and their actions': [
    'GET /v2/reserved_ips',
    'POST /v2/reserved_ips',
    'GET /v2/reserved_ips/{reserved_ip}',
    'DELETE /v2/reserved_ips/{reserved_ip}',
    'GET /v2/reserved_ips/{reserved_ip}/actions',
    'POST /v2/reserved_ips/{reserved_ip}/actions',
    'GET /v2/reserved_ips/{reserved_ip}/actions/{action_id}',
  ],
  VPCs: [
    'GET /v2/vpcs',
    'POST /v2/vpcs',
    ...['GET', 'PUT', 'PATCH', 'DELETE'].map((m) => `${m} /v2/vpcs/{vpc_id}`),
    'GET /v2/vpcs/{vpc_id}/members',
    'GET /v2/vpcs/{vpc_id}/peerings',
    'POST /v2/vpcs/{vpc_id}/peerings',
    'PATCH /v2/vpcs/{vpc_id}/peerings/{vpc_peering_id}',
  ],
  'projects and project resources': [
    'GET /v2/projects',
    'POST /v2/projects',
    ...['GET', 'PUT', 'PATCH'].map((m) => `${m} /v2/projects/default`),
    ...['GET', 'PUT', 'PATCH', 'DELETE'].map((m) => `${m} /v2/projects/{project_id}`),
    ...['GET', 'POST'].flatMap((m) => [
      `${m} /v2/projects/{project_id}/resources`,
      `${m} /v2/projects/default/resources`,
    ]),
  ],
};

test("every operation of DigitalOcean's document is served or listed as left out, never both", async () => {
  const document = JSON.parse(
    readFileSync(new URL('../../../test/oracles/digitalocean-openapi.json', import.meta.url), 'utf8'),
  ) as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  assert.equal(operations.length, 150);
  const listed = new Set(Object.values(leftOut).flat());
  const service = await startMachines();
  try {
    const served = operations.filter((op) => {
      const [method, path] = op.split(' ') as [string, string];
      return service.app.hasRoute({ method: method as 'GET', url: path.replace(/\{(\w+)\}/g, ':$1') });
    });
    assert.deepEqual(
      operations.filter((op) => !served.includes(op) && !listed.has(op)),
      [],
      'neither served nor left out',
    );
    assert.deepEqual(
      served.filter((op) => listed.has(op)),
      [],
      'served, yet listed as left out',
    );
    assert.deepEqual(
      [...listed].filter((op) => !operations.includes(op)),
      [],
      'not in the document',
    );
    assert.equal(served.length, 101);
  } finally {
    await service.close();
  }
});
