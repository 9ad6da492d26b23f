import type { BenchContext } from './lib/context.js';
import { load } from './lib/load.js';
import { startBacklot } from './lib/targets.js';

const token = `dop_v1_${'cd'.repeat(32)}`;
const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;

/**
 * Every service of one process at saturation for 60 s in turn: zero errors, and memory at the end of the first
 * 10 s against the end. The verdict is the JS heap after a full GC (asked of the server through heap-probe.mjs):
 * resident memory rises and falls by tens of MiB as V8's old space fills and is collected, so its first and
 * last 10 s are reported too but show where in that cycle the window fell. Run on its own: `npm run bench -- soak`.
 */
async function soak(ctx: BenchContext) {
  const backlot = await startBacklot(
    { fromSource: ctx.fromSource, heapProbe: true },
    ['profiles', 'things', 'list', 'employees', 'posts', 'machines', 'content'],
    {
      DATABASE_URL: ctx.postgres.url,
      DATASTORE_SECRET: ctx.postgres.password,
      LIST_DELAY_MS: '0',
      MACHINES_TOKENS: `soak=${token}`,
      MACHINES_RATE_LIMIT_PER_HOUR: '100000000',
      MACHINES_RATE_LIMIT_PER_MINUTE: '100000000',
    },
  );
  const json = { 'content-type': 'application/json' };
  const credentials = JSON.stringify({ username: 'soak', password: 'soak-password' });
  await fetch(`${backlot.urls.things}/signup`, { method: 'POST', headers: json, body: credentials });
  const login = await fetch(`${backlot.urls.things}/login`, {
    method: 'POST',
    headers: json,
    body: credentials,
  });
  const { secret } = (await login.json()) as { secret: string };
  const seconds = ctx.smoke ? 3 : 60;
  const window = ctx.smoke ? 1 : 10;
  const targets: Array<[string, string, Record<string, string>?]> = [
    ['profiles', '/query?query=%7Busers%7Bid%7D%7D'],
    ['things', '/things', { 'db-user-secret': secret }],
    ['list', '/list'],
    ['employees', '/api/2/employees/1'],
    ['posts', '/posts/1'],
    ['machines', '/v2/machines?per_page=20', { authorization: `Bearer ${token}` }],
    ['content', '/wp-json/wp/v2/posts?per_page=10'],
  ];
  try {
    for (const [id, path, headers] of targets) {
      const samples: number[] = [];
      const timer = setInterval(() => samples.push(backlot.rssMiB()), 1000);
      let heapEarly = 0;
      const early = setTimeout(async () => {
        heapEarly = await backlot.heapAfterGcMiB();
      }, window * 1000);
      const result = await load(
        backlot.urls[id],
        { path, headers },
        { ...ctx.settings, durationSeconds: seconds },
      );
      clearInterval(timer);
      clearTimeout(early);
      const heapLate = await backlot.heapAfterGcMiB();
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
      const first = mean(samples.slice(0, window));
      const last = mean(samples.slice(-window));
      ctx.report.add({
        group: 'soak',
        scenario: `${id} GET ${path.split('?')[0]} for ${seconds} s`,
        server: 'backlot (all 7 in one process)',
        result,
        peakRssMiB: backlot.peakRssMiB(),
        note:
          `heap after GC ${heapEarly.toFixed(1)} MiB at ${window} s, ${heapLate.toFixed(1)} MiB at ${seconds} s ` +
          `(${signed(heapLate - heapEarly)} MiB); RSS first ${window} s ${first.toFixed(0)} MiB, last ${window} s ` +
          `${last.toFixed(0)} MiB (${signed(last - first)} MiB)`,
      });
    }
  } finally {
    await backlot.stop();
  }
}

export const soakGroups = { soak };
