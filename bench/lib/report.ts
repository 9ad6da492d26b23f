import { cpus } from 'node:os';
import { type LoadResult, type LoadSettings, loadClient } from './load.js';

export interface Row {
  group: string;
  scenario: string;
  server: string;
  result?: LoadResult;
  peakRssMiB?: number;
  /** backlot's requests/s divided by this row's, on the backlot row of a pair: filled by `ratio`. */
  ratio?: string;
  note?: string;
}

export class Report {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];
  constructor(readonly settings: LoadSettings & { repeats: number }) {}

  /** A line printed now and kept for below the table. */
  note(text: string) {
    this.notes.push(text);
    process.stdout.write(`${text}\n`);
  }

  add(row: Row) {
    this.rows.push(row);
    const r = row.result;
    const figures = r
      ? `${Math.round(r.requestsPerSecond)} req/s p50 ${r.p50} ms p99 ${r.p99} ms errors ${r.errors + r.timeouts} non-2xx ${r.non2xx}`
      : '';
    process.stdout.write(
      `${row.group.padEnd(10)} ${row.scenario.padEnd(44)} ${row.server.padEnd(22)} ${figures}${row.ratio ? ` ratio ${row.ratio}` : ''}${row.note ? ` ${row.note}` : ''}\n`,
    );
  }

  markdown(date: string) {
    const head = [
      '# Benchmarks',
      '',
      `Run on ${date}: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}.`,
      `Load: ${loadClient === 'wrk' ? 'wrk (one thread)' : 'autocannon'}, ${this.settings.connections} connections, ${this.settings.durationSeconds} s per run, pipelining ${this.settings.pipelining}, ` +
        `median of ${this.settings.repeats} runs, backlot and its peer alternating (in posts, each run in a process of its own). Database scenarios use PostgreSQL 15 over TLS on loopback.`,
      'Reproduce with `npm run bench` (all groups) or `npm run bench -- posts` (one).',
      '',
      '| group | scenario | server | req/s | p50 ms | p99 ms | errors | non-2xx | peak RSS MiB | backlot ÷ peer | note |',
      '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ];
    const body = this.rows.map((row) => {
      const r = row.result;
      const cells = r
        ? [Math.round(r.requestsPerSecond), r.p50, r.p99, r.errors + r.timeouts, r.non2xx]
        : ['', '', '', '', ''];
      return `| ${row.group} | ${row.scenario} | ${row.server} | ${cells.join(' | ')} | ${row.peakRssMiB?.toFixed(0) ?? ''} | ${row.ratio ?? ''} | ${row.note ?? ''} |`;
    });
    return [...head, ...body, '', ...this.notes, ''].join('\n');
  }
}
