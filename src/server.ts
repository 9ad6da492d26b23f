import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { ConfigError, type Env, envPort, envString, type GlobalSettings } from './config.js';
import { FaultHeaders, type FaultRule, faultRuleFromEnv } from './harness/faults.js';
import type { JournalEntry } from './harness/journal.js';
import { harnessWrapper, newServiceHarness, type ServiceHarness } from './harness/service-harness.js';
import { HarnessState } from './harness/state.js';
import { consoleDestination } from './platform/console-log.js';
import { corsPolicy, hostCheckOn } from './platform/cors.js';
import { type Database, noDatabase, openDatabase } from './platform/database.js';
import { migrate } from './platform/migrations.js';
import { GeneratedCredentials } from './platform/secrets.js';
import {
  type Clock,
  type RunningService,
  type ServiceContext,
  type ServiceDefinition,
  type ServiceEntry,
  systemClock,
} from './platform/service.js';
import { keepTickObjectClasses } from './platform/tick-objects.js';

export const version: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

/** Headers and fields that carry secrets: never written to the log. */
const redact = [
  'req.headers.authorization',
  'req.headers["db-user-secret"]',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
];

export function createLogger(global: GlobalSettings): FastifyBaseLogger {
  const options = { level: global.logLevel, redact };
  return global.prettyLogs ? pino(options, consoleDestination()) : pino(options);
}

export interface ServicePlan {
  entry: ServiceEntry<any>;
  port: number;
  host: string;
  settings: unknown;
  /** `<ID>_DELAY_MS`, `<ID>_ERROR_RATE`, `<ID>_ERROR_STATUS`. */
  faults: FaultRule;
  /** What to change for another port, for the message when this one cannot be had (`POSTS_PORT`, `--port`). */
  portSetting: string;
}

/** Works out port, host and settings for each chosen service; throws ConfigError on a bad setting. */
export function planServices(
  chosen: ServiceEntry<any>[],
  env: Env,
  global: GlobalSettings,
  portFlag?: number,
): ServicePlan[] {
  const alone = chosen.length === 1;
  return chosen.map((entry) => {
    const idPort = `${entry.id.toUpperCase()}_PORT`;
    let port = alone ? entry.ports.alone : entry.ports.together;
    let portSetting = alone ? `${idPort} or --port` : idPort;
    let host = global.host;
    if (alone) {
      for (const name of entry.portEnv ?? ['PORT']) {
        if (env[name]) {
          port = envPort(env, name, port);
          portSetting = name;
        }
      }
      if (entry.hostEnv) host = envString(env, entry.hostEnv, host);
    }
    if (env[idPort]) portSetting = idPort;
    port = envPort(env, idPort, port);
    if (alone && portFlag !== undefined) {
      port = portFlag;
      portSetting = '--port';
    }
    const faults = faultRuleFromEnv(env, entry.id, entry.defaultDelayMs);
    return { entry, port, host, settings: entry.settings(env), faults, portSetting };
  });
}

export interface RunningApp {
  id: string;
  app: FastifyInstance;
  url: string;
  docsUrl: string;
  banner: string[];
  /** The service's settings and what the harness's checkpoints need of it. */
  settings: unknown;
  schema?: string;
  snapshot?: RunningService['snapshot'];
  harness: ServiceHarness;
}

export interface Backlot {
  services: RunningApp[];
  db: Database;
  /** Reset and checkpoints of the services' data (the programmatic API, the admin API). */
  state: HarnessState;
  /** Settles once the first-start state of a first start is recorded (see HarnessState.seed). */
  seeded: Promise<void>;
  /** The switch for X-Backlot-Delay / X-Backlot-Status, shared by every service. */
  faultHeaders: FaultHeaders;
  /** Each service's last requests (oldest first), and a way to forget them. */
  journal: { list(id: string): JournalEntry[]; clear(id: string): void };
  /**
   * The start of a shutdown behind a load balancer: `/readyz` answers 503 so it stops sending requests here, while
   * requests are still served (with `Connection: close`, so clients move to other processes).
   */
  drain(): void;
  close(): Promise<void>;
}

/** Set once the process is shutting down (see Backlot.drain). */
export interface Draining {
  on: boolean;
}

/** Migrations and start-up of one service on a database, without HTTP: also what operator commands use. */
export async function prepareService<S>(
  definition: ServiceDefinition<S>,
  settings: S,
  db: Database,
  global: GlobalSettings,
  log: FastifyBaseLogger,
  publicUrl: string,
  clock: Clock = systemClock,
): Promise<ServiceContext<S>> {
  if (definition.schema) await migrate(db, definition.schema, definition.migrations ?? []);
  return {
    settings,
    global,
    db,
    log,
    credentials: new GeneratedCredentials(global.dataDir),
    publicUrl,
    clock,
  };
}

/**
 * Builds the Fastify app for one service (not listening yet). Tests call this with a throwaway database.
 * `listenHost` (where it will listen) turns the DNS-rebinding Host check on when it is a loopback address.
 */
export async function buildService<S>(
  definition: ServiceDefinition<S>,
  ctx: ServiceContext<S>,
  listenHost?: string,
  harness?: ServiceHarness,
  draining: Draining = { on: false },
) {
  // Fastify and its plugins load with the first service, not for `--help` or an operator command.
  const [running, { createApp }] = await Promise.all([definition.start(ctx), import('./platform/http.js')]);
  const { corsOrigins, allowedHosts } = ctx.global;
  if (harness && definition.delayParam) harness.faults.delayParam = definition.delayParam;
  const service = running.beforeRouting
    ? { ...definition, beforeRouting: running.beforeRouting }
    : definition;
  const app = await createApp(service, {
    cors: corsPolicy(Boolean(definition.credentialed), corsOrigins),
    allowedHosts: hostCheckOn(listenHost, allowedHosts)
      ? allowedHosts === '*'
        ? []
        : (allowedHosts ?? [])
      : undefined,
    logger: ctx.log,
    bodyLimit: ctx.global.bodyLimit,
    trustProxy: ctx.global.trustProxy,
    ready: () =>
      draining.on
        ? Promise.reject(new Error('shutting down'))
        : definition.schema
          ? ctx.db.ping()
          : Promise.resolve(),
    version,
    fastPath: running.fastPath,
    draining: () => draining.on,
    harness: harness && harnessWrapper(harness),
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (draining.on) reply.header('connection', 'close');
  });
  await app.register(running.routes);
  if (running.close) app.addHook('onClose', running.close);
  return { app, banner: running.banner ?? [], snapshot: running.snapshot };
}

const displayHost = (host: string) => (host === '0.0.0.0' || host === '::' ? 'localhost' : host);

/** Migrates, builds and starts one planned service on its own port. */
async function startService(
  plan: ServicePlan,
  definition: ServiceDefinition<any>,
  db: Database,
  global: GlobalSettings,
  logger: FastifyBaseLogger,
  faultHeaders: FaultHeaders,
  draining: Draining,
): Promise<RunningApp> {
  const url = `http://${displayHost(plan.host)}:${plan.port}`;
  const log = logger.child({ service: definition.id });
  const ctx = await prepareService(definition, plan.settings, db, global, log, url);
  const harness = newServiceHarness(plan.faults, global, faultHeaders);
  const { app, banner, snapshot } = await buildService(definition, ctx, plan.host, harness, draining);
  try {
    await app.listen({ port: plan.port, host: plan.host });
  } catch (error) {
    await app.close();
    throw listenError(error, definition.id, plan);
  }
  const port = (app.server.address() as { port: number }).port;
  const actualUrl = `http://${displayHost(plan.host)}:${port}`;
  const docsUrl = actualUrl + definition.docsPath;
  const { schema } = definition;
  return {
    id: definition.id,
    app,
    url: actualUrl,
    docsUrl,
    banner,
    settings: plan.settings,
    schema,
    snapshot,
    harness,
  };
}

/** A port that cannot be had, said with the service and the setting to change rather than the errno. */
function listenError(error: unknown, id: string, plan: ServicePlan): unknown {
  const where = `${plan.host}:${plan.port}`;
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new ConfigError(
        `${id}: port ${plan.port} is in use (${where}); choose another with ${plan.portSetting}`,
      );
    case 'EACCES':
      return new ConfigError(
        `${id}: not allowed to listen on port ${plan.port} (${where}; ports below 1024 need privileges); choose another with ${plan.portSetting}`,
      );
    case 'EADDRNOTAVAIL':
      return new ConfigError(`${id}: ${plan.host} is not an address of this machine; set HOST or --host`);
    default:
      return error;
  }
}

const fileErrors = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR', 'EEXIST', 'ENOSPC']);

/** A file the data directory should hold that cannot be written: said with the setting, not the errno alone. */
export function dataDirError(error: unknown, dataDir: string): unknown {
  const { code, path: file, syscall } = error as NodeJS.ErrnoException;
  const inside = file !== undefined && path.resolve(file).startsWith(path.resolve(dataDir));
  if (!code || !fileErrors.has(code) || !inside) return error;
  const why =
    code === 'EROFS'
      ? 'it is read-only'
      : code === 'ENOSPC'
        ? 'the disk is full'
        : `${syscall} ${file}: ${code}`;
  return new ConfigError(
    `the data directory ${dataDir} cannot be written (${why}); set BACKLOT_DATA_DIR or --data-dir to a writable directory`,
  );
}

const closeApps = (apps: RunningApp[]) => Promise.allSettled(apps.map((s) => s.app.close()));

/**
 * Opens the database once while the chosen services' modules load, and migrates, builds and starts every planned
 * service on its own port, all at once: they share nothing but the database (where migrations take turns through
 * an advisory lock), and services without SQL state do not wait for it. If any fails, the others are closed again
 * and the first failure (in banner order) is thrown.
 */
export async function startBacklot(plans: ServicePlan[], global: GlobalSettings, logger: FastifyBaseLogger) {
  // Before the services load: their start-up runs full GCs.
  keepTickObjectClasses();
  const needsDatabase = plans.some((plan) => plan.entry.schema);
  const opening = needsDatabase ? openDatabase(global.database, global.dataDir) : Promise.resolve(noDatabase);
  // A failure to open is reported through the services that need the database (they may still be loading).
  opening.catch(() => {});
  const faultHeaders = new FaultHeaders(global.faultHeaders);
  const draining: Draining = { on: false };
  const results = await Promise.allSettled(
    plans.map(async (plan) => {
      const definition = await plan.entry.load();
      const db = definition.schema ? await opening : noDatabase;
      return startService(plan, definition, db, global, logger, faultHeaders, draining);
    }),
  );
  const [opened] = await Promise.allSettled([opening]);
  const db = opened.status === 'fulfilled' ? opened.value : noDatabase;
  const services = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await closeApps(services);
    await db.close();
    throw dataDirError(failed.reason, global.dataDir);
  }
  const journalOf = (id: string) => {
    const service = services.find((s) => s.id === id);
    if (!service) throw new Error(`service "${id}" is not running`);
    return service.harness.journal;
  };
  const state = new HarnessState(services, db, global.dataDir);
  // Not awaited here: the banner (and readiness) do not wait for it; reset and checkpoints queue behind it.
  const seeded = state.seed();
  seeded.catch((err) => logger.warn({ err }, 'recording the first-start state failed; reset will not work'));
  const backlot: Backlot = {
    services,
    db,
    state,
    seeded,
    faultHeaders,
    journal: { list: (id) => journalOf(id).list(), clear: (id) => journalOf(id).clear() },
    drain() {
      draining.on = true;
    },
    async close() {
      // A checkpoint or reset under way finishes first (it uses the services' stores and the database).
      await state.close();
      await closeApps(services);
      await db.close();
    },
  };
  return backlot;
}
