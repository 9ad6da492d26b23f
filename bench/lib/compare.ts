import type { BenchContext } from './context.js';
import { type LoadRequest, type LoadResult, load, medianResult } from './load.js';
import { ratio } from './report.js';
import type { ServerProcess } from './server.js';

export interface Contender {
  name: string;
  server: Pick<ServerProcess, 'peakRssMiB'>;
  url: string;
  request?: LoadRequest;
}

/** JIT, pools and caches warm before anything is recorded (results discarded). */
async function warmUp(ctx: BenchContext, url: string, request: LoadRequest) {
  if (ctx.smoke) return;
  await load(url, request, { ...ctx.settings, durationSeconds: 3 });
}

/**
 * Runs `request` against backlot and each peer, alternating so drift hits all alike, `repeats` times; records the
 * medians and backlot's ratio to each peer.
 */
export async function compare(
  ctx: BenchContext,
  group: string,
  scenario: string,
  request: LoadRequest,
  contenders: Contender[],
  target?: string,
) {
  const runs = new Map<string, LoadResult[]>(contenders.map((c) => [c.name, []]));
  for (const c of contenders) await warmUp(ctx, c.url, c.request ?? request);
  for (let i = 0; i < ctx.repeats; i++) {
    for (const c of contenders) runs.get(c.name)!.push(await load(c.url, c.request ?? request, ctx.settings));
  }
  const [mine, ...peers] = contenders.map((c) => ({ c, result: medianResult(runs.get(c.name)!) }));
  const ratios = peers.map((p) => `${ratio(mine.result, p.result)} ${p.c.name}`).join(', ');
  ctx.report.add({
    group,
    scenario,
    server: mine.c.name,
    result: mine.result,
    peakRssMiB: mine.c.server.peakRssMiB(),
    ratio: ratios,
    note: target,
  });
  for (const p of peers) {
    ctx.report.add({
      group,
      scenario,
      server: p.c.name,
      result: p.result,
      peakRssMiB: p.c.server.peakRssMiB(),
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
  runs = { repeats: ctx.repeats, durationSeconds: ctx.settings.durationSeconds },
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
