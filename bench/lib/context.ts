import type { TestPostgres } from '../../test/postgres.js';
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
