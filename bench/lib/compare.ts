import type { BenchContext } from './context.js';
import { type LoadRequest, type LoadResult, load, medianResult } from './load.js';
import { ratio } from './report.js';
import type { ServerProcess } from './server.js';

type Process = { server: Pick<ServerProcess, 'peakRssMiB'>; url: string };

export interface Contender extends Process {
  name: string;
  request?: LoadRequest;
  /**
   * More processes of the same server, run i going to process i (this one first), so one unlucky start cannot
   * decide a ratio. Most of the 15-30% spread once seen between processes of one build was Node 20 losing
   * nextTick's caches after a full GC (src/platform/tick-objects.ts); what remains is a few percent.
   */
  replicas?: Process[];
}

const processesOf = (c: Contender): Process[] => [c, ...(c.replicas ?? [])];
const peakOf = (c: Contender) => Math.max(...processesOf(c).map((p) => p.server.peakRssMiB()));

/** With several processes, the slowest and fastest of their runs (req/s), for the reader to see the spread. */
function spreadOf(c: Contender, runs: LoadResult[]) {
  if (processesOf(c).length < 2) return undefined;
  const rates = runs.map((r) => Math.round(r.requestsPerSecond));
  return `${processesOf(c).length} processes, ${Math.min(...rates)}–${Math.max(...rates)} req/s`;
}

const joined = (...parts: (string | undefined)[]) => parts.filter(Boolean).join('; ') || undefined;

/** JIT, pools and caches warm before anything is recorded (results discarded). */
async function warmUp(ctx: BenchContext, url: string, request: LoadRequest) {
  if (ctx.smoke) return;
  await load(url, request, { ...ctx.settings, durationSeconds: 3 });
}

/** How many runs of how long each contender gets in one scenario. */
export interface Runs {
  repeats: number;
  durationSeconds: number;
}

const defaultRuns = (ctx: BenchContext): Runs => ({
  repeats: ctx.repeats,
  durationSeconds: ctx.settings.durationSeconds,
});

/**
 * For ratios that decide a target within a few percent (the node:http ceiling): on a shared machine neighbouring
 * runs of one server differ by 5-15 %, so a median of three moves by about as much as the margin. Nine shorter
 * runs, alternating, give a steadier median in 1.5 times the time; they cannot remove drift that lasts minutes
 * (docs/benchmarks.md, eighth round). Smoke runs keep their one short run.
 */
export const preciseRuns = (ctx: BenchContext): Runs =>
  ctx.smoke ? defaultRuns(ctx) : { repeats: 9, durationSeconds: 5 };

/**
 * Runs `request` against backlot and each peer, alternating so drift hits all alike, `runs.repeats` times (each
 * time on the contender's next process when it has several); records the medians and backlot's ratio to each peer.
 */
export async function compare(
  ctx: BenchContext,
  group: string,
  scenario: string,
  request: LoadRequest,
  contenders: Contender[],
  target?: string,
  runs: Runs = defaultRuns(ctx),
) {
  const results = new Map<string, LoadResult[]>(contenders.map((c) => [c.name, []]));
  for (const c of contenders) {
    for (const p of processesOf(c)) await warmUp(ctx, p.url, c.request ?? request);
  }
  const settings = { ...ctx.settings, durationSeconds: runs.durationSeconds };
  for (let i = 0; i < runs.repeats; i++) {
    for (const c of contenders) {
      const { url } = processesOf(c)[i % processesOf(c).length];
      results.get(c.name)!.push(await load(url, c.request ?? request, settings));
    }
  }
  const [mine, ...peers] = contenders.map((c) => ({ c, result: medianResult(results.get(c.name)!) }));
  const howMany =
    runs.repeats === ctx.repeats && runs.durationSeconds === ctx.settings.durationSeconds
      ? undefined
      : `median of ${runs.repeats} runs of ${runs.durationSeconds} s`;
  const ratios = peers.map((p) => `${ratio(mine.result, p.result)} ${p.c.name}`).join(', ');
  ctx.report.add({
    group,
    scenario,
    server: mine.c.name,
    result: mine.result,
    peakRssMiB: peakOf(mine.c),
    ratio: ratios,
    note: joined(target, howMany, spreadOf(mine.c, results.get(mine.c.name)!)),
  });
  for (const p of peers) {
    ctx.report.add({
      group,
      scenario,
      server: p.c.name,
      result: p.result,
      peakRssMiB: peakOf(p.c),
      note: joined(howMany, spreadOf(p.c, results.get(p.c.name)!)),
    });
  }
  return mine.result;
}

/** Only backlot: a figure to report beside others (no peer). */
export async function measure(
  ctx: BenchContext,
  group: string,
  scenario: string,
  c: Contender,
  note?: string,
  runs: Runs = defaultRuns(ctx),
) {
  const results: LoadResult[] = [];
  await warmUp(ctx, c.url, c.request!);
  for (let i = 0; i < runs.repeats; i++) {
    results.push(await load(c.url, c.request!, { ...ctx.settings, durationSeconds: runs.durationSeconds }));
  }
  const result = medianResult(results);
  ctx.report.add({ group, scenario, server: c.name, result, peakRssMiB: c.server.peakRssMiB(), note });
  return result;
}
