import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { compare, pairedRatio, type Runs } from './compare.js';
import type { BenchContext } from './context.js';
import { type LoadResult, load } from './load.js';
import { Report } from './report.js';

/** A server that answers `{}` and counts the requests it got, noting when the first and last came. */
async function counting() {
  let hits = 0;
  const seen = { first: Number.POSITIVE_INFINITY, last: 0 };
  const server = createServer((_req, res) => {
    hits++;
    seen.first = Math.min(seen.first, performance.now());
    seen.last = performance.now();
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits: () => hits, seen, server, close: () => server.close() };
}
const settings = { connections: 2, durationSeconds: 1, pipelining: 1 };

/**
 * compare() in two rounds of 1 s runs: 'mine' on `first` then its replica `second` (peaks 10 and 30 MiB), against
 * 'peer' (20 MiB). Returns the report's rows.
 */
async function compareTwoRounds(first: string, second: string, peer: string, runs?: Runs) {
  const ctx = {
    settings,
    repeats: 2,
    smoke: true,
    report: new Report({ ...settings, repeats: 2 }),
  } as unknown as BenchContext;
  await compare(
    ctx,
    'group',
    'GET /',
    { path: '/' },
    [
      {
        name: 'mine',
        server: { peakRssMiB: () => 10 },
        url: first,
        replicas: [{ server: { peakRssMiB: () => 30 }, url: second }],
      },
      { name: 'peer', server: { peakRssMiB: () => 20 }, url: peer },
    ],
    'target',
    runs,
  );
  return ctx.report.rows;
}

test('compare runs each round on the contender’s next process, rotating the order, and reports the spread and largest peak', async () => {
  const [first, second, peer] = await Promise.all([counting(), counting(), counting()]);
  try {
    const [mine, other] = await compareTwoRounds(first.url, second.url, peer.url);
    assert.ok(first.hits() > 0, 'the first process ran the first repeat');
    assert.ok(second.hits() > 0, 'the replica ran the second repeat');
    assert.ok(peer.hits() > 0);
    // Round 1: mine (first process), then the peer; round 2 starts with the peer, then mine (second process).
    assert.ok(first.seen.last < peer.seen.first, 'round 1 ran mine before the peer');
    assert.ok(peer.seen.last < second.seen.first, 'round 2 ran the peer before mine');
    assert.equal(mine?.peakRssMiB, 30);
    assert.match(mine?.note ?? '', /^target; 2 processes, \d+–\d+ req\/s$/);
    assert.equal(other?.peakRssMiB, 20);
    assert.equal(other?.note, undefined, 'one process: no spread to show');
  } finally {
    for (const s of [first, second, peer]) s.close();
  }
});

test('with warmSeconds every measured run follows a warm-up run on the same process', async () => {
  const servers = await Promise.all([counting(), counting(), counting(), counting()]);
  // Each load run opens its own connections: counting them counts the runs a process got.
  const connections = servers.map(() => 0);
  for (const [i, s] of servers.entries()) s.server.on('connection', () => connections[i]!++);
  const [first, second, peer, probe] = servers.map((s) => s.url) as [string, string, string, string];
  try {
    const [mine] = await compareTwoRounds(first, second, peer, {
      repeats: 2,
      durationSeconds: 1,
      warmSeconds: 1,
    });
    // How many connections one run opens (wrk opens one more than asked, to check the address).
    await load(probe, { path: '/' }, settings);
    const perRun = connections[3]!;
    // Two runs (warm-up, measured) per round: one round on each of mine's processes, two on the peer.
    assert.deepEqual(connections.slice(0, 3), [2 * perRun, 2 * perRun, 4 * perRun]);
    assert.match(mine?.note ?? '', /^target; 2 rounds of 1 s, each after 1 s of warm-up; 2 processes/);
  } finally {
    for (const s of servers) s.close();
  }
});

const rates = (...values: number[]) =>
  values.map((requestsPerSecond) => ({ requestsPerSecond }) as LoadResult);

test('pairedRatio is the median of the rounds’ own ratios, not the ratio of the medians', () => {
  // Rounds' ratios 0.9, 0.9, 0.6; the medians' ratio would be 60/100.
  assert.equal(pairedRatio(rates(90, 45, 60), rates(100, 50, 100)), '0.90×');
  // A round the peer answered nothing in is left out; with none left there is no ratio.
  assert.equal(pairedRatio(rates(90, 45, 60, 80), rates(100, 0, 100, 100)), '0.80×');
  assert.equal(pairedRatio(rates(90), rates(0)), 'n/a');
  // From eight rounds on, the middle half of the rounds' ratios is shown too.
  const mine = rates(80, 85, 90, 95, 100, 105, 110, 120);
  assert.equal(
    pairedRatio(mine, rates(100, 100, 100, 100, 100, 100, 100, 100)),
    '1.00× (middle half of the rounds 0.90–1.10)',
  );
});
