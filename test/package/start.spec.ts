// Runs in a fresh project that installed the packed tarball (test/package/run.sh): the programmatic API from
// vitest, type-checked there under strict as well.

import { type Backlot, start } from 'backlot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

describe('backlot from vitest', () => {
  let backlot: Backlot<'machines' | 'posts'>;
  beforeAll(async () => {
    backlot = await start({ services: ['machines', 'posts'] });
    await backlot.checkpoint('empty');
  }, 120_000);
  beforeEach(() => backlot.restore('empty'));
  afterAll(() => backlot.close());

  const machines = (init: RequestInit = {}) =>
    fetch(`${backlot.url('machines')}/v2/machines`, {
      ...init,
      headers: {
        authorization: `Bearer ${backlot.services.machines.credentials.token}`,
        'content-type': 'application/json',
      },
    });

  it('creates a machine with the generated token, and the checkpoint takes it away again', async () => {
    const before = (await (await machines()).json()) as { meta: { total: number } };
    const created = await machines({
      method: 'POST',
      body: JSON.stringify({ name: 'web-1', region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64' }),
    });
    expect(created.status).toBe(202);
    expect(((await (await machines()).json()) as { meta: { total: number } }).meta.total).toBe(
      before.meta.total + 1,
    );
    await backlot.restore('empty');
    expect(((await (await machines()).json()) as { meta: { total: number } }).meta.total).toBe(
      before.meta.total,
    );
  });

  it('serves posts, and journals the request', async () => {
    backlot.clearRequests('posts');
    const post = (await (await fetch(`${backlot.url('posts')}/posts/1`)).json()) as { id: number };
    expect(post.id).toBe(1);
    expect(backlot.requests('posts').map((e) => e.path)).toEqual(['/posts/1']);
  });

  it('faults changed while running: posts slowed down, then back to normal', async () => {
    backlot.setFaults('posts', { delayMs: 300 });
    expect(backlot.faults('posts')).toEqual({ delayMs: '300', errorRate: 0, errorStatus: 503 });
    const started = Date.now();
    expect((await fetch(`${backlot.url('posts')}/posts/1`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    backlot.setFaults('posts', { delayMs: 0 });
    backlot.clearRequests('posts');
    await fetch(`${backlot.url('posts')}/posts/1`);
    expect(backlot.requests('posts')[0]?.fault).toBeUndefined();
  });

  it('says which service was not started', () => {
    expect(() => backlot.url('list')).toThrow(/service "list" was not started/);
  });
});
