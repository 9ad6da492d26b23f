/**
 * The log as a person at a terminal reads it (LOG_PRETTY, on by default on a terminal): one short line per entry,
 * `<service> <message>`, so the banner above stays readable. pino's JSON stays the format for everything else.
 */
const levelWords: Record<number, string> = { 10: 'trace', 20: 'debug', 40: 'warn', 50: 'error', 60: 'fatal' };
/** Fields every entry has, or that the message already says. */
const said = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'service',
  'reqId',
  'msg',
  'method',
  'url',
  'status',
  'ms',
  'err',
]);

export function consoleLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = levelWords[entry.level as number];
  const extra = Object.entries(entry)
    .filter(([key, value]) => !said.has(key) && value !== null && typeof value !== 'object')
    .map(([key, value]) => `${key}=${value}`);
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const parts = [
    String(entry.service ?? 'backlot').padEnd(10),
    level ? `${level}:` : '',
    String(entry.msg ?? ''),
    extra.length > 0 ? `(${extra.join(', ')})` : '',
  ].filter(Boolean);
  const detail = err ? `\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}` : '';
  return `${parts.join(' ')}${detail}\n`;
}

/** A pino destination writing `consoleLine`s to `out`. */
export function consoleDestination(out: NodeJS.WritableStream = process.stdout) {
  return { write: (json: string) => void out.write(consoleLine(json)) };
}
