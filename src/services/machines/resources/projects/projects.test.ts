import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../../../../test/db.js';
import { documented } from '../../check.test.js';
import { auth, startMachines, tokens, validCreate } from '../../support.test.js';

const unknown = '00000000-0000-4000-8000-000000000000';

test("every project operation answers as DigitalOcean's document says; resources follow droplets and volumes", async () => {
  const db = await createTestDatabase();
  let service = await startMachines({}, { db });
  try {
    // The account's default project exists from the start.
    const getDefault = 'GET /v2/projects/default';
    const first = (await documented(service, getDefault, '/v2/projects/default', 200)).project;
    assert.deepEqual(
      { ...first, id: 'x', created_at: 'x', updated_at: 'x' },
      {
        id: 'x',
        owner_uuid: first.owner_uuid,
        owner_id: 258992,
        name: 'first-project',
        description: '',
        purpose: 'Just trying out DigitalOcean',
        environment: 'Development',
        is_default: true,
        created_at: 'x',
        updated_at: 'x',
      },
    );
    await documented(service, getDefault, '/v2/projects/default', 403, undefined, tokens.create);

    // New droplets and volumes land in the default project.
    const droplet = (await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, validCreate))
      .droplet;
    const volume = (
      await documented(service, 'POST /v2/volumes', '/v2/volumes', 201, {
        name: 'v',
        size_gigabytes: 5,
        region: 'nyc3',
      })
    ).volume;
    const ofDefault = 'GET /v2/projects/default/resources';
    const held = await documented(service, ofDefault, '/v2/projects/default/resources', 200);
    assert.deepEqual(
      held.resources.map((r: { urn: string; status: string; links: { self: string } }) => [
        r.urn,
        r.status,
        r.links.self,
      ]),
      [
        [`do:droplet:${droplet.id}`, 'ok', `http://localhost:80/v2/droplets/${droplet.id}`],
        [`do:volume:${volume.id}`, 'ok', `http://localhost:80/v2/volumes/${volume.id}`],
      ],
    );
    await documented(
      service,
      ofDefault,
      '/v2/projects/default/resources',
      401,
      undefined,
      `dop_v1_${'e'.repeat(64)}`,
    );

    // Create: name and purpose required; a purpose not offered is kept as "Other: …".
    const create = 'POST /v2/projects';
    const made = (
      await documented(service, create, '/v2/projects', 201, {
        name: 'web',
        description: 'the site',
        purpose: 'a shop',
        environment: 'Production',
      })
    ).project;
    assert.deepEqual(
      [made.name, made.description, made.purpose, made.environment, made.is_default],
      ['web', 'the site', 'Other: a shop', 'Production', false],
    );
    const bad = async (body: object, status = 400) =>
      (await documented(service, create, '/v2/projects', status, body)).message;
    assert.equal(await bad({ name: 'x' }), 'purpose is required.');
    assert.equal(await bad({ purpose: 'IoT' }), 'name is required.');
    assert.equal(await bad({ name: 'x'.repeat(176), purpose: 'IoT' }), 'name must be 1 to 175 characters.');
    assert.equal(
      await bad({ name: 'x', purpose: 'IoT', environment: 'Test' }),
      'environment must be one of Development, Staging or Production.',
    );
    assert.equal(await bad({ name: 'WEB', purpose: 'IoT' }, 409), 'A project with this name already exists.');
    const listed = await documented(service, 'GET /v2/projects', '/v2/projects', 200);
    assert.deepEqual(
      listed.projects.map((p: { name: string }) => p.name),
      ['first-project', 'web'],
    );
    await documented(service, 'GET /v2/projects', '/v2/projects?per_page=0', 400);
    const one = 'GET /v2/projects/{project_id}';
    assert.deepEqual((await documented(service, one, `/v2/projects/${made.id}`, 200)).project, made);
    await documented(service, one, `/v2/projects/${unknown}`, 404);

    // Assigning moves resources from their project; the answer lists the project's resources.
    const assign = 'POST /v2/projects/{project_id}/resources';
    const assigned = await documented(service, assign, `/v2/projects/${made.id}/resources`, 200, {
      resources: [`do:droplet:${droplet.id}`],
    });
    assert.deepEqual(
      assigned.resources.map((r: { urn: string; status: string }) => [r.urn, r.status]),
      [[`do:droplet:${droplet.id}`, 'assigned']],
    );
    const assignBad = async (resources: string[], status = 400) =>
      (await documented(service, assign, `/v2/projects/${made.id}/resources`, status, { resources })).message;
    assert.equal(await assignBad(['droplet:1']), '"droplet:1" is not a valid URN (do:<type>:<id>).');
    assert.equal(await assignBad(['do:droplet:1'], 404), 'The resource do:droplet:1 could not be found.');
    assert.equal(
      await assignBad(['do:kubernetes:abc']),
      '"do:kubernetes:abc" is not a kind of resource projects hold here.',
    );
    await documented(service, assign, `/v2/projects/${unknown}/resources`, 404, {
      resources: [`do:volume:${volume.id}`],
    });
    const toDefault = 'POST /v2/projects/default/resources';
    await documented(service, toDefault, '/v2/projects/default/resources', 200, {
      resources: [`do:volume:${volume.id}`],
    });
    await documented(service, toDefault, '/v2/projects/default/resources', 400, { resources: [] });
    const ofOne = 'GET /v2/projects/{project_id}/resources';
    assert.deepEqual(
      (await documented(service, ofOne, `/v2/projects/${made.id}/resources`, 200)).resources.map(
        (r: { urn: string }) => r.urn,
      ),
      [`do:droplet:${droplet.id}`],
    );
    await documented(service, ofOne, `/v2/projects/${unknown}/resources`, 404);

    // Updates: PUT needs every field, PATCH at least one; is_default moves the default, never unsets it.
    const put = 'PUT /v2/projects/{project_id}';
    const patch = 'PATCH /v2/projects/{project_id}';
    const full = {
      name: 'web-2',
      description: '',
      purpose: 'Web Application',
      environment: 'Staging',
      is_default: false,
    };
    const replaced = (await documented(service, put, `/v2/projects/${made.id}`, 200, full)).project;
    assert.deepEqual(
      [replaced.name, replaced.purpose, replaced.environment],
      ['web-2', 'Web Application', 'Staging'],
    );
    assert.equal(
      (await documented(service, put, `/v2/projects/${made.id}`, 400, { name: 'x' })).message,
      'description is required.',
    );
    await documented(service, patch, `/v2/projects/${made.id}`, 400, {});
    const patched = (await documented(service, patch, `/v2/projects/${made.id}`, 200, { is_default: true }))
      .project;
    assert.deepEqual([patched.name, patched.is_default], ['web-2', true]);
    const putDefault = 'PUT /v2/projects/default';
    const patchDefault = 'PATCH /v2/projects/default';
    assert.equal(
      (await documented(service, patchDefault, '/v2/projects/default', 400, { is_default: false })).message,
      'The default project cannot be unset; make another project the default.',
    );
    assert.equal(
      (await documented(service, patchDefault, '/v2/projects/default', 200, { description: 'd' })).project.id,
      made.id,
    );
    await documented(service, putDefault, '/v2/projects/default', 200, {
      ...full,
      description: 'main',
      is_default: true,
    });
    await documented(service, putDefault, '/v2/projects/default', 400, { name: 'only' });
    // A droplet made now lands in the new default.
    const second = (
      await documented(service, 'POST /v2/droplets', '/v2/droplets', 202, { ...validCreate, name: 'w-2' })
    ).droplet;
    assert.deepEqual(
      (await documented(service, ofDefault, '/v2/projects/default/resources', 200)).resources.map(
        (r: { urn: string }) => r.urn,
      ),
      [`do:droplet:${droplet.id}`, `do:droplet:${second.id}`],
    );

    // A restart keeps projects and their resources.
    const reads = ['/v2/projects', '/v2/projects/default/resources', `/v2/projects/${first.id}/resources`];
    const read = async (url: string) => (await service.app.inject({ url, headers: auth() })).json();
    const before = await Promise.all(reads.map(read));
    await service.close();
    service = await startMachines({}, { db });
    assert.deepEqual(await Promise.all(reads.map(read)), before);

    // Deleting: never the default, never one with resources (412); deleted droplets and volumes leave projects.
    const del = 'DELETE /v2/projects/{project_id}';
    assert.equal(
      (await documented(service, del, `/v2/projects/${made.id}`, 403)).message,
      'The default project cannot be deleted.',
    );
    await documented(service, patch, `/v2/projects/${first.id}`, 200, { is_default: true });
    assert.equal(
      (await documented(service, del, `/v2/projects/${made.id}`, 412)).message,
      'cannot delete a project with resources. Move or remove the resources first',
    );
    await documented(service, 'DELETE /v2/droplets', '/v2/droplets?tag_name=none', 204);
    await documented(service, 'DELETE /v2/droplets/{droplet_id}', `/v2/droplets/${droplet.id}`, 204);
    await documented(service, 'DELETE /v2/droplets/{droplet_id}', `/v2/droplets/${second.id}`, 204);
    await documented(service, 'DELETE /v2/volumes/{volume_id}', `/v2/volumes/${volume.id}`, 204);
    assert.deepEqual((await db.query('SELECT urn FROM machines.project_resources')).rows, []);
    await documented(service, del, `/v2/projects/${made.id}`, 204);
    await documented(service, del, `/v2/projects/${made.id}`, 404);
    assert.deepEqual((await db.query('SELECT name FROM machines.projects')).rows, [
      { name: 'first-project' },
    ]);
  } finally {
    await service.close();
    await db.close();
  }
});
