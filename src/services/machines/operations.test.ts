import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentedOperations, leftOutOperations } from '../../../test/oracles/digitalocean.js';
import { startMachines } from './support.test.js';

/** The routes themselves: every operation not in docs/machines.md's "Left out" list has a route, and none listed has. */
test("every operation of DigitalOcean's document is served or listed as left out, never both", async () => {
  const operations = documentedOperations();
  assert.equal(operations.length, 150);
  const listed = new Set(leftOutOperations().keys());
  const service = await startMachines();
  try {
    const served = operations.filter((op) => {
      const [method, path] = op.split(' ') as [string, string];
      // `/v2/projects/default…` is the `{project_id}` route, which takes `default` as an id.
      const url = path.replace('/projects/default', '/projects/{project_id}').replace(/\{(\w+)\}/g, ':$1');
      return service.app.hasRoute({ method: method as 'GET', url });
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
    assert.equal(served.length, 146);
  } finally {
    await service.close();
  }
});
