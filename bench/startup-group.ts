import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildDataset, photosAt } from '../src/services/posts/dataset.js';
import { type BenchContext, freshDatabase, launch } from './lib/context.js';
import { median } from './lib/load.js';
import { backlotCommand, jsonServerCli, startBacklot, startJsonServer } from './lib/targets.js';

const all = ['profiles', 'things', 'list', 'employees', 'posts', 'machines', 'content'];
const root = path.resolve(import.meta.dirname, '..');
/** How long a server is left alone before its resident memory is read as "idle". */
const idleMs = 2000;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wall time of a command that exits by itself (`--help`), in ms. */
function timeCommand(command: string[]) {
  const started = performance.now();
  return new Promise<number>((resolve, reject) => {
    const child = spawn(command[0] as string, command.slice(1), { stdio: 'ignore', cwd: root });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${command.join(' ')}: exit ${code}`)),
    );
  });
}

const verdict = (met: boolean) => (met ? 'met' : '**missed**');
const figures = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');

/** `--help`: the whole program's load time for a command that serves nothing. */
async function help(ctx: BenchContext) {
  const runs = ctx.smoke ? 1 : 7;
  const mine: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < runs; i++) {
    mine.push(await timeCommand(backlotCommand(launch(ctx), ['--help'])));
    theirs.push(await timeCommand([process.execPath, jsonServerCli, '--help']));
  }
  const ms = median(mine);
  ctx.report.add({
    group: 'startup',
    scenario: 'backlot --help, wall time',
    server: 'backlot',
    ratio: `${(ms / median(theirs)).toFixed(2)}× json-server's time`,
    note: `${ms.toFixed(0)} ms (median of ${figures(mine)}); target < 400 ms: ${verdict(ms < 400)}`,
  });
  ctx.report.add({
    group: 'startup',
    scenario: 'json-server --help, wall time',
    server: 'json-server',
    note: `${median(theirs).toFixed(0)} ms (median of ${figures(theirs)})`,
  });
}

/** All seven services in one process: time until every one answers /readyz, then resident memory once idle. */
async function allSeven(
  ctx: BenchContext,
  label: string,
  targetMs: number,
  env: () => Promise<Record<string, string>>,
) {
  const runs = ctx.smoke ? 1 : 3;
  const ready: number[] = [];
  const idle: number[] = [];
  const peak: number[] = [];
  for (let i = 0; i < runs; i++) {
    const settings = await env();
    const started = performance.now();
    const backlot = await startBacklot(launch(ctx), all, { ...settings, LIST_DELAY_MS: '0' });
    ready.push(performance.now() - started);
    await pause(idleMs);
    idle.push(backlot.rssMiB());
    peak.push(backlot.peakRssMiB());
    await backlot.stop();
  }
  const ms = median(ready);
  const rss = median(idle);
  const memoryTarget = label.startsWith('PGlite') ? `; idle target < 250 MiB: ${verdict(rss < 250)}` : '';
  ctx.report.add({
    group: 'startup',
    scenario: `all 7 services, ${label}`,
    server: 'backlot',
    peakRssMiB: median(peak),
    note:
      `ready in ${ms.toFixed(0)} ms (median of ${figures(ready)}), target < ${targetMs} ms: ${verdict(ms < targetMs)}; ` +
      `idle RSS ${rss.toFixed(0)} MiB (${figures(idle)})${memoryTarget}`,
  });
}

/** One service against json-server serving the same data: time to ready and idle resident memory. */
async function alone(
  ctx: BenchContext,
  id: 'list' | 'posts',
  db: unknown,
  target: (mine: number, theirs: number) => string,
) {
  const started = performance.now();
  const backlot = await startBacklot(launch(ctx), [id], { LIST_DELAY_MS: '0' });
  const mineMs = performance.now() - started;
  const peerStarted = performance.now();
  const peer = await startJsonServer(db);
  const theirMs = performance.now() - peerStarted;
  try {
    await pause(idleMs);
    const mine = backlot.rssMiB();
    const theirs = peer.rssMiB();
    ctx.report.add({
      group: 'startup',
      scenario: `serve ${id}, idle`,
      server: 'backlot',
      peakRssMiB: backlot.peakRssMiB(),
      ratio: `${(mine / theirs).toFixed(2)}× json-server's idle RSS`,
      note: `ready in ${mineMs.toFixed(0)} ms; idle RSS ${mine.toFixed(0)} MiB; ${target(mine, theirs)}`,
    });
    ctx.report.add({
      group: 'startup',
      scenario: `serve ${id}, idle`,
      server: 'json-server',
      peakRssMiB: peer.peakRssMiB(),
      note: `ready in ${theirMs.toFixed(0)} ms; idle RSS ${theirs.toFixed(0)} MiB`,
    });
  } finally {
    await Promise.all([backlot.stop(), peer.stop()]);
  }
}

/**
 * Start-up time and memory: `--help`, all seven services on a first start (embedded and PostgreSQL), and list and
 * posts alone beside json-server 0.17.4 on the same data. posts' memory after load is in the posts group.
 */
async function startup(ctx: BenchContext) {
  await help(ctx);
  let databases = 0;
  await allSeven(ctx, 'PostgreSQL over TLS, first start', 1500, async () => ({
    DATABASE_URL: await freshDatabase(ctx, `bench_startup_${++databases}`),
    DATASTORE_SECRET: ctx.postgres.password,
  }));
  if (!ctx.smoke) await allSeven(ctx, 'PGlite (embedded), first start', 2500, async () => ({}));
  const list = { list: Array.from({ length: 2 }, (_, i) => ({ id: i + 1, item: ['bread', 'grapes'][i] })) };
  await alone(
    ctx,
    'list',
    list,
    (mine, theirs) => `target ≤ 1.3× json-server's: ${verdict(mine <= 1.3 * theirs)}`,
  );
  const dataset = buildDataset();
  const posts = { ...dataset, photos: photosAt(dataset.photos, 'http://127.0.0.1') };
  await alone(ctx, 'posts', posts, (mine) => `target < 120 MiB: ${verdict(mine < 120)}`);
}

export const startupGroups = { startup };
