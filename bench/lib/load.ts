import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { onCores } from './cores.js';

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  pipelining: number;
  /** The cores wrk runs on (taskset's list syntax; see cores.ts); autocannon runs in the bench's own process. */
  clientCores?: string;
}

export interface LoadRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  bytesPerSecond: number;
}

/**
 * The load generator. On this 2-core machine the client shares the cores with the server it measures, so a client
 * that spends less CPU per request leaves more to the server: wrk (C, one thread) spends about a tenth of what
 * autocannon (JavaScript) does, which let fast servers (the posts API, the node:http ceiling) be measured rather
 * than the client. wrk is used when installed (`apt-get install wrk`); BENCH_CLIENT=autocannon forces
 * autocannon, which also runs scenarios that need per-response callbacks or pipelining.
 */
export const loadClient: 'wrk' | 'autocannon' =
  process.env.BENCH_CLIENT !== 'autocannon' && !spawnSync('wrk', ['-v']).error ? 'wrk' : 'autocannon';

/** One run against `base` (fresh connections each run); `onResponse` sees every answer (autocannon only). */
export async function load(
  base: string,
  request: LoadRequest,
  settings: LoadSettings,
  timeoutSeconds = 10,
  onResponse?: (client: object, latencyMs: number) => void,
): Promise<LoadResult> {
  if (loadClient === 'wrk' && !onResponse && settings.pipelining === 1) {
    return wrk(base, request, settings, timeoutSeconds);
  }
  // Without a callback autocannon returns its event emitter, made thenable.
  const run = autocannon({
    url: base + request.path,
    method: (request.method ?? 'GET') as autocannon.Request['method'],
    headers: request.headers,
    body: request.body,
    connections: settings.connections,
    duration: settings.durationSeconds,
    pipelining: settings.pipelining,
    timeout: timeoutSeconds,
  }) as unknown as Promise<autocannon.Result> & NodeJS.EventEmitter;
  if (onResponse) {
    run.on('response', (client: object, _status: number, _bytes: number, latencyMs: number) =>
      onResponse(client, latencyMs),
    );
  }
  const result = await run;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    bytesPerSecond: result.throughput.average,
  } satisfies LoadResult;
}

/** A Lua long string holding `text` byte for byte (its first newline is dropped by Lua, hence the one added). */
const luaString = (text: string | Buffer) => {
  const raw = Buffer.isBuffer(text) ? text.toString('latin1') : Buffer.from(text).toString('latin1');
  let level = '';
  while (raw.includes(`]${level}]`)) level += '=';
  return `[${level}[\n${raw}]${level}]`;
};

/**
 * wrk with one thread: the request from a Lua script, and its summary printed as JSON by the script's `done`
 * (status errors are wrk's answers of 400 and above, which the bench's scenarios count as non-2xx).
 */
async function wrk(base: string, request: LoadRequest, settings: LoadSettings, timeoutSeconds: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-wrk-'));
  const script = path.join(dir, 'request.lua');
  const headers = Object.entries(request.headers ?? {}).map(
    ([name, value]) => `wrk.headers[ ${luaString(name)} ] = ${luaString(value)}\n`,
  );
  writeFileSync(
    script,
    Buffer.from(
      `wrk.method = ${luaString(request.method ?? 'GET')}\n` +
        (request.body === undefined ? '' : `wrk.body = ${luaString(request.body)}\n`) +
        headers.join('') +
        `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"us":%d,"bytes":%d,"errors":%d,"timeouts":%d,"status":%d,"p50":%d,"p99":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect + e.read + e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
`,
      'latin1',
    ),
  );
  const args = ['-t', '1', '-c', String(settings.connections), '-d', `${settings.durationSeconds}s`];
  args.push('--timeout', `${timeoutSeconds}s`, '-s', script, base + request.path);
  const command = onCores(settings.clientCores, ['wrk', ...args]);
  try {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(command[0]!, command.slice(1), (error, out, err) =>
        error ? reject(new Error(`wrk: ${err || error}`)) : resolve(out),
      ),
    );
    const summary = JSON.parse(stdout.slice(stdout.lastIndexOf('{')));
    const seconds = summary.us / 1e6;
    return {
      requestsPerSecond: summary.requests / seconds,
      p50: Math.round(summary.p50 / 10) / 100,
      p99: Math.round(summary.p99 / 10) / 100,
      errors: summary.errors,
      timeouts: summary.timeouts,
      non2xx: summary.status,
      bytesPerSecond: summary.bytes / seconds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median of each figure over several runs (errors are summed: one error in any run counts). */
export function medianResult(runs: LoadResult[]): LoadResult {
  const pick = (key: keyof LoadResult) => median(runs.map((r) => r[key]));
  const sum = (key: keyof LoadResult) => runs.reduce((n, r) => n + r[key], 0);
  return {
    requestsPerSecond: pick('requestsPerSecond'),
    p50: pick('p50'),
    p99: pick('p99'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    non2xx: sum('non2xx'),
    bytesPerSecond: pick('bytesPerSecond'),
  };
}

/** The value below which `fraction` of `values` fall (NaN for none). */
export function percentile(values: number[], fraction: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}
