import { readFileSync } from 'node:fs';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { type Env, envPort, envString, type GlobalSettings } from './config.js';
import { corsPolicy, hostCheckOn } from './platform/cors.js';
import { type Database, migrate, noDatabase, openDatabase } from './platform/database.js';
import { createApp } from './platform/http.js';
import { GeneratedCredentials } from './platform/secrets.js';
import type { ServiceContext, ServiceDefinition } from './platform/service.js';

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
  return pino({
    level: global.logLevel,
    redact,
    transport: global.prettyLogs ? { target: 'pino-pretty', options: { colorize: true } } : undefined,
  });
}

export interface ServicePlan {
  definition: ServiceDefinition<any>;
  port: number;
  host: string;
  settings: unknown;
}

/** Works out port, host and settings for each chosen service; throws ConfigError on a bad setting. */
export function planServices(
  chosen: ServiceDefinition<any>[],
  env: Env,
  global: GlobalSettings,
  portFlag?: number,
): ServicePlan[] {
  const alone = chosen.length === 1;
  return chosen.map((definition) => {
    const idPort = `${definition.id.toUpperCase()}_PORT`;
    let port = alone ? definition.ports.alone : definition.ports.together;
    let host = global.host;
    if (alone) {
      for (const name of definition.portEnv ?? []) if (env[name]) port = envPort(env, name, port);
      if (definition.hostEnv) host = envString(env, definition.hostEnv, host);
    }
    port = envPort(env, idPort, port);
    if (alone && portFlag !== undefined) port = portFlag;
    return { definition, port, host, settings: definition.settings(env) };
  });
}

export interface RunningApp {
  id: string;
  app: FastifyInstance;
  url: string;
  docsUrl: string;
  banner: string[];
}

export interface Backlot {
  services: RunningApp[];
  db: Database;
  close(): Promise<void>;
}

/** Migrations and start-up of one service on a database, without HTTP: also what operator commands use. */
export async function prepareService<S>(
  definition: ServiceDefinition<S>,
  settings: S,
  db: Database,
  global: GlobalSettings,
  log: FastifyBaseLogger,
  publicUrl: string,
): Promise<ServiceContext<S>> {
  if (definition.schema) await migrate(db, definition.schema, definition.migrations);
  return { settings, global, db, log, credentials: new GeneratedCredentials(global.dataDir), publicUrl };
}

/**
 * Builds the Fastify app for one service (not listening yet). Tests call this with a throwaway database.
 * `listenHost` (where it will listen) turns the DNS-rebinding Host check on when it is a loopback address.
 */
export async function buildService<S>(
  definition: ServiceDefinition<S>,
  ctx: ServiceContext<S>,
  listenHost?: string,
) {
  const running = await definition.start(ctx);
  const { corsOrigins, allowedHosts } = ctx.global;
  const app = await createApp(definition, {
    cors: corsPolicy(Boolean(definition.credentialed), corsOrigins),
    allowedHosts: hostCheckOn(listenHost, allowedHosts)
      ? allowedHosts === '*'
        ? []
        : (allowedHosts ?? [])
      : undefined,
    logger: ctx.log,
    bodyLimit: ctx.global.bodyLimit,
    trustProxy: ctx.global.trustProxy,
    ready: () => (definition.schema ? ctx.db.ping() : Promise.resolve()),
    version,
    fastPath: running.fastPath,
  });
  await app.register(running.routes);
  if (running.close) app.addHook('onClose', running.close);
  return { app, banner: running.banner ?? [] };
}

const displayHost = (host: string) => (host === '0.0.0.0' || host === '::' ? 'localhost' : host);

/** Opens the database once, then migrates, builds and starts every planned service on its own port. */
export async function startBacklot(plans: ServicePlan[], global: GlobalSettings, logger: FastifyBaseLogger) {
  const needsDatabase = plans.some((plan) => plan.definition.schema);
  const db = needsDatabase ? await openDatabase(global.database, global.dataDir) : noDatabase;
  const services: RunningApp[] = [];
  try {
    for (const plan of plans) {
      const { definition } = plan;
      const url = `http://${displayHost(plan.host)}:${plan.port}`;
      const log = logger.child({ service: definition.id });
      const ctx = await prepareService(definition, plan.settings, db, global, log, url);
      const { app, banner } = await buildService(definition, ctx, plan.host);
      await app.listen({ port: plan.port, host: plan.host });
      const port = (app.server.address() as { port: number }).port;
      const actualUrl = `http://${displayHost(plan.host)}:${port}`;
      services.push({
        id: definition.id,
        app,
        url: actualUrl,
        docsUrl: actualUrl + definition.docsPath,
        banner,
      });
    }
  } catch (error) {
    await Promise.allSettled(services.map((s) => s.app.close()));
    await db.close();
    throw error;
  }
  const backlot: Backlot = {
    services,
    db,
    async close() {
      await Promise.allSettled(services.map((s) => s.app.close()));
      await db.close();
    },
  };
  return backlot;
}
