// Runs in a fresh project that installed the packed tarball (test/package/run.sh): the programmatic API from
// node:test, as a user's test suite gets it.
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { start } from 'backlot';

const backlot = await start({ services: ['list', 'employees'] });
after(() => backlot.close());

const items = async () => (await fetch(`${backlot.url('list')}/list`)).json();
const add = (item) =>
  fetch(`${backlot.url('list')}/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ item }),
  });

before(async () => {
  await add('milk');
  await backlot.checkpoint('fixtures');
});
beforeEach(() => backlot.restore('fixtures'));

test('two services on their own free ports', () => {
  assert.deepEqual(Object.keys(backlot.services).sort(), ['employees', 'list']);
  assert.match(backlot.url('list'), /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.notEqual(backlot.url('list'), backlot.url('employees'));
});

test('restore brings the checkpoint back, reset the seed', async () => {
  await add('eggs');
  assert.equal((await items()).length, 4);
  await backlot.restore('fixtures');
  assert.deepEqual(await items(), [
    { id: 1, item: 'bread' },
    { id: 2, item: 'grapes' },
    { id: 3, item: 'milk' },
  ]);
  await backlot.reset(['list']);
  assert.deepEqual(await items(), [
    { id: 1, item: 'bread' },
    { id: 2, item: 'grapes' },
  ]);
  assert.deepEqual(await backlot.checkpoints(), ['fixtures']);
});

test('the generated credentials work, and the journal shows the requests', async () => {
  const { username, password } = backlot.services.employees.credentials;
  backlot.clearRequests('employees');
  const res = await fetch(`${backlot.url('employees')}/api/2/employee/1`, {
    headers: { authorization: `Basic ${btoa(`${username}:${password}`)}` },
  });
  assert.equal(res.status, 200);
  const journal = backlot.requests('employees');
  assert.deepEqual(
    journal.map((e) => [e.method, e.path, e.status]),
    [['GET', '/api/2/employee/1', 200]],
  );
  assert.equal(journal[0].headers.authorization, '[redacted]');
});

test('faults changed while running: an injected error, then none', async () => {
  assert.deepEqual(backlot.faults('list'), { delayMs: '0', errorRate: 0, errorStatus: 503 });
  assert.deepEqual(backlot.setFaults('list', { errorRate: 1, errorStatus: 500 }), {
    delayMs: '0',
    errorRate: 1,
    errorStatus: 500,
  });
  const failed = await fetch(`${backlot.url('list')}/list`);
  assert.equal(failed.status, 500);
  assert.equal(failed.headers.get('x-backlot-fault'), 'status 500');
  backlot.setFaults('list', { errorRate: 0 });
  assert.equal((await fetch(`${backlot.url('list')}/list`)).status, 200);
  assert.throws(
    () => backlot.setFaults('list', { errorRate: 3 }),
    /errorRate: must be a number from 0 to 1, got "3"/,
  );
});
