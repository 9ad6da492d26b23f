import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startPostgres } from '../support/postgres.js';
import type { BenchContext } from './lib/context.js';
import type { LoadSettings } from './lib/load.js';
import { Report } from './lib/report.js';
import { groups } from './registry.js';

export interface BenchOptions {
  groups: string[];
  smoke: boolean;
  fromSource: boolean;
  output?: string;
}

/** Runs the chosen groups (all when none) and returns the report. */
export async function runBench(options: BenchOptions) {
  const settings: LoadSettings = options.smoke
    ? { connections: 10, durationSeconds: 1, pipelining: 1 }
    : { connections: 50, durationSeconds: 10, pipelining: 1 };
  const repeats = options.smoke ? 1 : 3;
  const report = new Report({ ...settings, repeats });
  // The 7-minute soak runs only when named (or in the smoke run, briefly).
  const chosen =
    options.groups.length > 0
      ? options.groups
      : Object.keys(groups).filter((g) => options.smoke || g !== 'soak');
  const unknown = chosen.filter((g) => !(g in groups));
  if (unknown.length > 0)
    throw new Error(`unknown group ${unknown[0]} (valid: ${Object.keys(groups).join(', ')})`);
  const postgres = await startPostgres({ tls: true });
  try {
    const ctx: BenchContext = {
      settings,
      repeats,
      smoke: options.smoke,
      fromSource: options.fromSource,
      postgres,
      report,
    };
    for (const name of chosen) await groups[name](ctx);
  } finally {
    await postgres.stop();
  }
  if (options.output) {
    // Only the sections of the groups that ran are replaced (see report.ts); the rest of the page stays.
    const now = new Date().toISOString();
    const doc = existsSync(options.output) ? readFileSync(options.output, 'utf8') : '# Benchmarks\n';
    writeFileSync(options.output, report.updateDoc(doc, `${now.slice(0, 10)} ${now.slice(11, 16)} UTC`));
  }
  return report;
}

if (import.meta.filename === process.argv[1]) {
  const args = process.argv.slice(2);
  const smoke = args.includes('--smoke');
  const fromSource = smoke || args.includes('--source');
  const output = args.includes('--no-write')
    ? undefined
    : path.resolve(import.meta.dirname, '../docs/benchmarks.md');
  await runBench({ groups: args.filter((a) => !a.startsWith('--')), smoke, fromSource, output });
}
