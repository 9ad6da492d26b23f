import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServiceId } from '../../src/platform/service.js';
import type { TestService } from '../service.js';
import { basic, credentials, startSecured, thingsCaller } from './fixtures.js';

type Attack = { method?: string; path: string; headers?: Record<string, string>; body?: string };

const json = { 'content-type': 'application/json' };
const manyKeys = Array.from({ length: 1_500 }, (_, i) => `k${i}`).join(',');

/** Requests that once held the event loop for seconds, per service (after `prepare` set the stage). */
const attacks: Record<ServiceId, Attack[]> = {
  list: [
    { path: '/list?item_like=%5E(a%2B)%2B%24' },
    { path: '/list?item_like=(a%7Ca%3F)%2B%24&_sort=item' },
    { method: 'POST', path: '/list', headers: json, body: `{"item":${'['.repeat(5000)}${']'.repeat(5000)}}` },
  ],
  posts: [
    { path: `/posts?_sort=${manyKeys}` },
    { path: `/posts?${Array.from({ length: 100 }, () => '_embed=comments').join('&')}` },
    { path: `/albums?${Array.from({ length: 100 }, () => '_embed=photos').join('&')}` },
    { path: '/posts?title_like=(a%3F)%2B(a%3F)%2B(a%3F)%2B%24' },
    { method: 'POST', path: '/posts', headers: json, body: '['.repeat(100_000) + ']'.repeat(100_000) },
  ],
  content: [
    { path: '/wp-json/wp/v2/posts?per_page=100' },
    { path: '/wp-json/wp/v2/posts?search=%3C%3C%3C%3C' },
    { path: '/wp-json/wp/v2/users/me', headers: { authorization: basic('admin', 'wrong wrong wrong') } },
  ],
  employees: [{ path: '/api/2/employee/1', headers: { authorization: basic('ed', 'a wrong guess') } }],
  machines: [{ path: '/v2/machines', headers: { authorization: `Bearer dop_v1_${'0'.repeat(64)}` } }],
  things: [
    { method: 'POST', path: '/login', headers: json, body: '{"username":"nobody","password":"guess-guess"}' },
  ],
  profiles: [
    {
      method: 'POST',
      path: '/query',
      headers: json,
      body: JSON.stringify({ query: `{${'users { id '.repeat(200)}${'}'.repeat(201)}` }),
    },
    {
      method: 'POST',
      path: '/%71uery',
      headers: json,
      body: JSON.stringify(Array.from({ length: 500 }, () => ({ query: '{ users { id } }' }))),
    },
  ],
};

/** An ordinary request of each service, for the machine's baseline: what a busy but friendly client costs. */
const ordinary: Record<ServiceId, Attack> = {
  list: { path: '/list' },
  posts: { path: '/posts' },
  content: { path: '/wp-json/wp/v2/posts?per_page=100' },
  employees: { path: '/api/2/employees' },
  machines: { path: '/v2/machines', headers: credentials.machines },
  things: { path: '/healthz' },
  profiles: { path: '/query?query=%7Busers%7Bid%7D%7D' },
};

/**
 * The p99 latency of `/healthz` on `probe` over 200 probes (one every 5 ms), while two clients keep sending
 * `requests` to `target` in turn.
 */
async function probeWhile(target: TestService, probe: TestService, requests: Attack[], statuses: number[]) {
  const latencies: number[] = [];
  let probing = true;
  const clients = Array.from({ length: 2 }, async (_, worker) => {
    for (let round = 0; probing; round++) {
      const request = requests[(round + worker) % requests.length] as Attack;
      const res = await fetch(`${target.url}${request.path}`, {
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
  });
  while (latencies.length < 200) {
    const start = performance.now();
    const res = await fetch(`${probe.url}/healthz`);
    await res.arrayBuffer();
    latencies.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  probing = false;
  await Promise.all(clients);
  latencies.sort((a, b) => a - b);
  return latencies[Math.floor(latencies.length * 0.99)] as number;
}

async function prepare(id: ServiceId, service: TestService) {
  if (id === 'list') {
    await fetch(`${service.url}/list`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ item: `${'a'.repeat(40)}!` }),
    });
  }
  if (id === 'content') {
    // An author's post made of `<`: every anonymous listing renders its excerpt.
    const res = await fetch(`${service.url}/wp-json/wp/v2/posts`, {
      method: 'POST',
      headers: { ...json, ...credentials.content },
      body: JSON.stringify({ title: 'x', status: 'publish', content: '<'.repeat(100_000) }),
    });
    assert.equal(res.status, 201);
  }
  if (id === 'things') await thingsCaller(service);
}

describe('no hostile request stalls the other services', () => {
  const running = new Map<ServiceId, TestService>();
  before(async () => {
    for (const id of Object.keys(attacks) as ServiceId[]) {
      running.set(id, await startSecured(id, { listen: true, env: { LOGIN_FAILURE_LIMIT: '0' } }));
    }
  });
  after(async () => {
    for (const service of running.values()) await service.close();
  });

  for (const id of Object.keys(attacks) as ServiceId[]) {
    test(`${id} under attack: /healthz of another service keeps answering (p99 within 3× ordinary load, ≥ 500 ms bound)`, async (t) => {
      const target = running.get(id) as TestService;
      const probe = running.get(id === 'posts' ? 'employees' : 'posts') as TestService;
      await prepare(id, target);
      const statuses: number[] = [];
      const baseline = await probeWhile(target, probe, [ordinary[id]], []);
      const p99 = await probeWhile(target, probe, attacks[id], statuses);
      t.diagnostic(
        `/healthz p99 ${p99.toFixed(1)} ms under attack, ${baseline.toFixed(1)} ms under ordinary load`,
      );
      // Not a speed check (those live in bench/): a stall — a backtracking pattern, a quadratic scan, a hash on
      // the main thread — holds the loop for seconds or for ever, so the bound is generous enough that a shared,
      // loaded CI machine (ordinary p99 up to ~200 ms there) never trips it: 3× the same service's ordinary
      // requests, and never under 500 ms.
      assert.ok(
        p99 < Math.max(500, 3 * baseline),
        `p99 ${p99.toFixed(1)} ms (ordinary load: ${baseline.toFixed(1)} ms)`,
      );
      assert.deepEqual(
        statuses.filter((s) => s >= 500),
        [],
        'no 5xx',
      );
      assert.equal((await fetch(`${target.url}/healthz`)).status, 200);
    });
  }
});
