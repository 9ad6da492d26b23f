import { type BenchContext, launch } from './lib/context.js';
import { startBacklot } from './lib/targets.js';

/** Time from process start to every service answering /readyz, and idle RSS of all services in one process. */
async function startup(ctx: BenchContext) {
  const all = ['profiles', 'things', 'list', 'employees', 'posts', 'machines', 'content'];
  for (const [label, env] of [
    ['PostgreSQL over TLS', { DATABASE_URL: ctx.postgres.url, DATASTORE_SECRET: ctx.postgres.password }],
    ['PGlite (embedded), first start', {}],
  ] as const) {
    if (ctx.smoke && label.startsWith('PGlite')) continue;
    const started = Date.now();
    const backlot = await startBacklot(launch(ctx), all, { ...env, LIST_DELAY_MS: '0' });
    const ms = Date.now() - started;
    await new Promise((r) => setTimeout(r, 1000));
    ctx.report.add({
      group: 'startup',
      scenario: `all 7 services, ${label}`,
      server: 'backlot',
      peakRssMiB: backlot.peakRssMiB(),
      note: `ready in ${ms} ms; idle RSS ${backlot.rssMiB().toFixed(0)} MiB`,
    });
    await backlot.stop();
  }
}

export const startupGroups = { startup };
