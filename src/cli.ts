#!/usr/bin/env node
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, type Env, type GlobalSettings, globalSettings, loadEnv } from './config.js';
import type { OperatorCommands, RunningAdmin } from './harness/admin.js';
import { stateUsage } from './harness/usage.js';
import { commandUsage, findCommand, parseCommand, unknownCommand } from './platform/commands.js';
import { DatabaseError, openDatabase } from './platform/database.js';
import { type ServiceDefinition, type ServiceEntry, UsageError } from './platform/service.js';
import {
  type Backlot,
  createLogger,
  dataDirError,
  planServices,
  prepareService,
  startBacklot,
  version,
} from './server.js';
import { findService, serviceIds, services } from './services/index.js';

const flags = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  delay: { type: 'string' },
  routes: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

const flagNames = Object.keys(flags).map((f) => `--${f}`);

/** One line per operator command of `definitions`: its usage, then what it does. */
function commandHelp(definitions: Pick<ServiceDefinition, 'id' | 'commands'>[]) {
  return definitions.flatMap((s) =>
    Object.entries(s.commands ?? {}).map(
      ([name, c]) => `  backlot ${`${s.id} ${commandUsage(name, c)}`.padEnd(54)} ${c.summary}`,
    ),
  );
}

async function help() {
  // Only the command modules load, not the services: --help stays quick.
  const commands = commandHelp(
    await Promise.all(services.map(async (s) => ({ id: s.id, commands: await s.commands?.() }))),
  );
  return `backlot ${version} — sample and prototyping APIs, all in one process

Usage:
  backlot                         serve every API (${serviceIds.join(', ')})
  backlot serve [ids...]          serve only the APIs named
${commands.join('\n')}
${stateUsage.map((line) => `  ${line}`).join('\n')}

Options:
  -p, --port N        port, when one service is served (otherwise <ID>_PORT, e.g. POSTS_PORT=9000)
      --host H        interface to listen on (default 0.0.0.0; HOST)
      --data-dir D    where embedded data lives (default ./data; BACKLOT_DATA_DIR)
      --delay MS      the list service's response delay, ms or a range (default 1500; LIST_DELAY_MS)
      --routes FILE   the list service's custom routes, json-server's routes.json (LIST_ROUTES)
  -v, --version       print the version
  -h, --help          print this help

The admin page and API listen on http://127.0.0.1:8090 (ADMIN_PORT, 0 for none; docs/testing.md).
Operator commands take --data-dir too, and --help for their own usage.
Settings come from .env, the environment and these flags; .env.example lists them all.
`;
}

class ExitError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: flags, allowPositionals: true, strict: true });
  } catch (error) {
    const option = /'([^']+)'/.exec((error as Error).message)?.[1] ?? '';
    throw new ExitError(`unknown or malformed option ${option} (valid options: ${flagNames.join(', ')})`, 2);
  }
}

function parsePort(raw: string | undefined) {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535)
    throw new ExitError(`--port: not a port number: "${raw}"`, 2);
  return Number(raw);
}

async function serve(ids: string[], options: ReturnType<typeof parse>['values']) {
  const unknown = ids.filter((id) => !findService(id));
  if (unknown.length > 0) {
    throw new ExitError(`unknown service "${unknown[0]}" (valid: ${serviceIds.join(', ')})`, 2);
  }
  const chosen = ids.length > 0 ? [...new Set(ids)].map((id) => findService(id)!) : services;
  const port = parsePort(options.port);
  if (port !== undefined && chosen.length > 1) {
    throw new ExitError('--port applies when one service is served; use <ID>_PORT for several', 2);
  }
  const env = loadEnv();
  if (options.delay !== undefined) env.LIST_DELAY_MS = options.delay;
  if (options.routes !== undefined) env.LIST_ROUTES = options.routes;
  const global = globalSettings(env, { dataDir: options['data-dir'], host: options.host });
  const plans = planServices(chosen, env, global, port);
  const logger = createLogger(global);
  const backlot = await startBacklot(plans, global, logger);
  let admin: { admin?: RunningAdmin; banner: string[] } = { banner: [] };
  try {
    if (global.admin.port !== 0)
      admin = await (await import('./harness/admin-serve.js')).serveAdmin(
        backlot,
        global,
        logger,
        backlot.state,
        operatorCommands(backlot, env, global, logger),
      );
  } catch (error) {
    await backlot.close();
    throw error;
  }
  // Before the banner: whoever waits for it may stop the process right away.
  handleSignals(backlot, global, logger, admin.admin);
  printBanner(
    backlot,
    global.database.url ? 'PostgreSQL' : `embedded PostgreSQL in ${global.dataDir}/pg`,
    admin.banner,
  );
}

/** Operator commands run by this process for the admin API (`backlot machines token create` beside a server). */
function operatorCommands(
  backlot: Backlot,
  env: Env,
  global: GlobalSettings,
  logger: FastifyBaseLogger,
): OperatorCommands {
  return async (id, argv) => {
    const entry = findService(id);
    if (!entry?.commands) throw new UsageError(`"${id}" has no operator commands`);
    const definition = await entry.load();
    const found = findCommand(definition, argv);
    if (!found) throw new UsageError(unknownCommand(definition, argv));
    const { global: flags, usage, ...input } = parseCommand(id, found.name, found.command, found.rest);
    if (flags.help) return `${usage}\n${found.command.summary}`;
    if (definition.schema && !backlot.services.some((s) => s.schema)) {
      throw new UsageError(`this backlot has no database open: run the command without a running server`);
    }
    const served = backlot.services.find((s) => s.id === id);
    let settings: unknown;
    try {
      settings = served?.settings ?? definition.settings(env);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const log = logger.child({ service: id });
    const ctx = await prepareService(definition, settings, backlot.db, global, log, served?.url ?? '');
    return found.command.run(input as never, ctx);
  };
}

function printBanner(backlot: Backlot, database: string, adminLines: string[]) {
  const lines = [`backlot ${version} — database: ${database}`];
  for (const s of backlot.services) {
    lines.push(`  ${s.id.padEnd(10)} ${s.url.padEnd(24)} docs ${s.docsUrl}`);
    for (const line of s.banner) lines.push(`  ${''.padEnd(10)} ${line}`);
  }
  lines.push(...adminLines);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function handleSignals(
  backlot: Backlot,
  {
    shutdownGraceMs: graceMs,
    shutdownDrainMs: drainMs,
  }: Pick<GlobalSettings, 'shutdownGraceMs' | 'shutdownDrainMs'>,
  logger: { info(msg: string): void },
  admin?: { close(): Promise<void> },
) {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    // SIGTERM is how orchestrators and rolling restarts stop a process behind a load balancer: keep serving
    // while readiness says 503, until the balancer has stopped sending here. Ctrl+C (SIGINT) stops at once.
    if (signal === 'SIGTERM' && drainMs > 0) {
      logger.info(`${signal}: /readyz answers 503, still serving for ${drainMs} ms (SHUTDOWN_DRAIN_MS)`);
      backlot.drain();
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    logger.info(`${signal}: finishing in-flight requests, then stopping`);
    // In-flight requests get `graceMs`; then every socket is closed so shutdown is bounded.
    const force = setTimeout(() => {
      for (const s of backlot.services) s.app.server.closeAllConnections();
    }, graceMs);
    force.unref();
    await admin?.close();
    await backlot.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function runCommand(entry: ServiceEntry, argv: string[]) {
  const definition = await entry.load();
  const found = findCommand(definition, argv);
  if (!found && (argv[0] === '--help' || argv[0] === '-h')) {
    return void process.stdout.write(`Commands:\n${commandHelp([definition]).join('\n')}\n`);
  }
  if (!found) throw new ExitError(unknownCommand(definition, argv), 2);
  const {
    global: flags,
    usage,
    ...input
  } = parseCommand(definition.id, found.name, found.command, found.rest);
  if (flags.help) return void process.stdout.write(`${usage}\n${found.command.summary}\n`);
  const env = loadEnv();
  const global = globalSettings(env, { dataDir: flags['data-dir'] });
  const logger = createLogger({ ...global, logLevel: 'warn' });
  let db: Awaited<ReturnType<typeof openDatabase>>;
  try {
    db = await openDatabase(global.database, global.dataDir);
  } catch (error) {
    // A running backlot holds the embedded database: the command goes through its admin API instead.
    const inUse = error instanceof DatabaseError && /in use by another backlot process/.test(error.message);
    const { runningAdmin, adminCall } = await import('./harness/running.js');
    const admin = inUse ? runningAdmin(global.dataDir) : undefined;
    if (!admin) throw dataDirError(error, global.dataDir);
    const route = `/services/${definition.id}/commands`;
    const { output } = await adminCall<{ output: string }>(admin, env.ADMIN_TOKEN, 'POST', route, { argv });
    return void process.stdout.write(`${output}
`);
  }
  try {
    const ctx = await prepareService(definition, definition.settings(env), db, global, logger, '');
    process.stdout.write(`${await found.command.run(input as never, ctx)}\n`);
  } finally {
    await db.close();
  }
}

async function main(argv: string[]) {
  // Everything backlot writes (database files, the list file, uploads, credentials) is for this user only.
  process.umask(0o077);
  const first = argv[0];
  // Operator commands take their own flags, so they are routed before the serve flags are parsed.
  const commandsOf = first ? findService(first) : undefined;
  if (commandsOf?.commands) return runCommand(commandsOf, argv.slice(1));
  if (first === 'reset' || first === 'checkpoint') {
    const { runStateCommand } = await import('./harness/cli.js');
    return void process.stdout.write(`${await runStateCommand(first, argv.slice(1), loadEnv())}\n`);
  }
  const { values, positionals } = parse(argv);
  if (values.help) return void process.stdout.write(await help());
  if (values.version) return void process.stdout.write(`${version}\n`);
  const [verb, ...ids] = positionals;
  if (verb === undefined) return serve([], values);
  if (verb === 'serve') return serve(ids, values);
  throw new ExitError(
    `unknown command "${verb}" (valid: serve, reset, checkpoint, ${serviceIds.join(', ')}, --help)`,
    2,
  );
}

main(process.argv.slice(2)).catch((error) => {
  const known = [ConfigError, DatabaseError, UsageError, ExitError].some((type) => error instanceof type);
  // StateError (harness/state.ts) by name: its module loads only with `reset` and `checkpoint`.
  const refused = ['StateError', 'CheckpointNotFound'].includes((error as Error)?.name);
  const code = error instanceof ExitError ? error.code : error instanceof UsageError ? 2 : 1;
  let message = known || refused ? error.message : `${(error as Error).message ?? error}`.split('\n')[0];
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    message = `port already in use: ${(error as Error).message.replace(/^.*EADDRINUSE: /, '')}`;
  }
  process.stderr.write(`backlot: ${message}\n`);
  process.exit(code);
});
