import { openPostgres } from '../../src/platform/database.js';
import type { TestPostgres } from '../../support/postgres.js';
import type { LoadSettings } from './load.js';
import type { Report } from './report.js';
import type { Launch } from './targets.js';

/** What every benchmark group is given. */
export interface BenchContext {
  settings: LoadSettings;
  repeats: number;
  /** Smoke runs (the test suite) shrink data sizes and skip the long holds. */
  smoke: boolean;
  fromSource: boolean;
  postgres: TestPostgres;
  report: Report;
}

/** A group that adds its figures to `ctx.report`. */
export type BenchGroup = (ctx: BenchContext) => Promise<void>;

/** How the groups start backlot in this run (built output, or the sources in smoke runs). */
export const launch = (ctx: BenchContext): Launch => ({ fromSource: ctx.fromSource });

/** A database of its own on the benchmark's PostgreSQL, so groups do not see each other's rows. */
export async function freshDatabase(ctx: BenchContext, name: string) {
  const admin = await openPostgres({ url: ctx.postgres.url, source: 'bench' }, 1);
  await admin.exec(`DROP DATABASE IF EXISTS ${name}`);
  await admin.exec(`CREATE DATABASE ${name}`);
  await admin.close();
  return ctx.postgres.url.replace('/postgres?', `/${name}?`);
}
