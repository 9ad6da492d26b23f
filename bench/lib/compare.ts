import type { BenchContext } from './context.js';
import { type LoadRequest, type LoadResult, load, median, medianResult, percentile } from './load.js';
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
async function warmUp(ctx: BenchContext, url: string, request: LoadRequest, clientCores?: string) {
  if (ctx.smoke) return;
  await load(url, request, { ...ctx.settings, durationSeconds: 3, clientCores });
}

/** How many runs of how long each contender gets in one scenario. */
export interface Runs {
  repeats: number;
  durationSeconds: number;
  /** The cores the load client runs on (see cores.ts). */
  clientCores?: string;
  /**
   * Unmeasured load on the same process right before each measured run, for the run to meet the server warm: in
   * rounds a process idles between its runs (36 s in the posts group), and a backlot process is slower for its
   * first seconds after an idle spell than once warm, where a bare server is not (docs/benchmarks.md, "Known
   * limits"). The targets are set "after warm-up".
   */
  warmSeconds?: number;
}

export const defaultRuns = (ctx: BenchContext): Runs => ({
  repeats: ctx.repeats,
  durationSeconds: ctx.settings.durationSeconds,
});

/**
 * For ratios that decide a target within a few percent (the node:http ceiling): on a shared machine neighbouring
 * runs of one server differ by 5-15 %, so a median of three moves by about as much as the margin. Fifteen rounds
 * of 3 s runs take the time nine of 5 s took, and more rounds make a steadier median of the rounds' ratios
 * (docs/benchmarks.md, "Reading the figures"). Smoke runs keep their one short run.
 */
export const preciseRuns = (ctx: BenchContext): Runs =>
  ctx.smoke ? defaultRuns(ctx) : { repeats: 15, durationSeconds: 3, warmSeconds: 2 };

/**
 * backlot's ratio to a peer: the median of the rounds' own ratios. The machine's speed drifts over seconds, and the
 * runs of one round (seconds apart) share it: within a round backlot's and the ceiling's rates correlate at
 * 0.45-0.65, so a round's ratio cancels part of the drift that a ratio of two medians keeps.
 */
export function pairedRatio(mine: LoadResult[], peer: LoadResult[]) {
  // A round where the peer answered nothing has no ratio; with no round left there is none to show.
  const rounds = mine.flatMap((m, i) => {
    const theirs = peer[i]?.requestsPerSecond ?? 0;
    return theirs > 0 ? [m.requestsPerSecond / theirs] : [];
  });
  if (rounds.length === 0) return 'n/a';
  const spread =
    rounds.length >= 8
      ? ` (middle half of the rounds ${percentile(rounds, 0.25).toFixed(2)}–${percentile(rounds, 0.75).toFixed(2)})`
      : '';
  return `${median(rounds).toFixed(2)}×${spread}`;
}

/**
 * Runs `request` against backlot and each peer in `runs.repeats` rounds: in each round every contender runs once
 * (on its next process when it has several), in an order rotated each round so no contender always follows the
 * same one. Records each contender's median and backlot's paired ratio to each peer (see pairedRatio).
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
    for (const p of processesOf(c)) await warmUp(ctx, p.url, c.request ?? request, runs.clientCores);
  }
  const settings = { ...ctx.settings, durationSeconds: runs.durationSeconds, clientCores: runs.clientCores };
  for (let i = 0; i < runs.repeats; i++) {
    for (let k = 0; k < contenders.length; k++) {
      const c = contenders[(i + k) % contenders.length]!;
      const { url } = processesOf(c)[i % processesOf(c).length];
      if (runs.warmSeconds)
        await load(url, c.request ?? request, { ...settings, durationSeconds: runs.warmSeconds });
      results.get(c.name)!.push(await load(url, c.request ?? request, settings));
    }
  }
  const [mine, ...peers] = contenders.map((c) => ({ c, result: medianResult(results.get(c.name)!) }));
  const warmed = runs.warmSeconds ? `, each after ${runs.warmSeconds} s of warm-up` : '';
  const howMany =
    runs.repeats === ctx.repeats && runs.durationSeconds === ctx.settings.durationSeconds && !warmed
      ? undefined
      : `${runs.repeats} rounds of ${runs.durationSeconds} s${warmed}`;
  const ratios = peers
    .map((p) => `${pairedRatio(results.get(mine.c.name)!, results.get(p.c.name)!)} ${p.c.name}`)
    .join(', ');
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
