import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { coreSplit } from './cores.js';
import { load, loadClient } from './load.js';
import { startCeiling } from './targets.js';

const allowedCores = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).map(
    (thread) =>
      /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/task/${thread}/status`, 'utf8'))?.[1],
  );

test('the servers get every core but the load client’s, unless BENCH_PIN=0', {
  skip: availableParallelism() < 2,
}, () => {
  const cores = availableParallelism();
  assert.deepEqual(coreSplit(), { client: '0', servers: cores === 2 ? '1' : `1-${cores - 1}` });
  process.env.BENCH_PIN = '0';
  try {
    assert.equal(coreSplit(), undefined);
  } finally {
    delete process.env.BENCH_PIN;
  }
});

test('a server started on cores runs every thread of it there, and is loaded from the client’s core', async (t) => {
  const split = coreSplit();
  if (!split) return t.skip('one core or no taskset');
  const server = await startCeiling('{}', undefined, 0, split.servers);
  try {
    const threads = allowedCores(server.pid);
    assert.ok(threads.length > 1, 'node runs helper threads too');
    assert.deepEqual(new Set(threads), new Set([split.servers]));
    const settings = { connections: 2, durationSeconds: 2, pipelining: 1, clientCores: split.client };
    const running = load(server.url, { path: '/' }, settings);
    if (loadClient === 'wrk') {
      await new Promise((r) => setTimeout(r, 500));
      const wrk = readdirSync('/proc').find((pid) => {
        try {
          const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          return command.startsWith('wrk\0') && command.includes(server.url);
        } catch {
          return false;
        }
      });
      assert.ok(wrk, 'wrk is running');
      assert.deepEqual(new Set(allowedCores(Number(wrk))), new Set([split.client]));
    }
    const result = await running;
    assert.ok(result.requestsPerSecond > 0);
    assert.equal(result.errors + result.non2xx, 0);
  } finally {
    await server.stop();
  }
});
