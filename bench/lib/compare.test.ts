import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { compare } from './compare.js';
import type { BenchContext } from './context.js';
import { Report } from './report.js';

/** A server that answers `{}` and counts the requests it got. */
async function counting() {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits: () => hits, close: () => server.close() };
}

test('compare runs each repeat on the contender’s next process and reports the spread and largest peak', async () => {
  const [first, second, peer] = await Promise.all([counting(), counting(), counting()]);
  const settings = { connections: 2, durationSeconds: 1, pipelining: 1 };
  const ctx = {
    settings,
    repeats: 2,
    smoke: true,
    report: new Report({ ...settings, repeats: 2 }),
  } as unknown as BenchContext;
  try {
    await compare(
      ctx,
      'group',
      'GET /',
      { path: '/' },
      [
        {
          name: 'mine',
          server: { peakRssMiB: () => 10 },
          url: first.url,
          replicas: [{ server: { peakRssMiB: () => 30 }, url: second.url }],
        },
        { name: 'peer', server: { peakRssMiB: () => 20 }, url: peer.url },
      ],
      'target',
    );
    assert.ok(first.hits() > 0, 'the first process ran the first repeat');
    assert.ok(second.hits() > 0, 'the replica ran the second repeat');
    assert.ok(peer.hits() > 0);
    const [mine, other] = ctx.report.rows;
    assert.equal(mine?.peakRssMiB, 30);
    assert.match(mine?.note ?? '', /^target; 2 processes, \d+–\d+ req\/s$/);
    assert.equal(other?.peakRssMiB, 20);
    assert.equal(other?.note, undefined, 'one process: no spread to show');
  } finally {
    for (const s of [first, second, peer]) s.close();
  }
});
