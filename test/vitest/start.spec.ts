// The programmatic API from vitest (issue 21): `npm run test:vitest` (part of `npm test`).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Backlot, start } from '../../src/index.js';

describe('backlot from vitest', () => {
  let backlot: Backlot<'list' | 'employees'>;
  beforeAll(async () => {
    backlot = await start({ services: ['list', 'employees'] });
    await fetch(`${backlot.url('list')}/list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ item: 'milk' }),
    });
    await backlot.checkpoint('fixtures');
  }, 120_000);
  beforeEach(() => backlot.restore('fixtures'));
  afterAll(() => backlot.close());

  it('starts from the checkpoint, whatever the test before wrote', async () => {
    await fetch(`${backlot.url('list')}/list/1`, { method: 'DELETE' });
    await backlot.restore('fixtures');
    const items = await (await fetch(`${backlot.url('list')}/list`)).json();
    expect(items).toEqual([
      { id: 1, item: 'bread' },
      { id: 2, item: 'grapes' },
      { id: 3, item: 'milk' },
    ]);
  });

  it('gives the generated credentials as data', async () => {
    const { username, password } = backlot.services.employees.credentials;
    const auth = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    const created = await fetch(`${backlot.url('employees')}/api/2/create`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', age: 36 }),
    });
    expect(created.status).toBe(201);
  });

  it('reset brings back the seed', async () => {
    await backlot.reset(['list']);
    const items = await (await fetch(`${backlot.url('list')}/list`)).json();
    expect(items).toHaveLength(2);
  });
});
