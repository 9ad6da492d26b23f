// What the test harness (faults idle, journal on) costs a hot route: the same service built with and without it,
// in one process, measured in turns so that machine noise hits both alike.
//   node --import tsx bench/harness-overhead.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { globalSettings } from '../src/config.js';
import { faultRuleFromEnv } from '../src/harness/faults.js';
import { newServiceHarness } from '../src/harness/service-harness.js';
import { noDatabase } from '../src/platform/database.js';
import type { ServiceDefinition } from '../src/platform/service.js';
import { buildService, prepareService } from '../src/server.js';
import { list } from '../src/services/list/index.js';
import { posts } from '../src/services/posts/index.js';

async function start<S>(definition: ServiceDefinition<S>, withHarness: boolean) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-harness-bench-'));
  // warn: request logging off, so posts' fast path is on, as in the posts benchmark.
  const env = { BACKLOT_DATA_DIR: dataDir, LOG_LEVEL: 'warn', LIST_DELAY_MS: '0' };
  const global = globalSettings(env);
  const log = pino({ level: 'warn' });
  const ctx = await prepareService(
    definition,
    definition.settings(env),
    noDatabase,
    global,
    log,
    'http://127.0.0.1',
  );
  const harness = withHarness
    ? newServiceHarness(faultRuleFromEnv(env, definition.id, definition.defaultDelayMs), global)
    : undefined;
  const { app } = await buildService(definition, ctx, '127.0.0.1', harness);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const close = async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, close };
}

const rate = (url: string) =>
  autocannon({ url, connections: 10, duration: 5 }).then((result) => result.requests.average);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

for (const [definition, route] of [
  [posts, '/posts/1'],
  [list, '/list/1'],
] as const) {
  const without = await start(definition as ServiceDefinition<unknown>, false);
  const withIt = await start(definition as ServiceDefinition<unknown>, true);
  const runs = { without: [] as number[], with: [] as number[] };
  for (let turn = 0; turn < 4; turn++) {
    runs.without.push(await rate(without.url + route));
    runs.with.push(await rate(withIt.url + route));
  }
  const ratio = median(runs.with) / median(runs.without);
  console.log(
    `${definition.id} ${route}: req/s without ${runs.without.join(', ')}; with ${runs.with.join(', ')}`,
  );
  console.log(`  median with/without: ${ratio.toFixed(2)}`);
  await without.close();
  await withIt.close();
}
