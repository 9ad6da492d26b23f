import autocannon from 'autocannon';

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  pipelining: number;
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

/** One autocannon run against `base` (fresh connections each run); `onResponse` sees every answer. */
export async function load(
  base: string,
  request: LoadRequest,
  settings: LoadSettings,
  timeoutSeconds = 10,
  onResponse?: (client: object, latencyMs: number) => void,
) {
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
