import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { type Env, globalSettings } from '../src/config.js';
import { faultRuleFromEnv } from '../src/harness/faults.js';
import { newServiceHarness, type ServiceHarness } from '../src/harness/service-harness.js';
import { type Database, noDatabase } from '../src/platform/database.js';
import type { Clock, ServiceContext, ServiceDefinition } from '../src/platform/service.js';
import { buildService, prepareService } from '../src/server.js';
import { createTestDatabase } from './db.js';

export interface TestService<S = unknown> {
  app: FastifyInstance;
  db: Database;
  ctx: ServiceContext<S>;
  /** `http://127.0.0.1:<port>` when started with `listen: true`. */
  url: string;
  dataDir: string;
  banner: string[];
  /** Its faults and request journal. */
  harness: ServiceHarness;
  /** Closes the app; the database too unless it was handed in. */
  close(): Promise<void>;
}

export interface TestServiceOptions {
  /** The service's environment (its settings are read from this, not from process.env). */
  env?: Env;
  /** Share a database between two instances (e.g. two "processes" of one service). */
  db?: Database;
  /** Share a data directory (e.g. a restart that must find what the first run left). */
  dataDir?: string;
  /** Listen on a real loopback socket (for tests where the transport matters). */
  listen?: boolean;
  /** Log lines are collected here instead of discarded (e.g. to prove secrets are never logged). */
  logLines?: string[];
  /** The service's clock (test/clock.ts's `testClock()` to move time by hand); the system's by default. */
  clock?: Clock;
}

/** One service on a throwaway database and data directory, the way `backlot serve <id>` would run it. */
export async function startTestService<S>(
  definition: ServiceDefinition<S>,
  options: TestServiceOptions = {},
): Promise<TestService<S>> {
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), `backlot-${definition.id}-`));
  const env: Env = { BACKLOT_DATA_DIR: dataDir, LOG_LEVEL: 'info', ...options.env };
  const global = { ...globalSettings(env), prettyLogs: false };
  // Services without SQL state (posts, list) get no database, as `backlot serve` gives them.
  const db = options.db ?? (definition.schema ? await createTestDatabase() : noDatabase);
  const lines = options.logLines;
  const log = lines
    ? pino({ level: 'info' }, { write: (line: string) => void lines.push(line) })
    : pino({ level: process.env.BACKLOT_TEST_LOG ? 'info' : 'silent' });
  const ctx = await prepareService(
    definition,
    definition.settings(env),
    db,
    global,
    log,
    'http://127.0.0.1',
    options.clock,
  );
  const rule = faultRuleFromEnv(env, definition.id, definition.defaultDelayMs);
  const harness = newServiceHarness(rule, global);
  const { app, banner } = await buildService(definition, ctx, global.host, harness);
  let url = '';
  if (options.listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    ctx.publicUrl = url;
  } else {
    await app.ready();
  }
  return {
    app,
    db,
    ctx,
    url,
    dataDir,
    banner,
    harness,
    async close() {
      await app.close();
      if (!options.db) await db.close();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
