import { load } from './lib/load.js';
import type { BenchContext } from './run.js';
import { startBacklot } from './targets.js';

const token = `dop_v1_${'cd'.repeat(32)}`;

/**
 * Every service of one process at saturation for 60 s in turn: zero errors, and resident memory sampled each
 * second, the mean of the last 10 s compared with the first 10 s. Run on its own: `npm run bench -- soak`.
 */
async function soak(ctx: BenchContext) {
  const backlot = await startBacklot(
    { fromSource: ctx.fromSource },
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
  const login = await fetch(`${backlot.urls.things}/login`, { method: 'POST', headers: json, body: credentials });
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
      const result = await load(
        backlot.urls[id],
        { path, headers },
        { ...ctx.settings, durationSeconds: seconds },
      );
      clearInterval(timer);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
      const first = mean(samples.slice(0, window));
      const last = mean(samples.slice(-window));
      ctx.report.add({
        group: 'soak',
        scenario: `${id} GET ${path.split('?')[0]} for ${seconds} s`,
        server: 'backlot (all 7 in one process)',
        result,
        peakRssMiB: backlot.peakRssMiB(),
        note: `RSS first ${window} s ${first.toFixed(0)} MiB, last ${window} s ${last.toFixed(0)} MiB (${(last - first).toFixed(0)} MiB)`,
      });
    }
  } finally {
    await backlot.stop();
  }
}

export const soakGroups = { soak };
