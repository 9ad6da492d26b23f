import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../support/postgres.js';
import { startServer } from './server.js';

/** How backlot is started: the built output (production) or the TypeScript sources (smoke runs in tests). */
export interface Launch {
  fromSource: boolean;
  /** Lets the bench ask the server for its heap after a full GC (soak). */
  heapProbe?: boolean;
  /** The cores it runs on (see cores.ts); anywhere when undefined. */
  cores?: string;
}

const root = path.resolve(import.meta.dirname, '../..');

/** The V8 flag `npm start` and bin/backlot.js run backlot with, so the bench measures what users run. */
const startFlags = ['--max-semi-space-size=32'];

/**
 * The command line that runs backlot with `args`, as `npm start` and bin/backlot.js do (or the sources).
 * BENCH_BACKLOT_CLI names another build's `dist/cli.js`, to measure it with this bench (before and after).
 */
export function backlotCommand(launch: Launch, args: string[]) {
  return launch.fromSource
    ? [process.execPath, ...startFlags, '--import', 'tsx', path.join(root, 'src/cli.ts'), ...args]
    : [
        process.execPath,
        ...startFlags,
        process.env.BENCH_BACKLOT_CLI ?? path.join(root, 'dist/cli.js'),
        ...args,
      ];
}

/** `backlot serve <ids>` with production logging on free ports; resolves when every service is ready. */
export async function startBacklot(
  launch: Launch,
  ids: string[],
  env: Record<string, string | undefined>,
  readyPath = '/readyz',
) {
  const ports = await Promise.all(ids.map(() => freePort()));
  const portEnv = Object.fromEntries(ids.map((id, i) => [`${id.toUpperCase()}_PORT`, String(ports[i])]));
  const dataDir = env.BACKLOT_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'backlot-bench-'));
  // With one id the service is "alone" and --port decides; with several each <ID>_PORT does.
  const args = [
    'serve',
    ...ids,
    '--host',
    '127.0.0.1',
    ...(ids.length === 1 ? ['--port', String(ports[0])] : []),
  ];
  const server = await startServer(`backlot ${ids.join(' ')}`, backlotCommand(launch, args), {
    url: `http://127.0.0.1:${ports[0]}`,
    readyPath,
    heapProbe: launch.heapProbe,
    cores: launch.cores,
    env: {
      LOG_LEVEL: 'warn',
      LOG_PRETTY: 'false',
      NODE_ENV: 'production',
      BACKLOT_DATA_DIR: dataDir,
      ...portEnv,
      ...env,
    },
  });
  // The other services start alongside the first; on a loaded machine that can take a while, so wait up to a
  // minute and say which one never became ready rather than letting the first request fail.
  for (const [i, port] of ports.slice(1).entries()) {
    let ok = false;
    for (let attempt = 0; attempt < 1200 && !ok; attempt++) {
      ok = await fetch(`http://127.0.0.1:${port}${readyPath}`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ok) await new Promise((r) => setTimeout(r, 50));
    }
    if (!ok) {
      await server.stop();
      throw new Error(`backlot ${ids[i + 1]} on port ${port} was not ready within 60 s`);
    }
  }
  return {
    ...server,
    urls: Object.fromEntries(ids.map((id, i) => [id, `http://127.0.0.1:${ports[i]}`])),
    dataDir,
  };
}

/** json-server 0.17.4's command line. */
export const jsonServerCli = path.join(root, 'node_modules/json-server/lib/cli/bin.js');

/** json-server 0.17.4 (the engine behind the public posts API and the list service's original) on a db file. */
export async function startJsonServer(db: unknown, cores?: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-json-server-'));
  const file = path.join(dir, 'db.json');
  writeFileSync(file, JSON.stringify(db));
  const port = await freePort();
  return startServer(
    'json-server 0.17.4',
    [process.execPath, jsonServerCli, file, '--port', String(port), '--quiet'],
    {
      url: `http://127.0.0.1:${port}`,
      readyPath: '/db',
      cores,
    },
  );
}

/** The ceiling: a bare node:http server sending one constant buffer (with `headers` when given). */
export async function startCeiling(
  body: string,
  headers?: Record<string, string>,
  delayMs = 0,
  cores?: string,
) {
  const port = await freePort();
  const env = {
    PORT: String(port),
    CEILING_BODY: body,
    CEILING_HEADERS: headers && JSON.stringify(headers),
    CEILING_DELAY_MS: String(delayMs),
  };
  return startServer(
    'node:http constant',
    // With backlot's V8 flags, so the two differ only in what they do per request.
    [process.execPath, ...startFlags, '--import', 'tsx', path.join(root, 'bench/peers/ceiling.ts')],
    { url: `http://127.0.0.1:${port}`, readyPath: '/', env, cores },
  );
}

/** The list's 100 items (as the list benchmark writes them), answered by the ceiling after `delayMs`. */
export function startDelayedCeiling(delayMs: number) {
  const items = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, item: `item ${i + 1}` }));
  return startCeiling(JSON.stringify(items, null, 2), undefined, delayMs);
}
