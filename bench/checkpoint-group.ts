import { start } from '../src/index.js';
import { type BenchContext, freshDatabase } from './lib/context.js';
import { median } from './lib/load.js';

const all = ['profiles', 'things', 'list', 'employees', 'posts', 'machines', 'content'] as const;
const json = { 'content-type': 'application/json' };

/** A few writes, so every restore has rows to take out and sequences to set back. */
async function touch(b: Awaited<ReturnType<typeof start>>, n: number) {
  const { username, password } = b.services.employees!.credentials;
  await Promise.all([
    fetch(`${b.url('list')}/list`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ item: `i${n}` }),
    }),
    fetch(`${b.url('employees')}/api/2/create`, {
      method: 'POST',
      headers: {
        ...json,
        authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
      },
      body: JSON.stringify({ name: `e${n}`, age: 30 }),
    }),
    fetch(`${b.url('things')}/signup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: `u${n}`, password: 'pass word 1' }),
    }),
  ]);
}

async function timed(work: () => Promise<void>) {
  const began = performance.now();
  await work();
  return performance.now() - began;
}

/** Restoring the seeded state of all seven services after a few writes, in-process through start(). */
async function measureBackend(ctx: BenchContext, backend: 'PostgreSQL' | 'PGlite') {
  const env: Record<string, string> = { THINGS_SIGNUP_RATE_LIMIT: '0' };
  if (backend === 'PostgreSQL') {
    env.DATABASE_URL = await freshDatabase(ctx, 'bench_checkpoint');
    env.DATASTORE_SECRET = ctx.postgres.password;
    if (ctx.postgres.caFile) env.DB_SSL_CA = ctx.postgres.caFile;
  }
  const b = await start({ services: [...all], env });
  try {
    const save = await timed(() => b.checkpoint('seeded'));
    const runs = ctx.smoke ? 3 : 30;
    const restores: number[] = [];
    const resets: number[] = [];
    for (let i = 0; i < runs; i++) {
      await touch(b, i);
      restores.push(await timed(() => b.restore('seeded')));
      await touch(b, i);
      resets.push(await timed(() => b.reset()));
    }
    // Unchanged since the last restore: what a suite restoring before every test pays when a test wrote nothing.
    const idle: number[] = [];
    for (let i = 0; i < runs; i++) idle.push(await timed(() => b.restore('seeded')));
    const ms = median(restores);
    const worst = Math.max(...restores);
    const target = backend === 'PostgreSQL' ? `; target < 100 ms: ${ms < 100 ? 'met' : '**missed**'}` : '';
    ctx.report.add({
      group: 'checkpoint',
      scenario: `restore seeded state, all seven, ${backend}`,
      server: 'backlot',
      note: `${ms.toFixed(0)} ms median, ${worst.toFixed(0)} ms worst of ${runs} (after writes to list, employees, things)${target}; reset ${median(resets).toFixed(0)} ms; restore with nothing changed ${median(idle).toFixed(0)} ms; checkpoint save ${save.toFixed(0)} ms`,
    });
  } finally {
    await b.close();
  }
}

async function checkpoint(ctx: BenchContext) {
  await measureBackend(ctx, 'PostgreSQL');
  await measureBackend(ctx, 'PGlite');
}

export const checkpointGroups = { checkpoint };
