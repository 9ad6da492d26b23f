import { cpus, loadavg } from 'node:os';
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

/** The markers around a group's section of docs/benchmarks.md: a run replaces what lies between them. */
export const sectionMarkers = (group: string) => ({
  begin: `<!-- bench:begin ${group} -->`,
  end: `<!-- bench:end ${group} -->`,
});

/**
 * `doc` with the section of `group` replaced by `body`; a group without a section gets one (a heading and its
 * markers) at the end. Everything outside the markers is left as it is.
 */
export function replaceSection(doc: string, group: string, body: string) {
  const { begin, end } = sectionMarkers(group);
  const from = doc.indexOf(begin);
  const to = from < 0 ? -1 : doc.indexOf(end, from);
  // A blank line before the end marker, or Markdown would take the marker for one more row of the table above.
  if (to < 0) return `${doc.trimEnd()}\n\n### ${group}\n\n${begin}\n${body}\n\n${end}\n`;
  return `${doc.slice(0, from + begin.length)}\n${body}\n\n${doc.slice(to)}`;
}

export class Report {
  readonly rows: Row[] = [];
  readonly notes: { text: string; group?: string }[] = [];
  /** The machine's 1-minute load average when the run began (shown beside the one when it is written). */
  readonly loadAtStart = loadavg()[0];
  constructor(readonly settings: LoadSettings & { repeats: number }) {}

  /** A line printed now and kept for below the table (below `group`'s table when given). */
  note(text: string, group?: string) {
    this.notes.push({ text, group });
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

  /** The groups that have rows, in the order they ran. */
  groups() {
    return [...new Set(this.rows.map((row) => row.group))];
  }

  /** One group's figures as its section of docs/benchmarks.md: when and where, the table, the group's notes. */
  section(group: string, when: string) {
    const load = `${this.loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}`;
    const head = [
      `Measured ${when}: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, load average ${load}; ` +
        `${loadClient === 'wrk' ? 'wrk (one thread)' : 'autocannon'}, ${this.settings.connections} connections, ` +
        `${this.settings.durationSeconds} s per run, pipelining ${this.settings.pipelining}, median of ${this.settings.repeats} runs ` +
        'unless the note says otherwise.',
      '',
      '| scenario | server | req/s | p50 ms | p99 ms | errors | non-2xx | peak RSS MiB | backlot ÷ peer | note |',
      '|---|---|---:|---:|---:|---:|---:|---:|---|---|',
    ];
    const body = this.rows
      .filter((row) => row.group === group)
      .map((row) => {
        const r = row.result;
        const cells = r
          ? [Math.round(r.requestsPerSecond), r.p50, r.p99, r.errors + r.timeouts, r.non2xx]
          : ['', '', '', '', ''];
        return `| ${row.scenario} | ${row.server} | ${cells.join(' | ')} | ${row.peakRssMiB?.toFixed(0) ?? ''} | ${row.ratio ?? ''} | ${row.note ?? ''} |`;
      });
    const notes = this.notes.filter((n) => n.group === group).map((n) => n.text);
    return [...head, ...body, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
  }

  /** `doc` (docs/benchmarks.md) with the section of every group this run measured replaced by its figures. */
  updateDoc(doc: string, when: string) {
    return this.groups().reduce((text, group) => replaceSection(text, group, this.section(group, when)), doc);
  }
}
