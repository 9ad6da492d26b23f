import { buildDataset, photosAt } from '../src/services/posts/dataset.js';
import { compare, defaultRuns, preciseRuns } from './lib/compare.js';
import { type BenchContext, launch } from './lib/context.js';
import { coreSplit } from './lib/cores.js';
import { load, percentile } from './lib/load.js';
import type { ServerProcess } from './lib/server.js';
import { startBacklot, startCeiling, startDelayedCeiling, startJsonServer } from './lib/targets.js';

const transportHeaders = ['date', 'connection', 'keep-alive', 'content-length'];

/** backlot's answer at `url` as the load client gets it (no Accept-Encoding): body and headers but transport's. */
async function answerOf(url: string) {
  const answer = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  const text = await answer.text();
  const headers = Object.fromEntries(
    [...answer.headers].filter(([name]) => !transportHeaders.includes(name)),
  );
  return { text, headers };
}

/**
 * `start` run `count` times at once, as a contender: the first process and the others as its replicas. Each
 * process is added to `started` as soon as it is up, so the caller can stop them all even when a start fails.
 */
async function contender(
  name: string,
  count: number,
  start: () => Promise<ServerProcess>,
  started: ServerProcess[],
) {
  const up = (server: ServerProcess) => {
    started.push(server);
    return server;
  };
  const [first, ...rest] = await Promise.all(Array.from({ length: count }, () => start().then(up)));
  return {
    name,
    server: first,
    url: first.url,
    replicas: rest.map((server) => ({ server, url: server.url })),
    all: [first, ...rest],
  };
}

/**
 * posts against json-server and a bare node:http server, each contender in `repeats` processes (see Contender's
 * replicas). Answers are made on first request and cached (bounded), so every scenario warms up first; posts'
 * resident memory is read before the scenarios and after them. Servers and load client run on cores of their own
 * (cores.ts), for the ceiling's ratio to measure the servers rather than how they share cores with the client.
 */
async function posts(ctx: BenchContext) {
  const count = ctx.repeats;
  const split = coreSplit();
  const cores = split?.servers;
  const pinned = { clientCores: split?.client };
  ctx.report.note(
    split
      ? `posts: servers on cores ${split.servers}, the load client on core ${split.client} (taskset).`
      : 'posts: servers and load client on any core (no taskset, one core, or BENCH_PIN=0).',
    'posts',
  );
  const started: ServerProcess[] = [];
  try {
    const b = await contender(
      'backlot',
      count,
      () => startBacklot({ ...launch(ctx), cores }, ['posts'], {}),
      started,
    );
    await new Promise((r) => setTimeout(r, 2000));
    const idleRss = Math.max(...b.all.map((s) => s.rssMiB()));
    const dataset = buildDataset();
    const db = { ...dataset, photos: photosAt(dataset.photos, 'http://127.0.0.1') };
    const j = await contender('json-server', count, () => startJsonServer(db, cores), started);
    // The ceiling sends backlot's own answer, headers included (request id, CORS, caching, ETag), as wrk gets it:
    // a server sending fewer headers writes less per request and is no ceiling for this answer.
    const one = await answerOf(`${b.url}/posts/1`);
    const c = await contender(
      'node:http ceiling (same headers)',
      count,
      () => startCeiling(one.text, one.headers, 0, cores),
      started,
    );
    const bare = await contender(
      'node:http, content type only',
      count,
      () => startCeiling(one.text, undefined, 0, cores),
      started,
    );
    const all = await answerOf(`${b.url}/posts`);
    const l = await contender(
      'node:http ceiling (same headers)',
      count,
      () => startCeiling(all.text, all.headers, 0, cores),
      started,
    );
    await compare(
      ctx,
      'posts',
      'GET /posts/1',
      { path: '/posts/1' },
      [b, j, c, bare],
      'target ≥ 10× json-server, ≥ 0.9× ceiling',
      { ...preciseRuns(ctx), ...pinned },
    );
    await compare(
      ctx,
      'posts',
      'GET /posts',
      { path: '/posts' },
      [b, j, l],
      'target ≥ 10× json-server, ≥ 0.9× ceiling',
      { ...preciseRuns(ctx), ...pinned },
    );
    const gzip = { path: '/photos', headers: { 'accept-encoding': 'gzip' } };
    await compare(ctx, 'posts', 'GET /photos (gzip)', gzip, [b, j], 'reported', {
      ...defaultRuns(ctx),
      ...pinned,
    });
    await new Promise((r) => setTimeout(r, 2000));
    // Every backlot process served its share of each scenario above; the largest is reported.
    const afterRss = Math.max(...b.all.map((s) => s.rssMiB()));
    ctx.report.add({
      group: 'posts',
      scenario: 'resident memory, idle and after the scenarios above',
      server: 'backlot',
      peakRssMiB: Math.max(...b.all.map((s) => s.peakRssMiB())),
      note:
        `idle ${idleRss.toFixed(0)} MiB (target < 120: ${idleRss < 120 ? 'met' : '**missed**'}); ` +
        `after ${afterRss.toFixed(0)} MiB (target < 160: ${afterRss < 160 ? 'met' : '**missed**'})`,
    });
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}

function listFile(items: number) {
  return { list: Array.from({ length: items }, (_, i) => ({ id: i + 1, item: `item ${i + 1}` })) };
}

async function list(ctx: BenchContext) {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-list-'));
  const file = path.join(dir, 'list.json');
  writeFileSync(file, JSON.stringify(listFile(100)));
  const backlot = await startBacklot(launch(ctx), ['list'], { LIST_FILE: file, LIST_DELAY_MS: '0' });
  const peer = await startJsonServer(listFile(100));
  try {
    const b = { name: 'backlot', server: backlot, url: backlot.url };
    const j = { name: 'json-server', server: peer, url: peer.url };
    await compare(
      ctx,
      'list',
      'GET /list (100 items, delay 0)',
      { path: '/list' },
      [b, j],
      'target ≥ 3× json-server',
    );
    const post = {
      method: 'POST',
      path: '/list',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ item: 'milk' }),
    };
    await compare(
      ctx,
      'list',
      'POST /list (fsync per acknowledged write)',
      post,
      [b, j],
      'target ≥ 1× json-server (which does not fsync)',
    );
  } finally {
    await Promise.all([backlot.stop(), peer.stop()]);
  }
}

/**
 * The list's real delay with 1,000 connections opened at once and held. Every connection's first request also
 * waits behind the opening of all the others (on two shared cores that alone adds ~300 ms), so the tail is
 * reported over all answers and over the held connections' later answers, beside a bare node:http server that
 * only waits 1500 ms: the floor of this scenario on this machine.
 */
async function listDelay(ctx: BenchContext) {
  const backlot = await startBacklot(launch(ctx), ['list'], {});
  const floor = await startDelayedCeiling(1500);
  try {
    const connections = ctx.smoke ? 50 : 1000;
    const durationSeconds = ctx.smoke ? 2 : 20;
    for (const [name, server] of [
      ['backlot', backlot],
      ['node:http + 1500 ms timer', floor],
    ] as const) {
      const answered = new WeakSet<object>();
      const held: number[] = [];
      const result = await load(
        server.url,
        { path: '/list' },
        { connections, durationSeconds, pipelining: 1 },
        10,
        (client, latencyMs) => {
          if (answered.has(client)) held.push(latencyMs);
          else answered.add(client);
        },
      );
      ctx.report.add({
        group: 'list-delay',
        scenario: `GET /list, delay 1500 ms, ${connections} connections held ${durationSeconds} s`,
        server: name,
        result,
        peakRssMiB: server.peakRssMiB(),
        note:
          `p99 after each connection's first answer: ${held.length ? `${percentile(held, 0.99).toFixed(0)} ms` : 'none in this run'}` +
          (name === 'backlot' ? '; target: zero errors, p99 < 1,600 ms' : ''),
      });
    }
  } finally {
    await Promise.all([backlot.stop(), floor.stop()]);
  }
}

export const postsListGroups = { posts, list, 'list-delay': listDelay };
