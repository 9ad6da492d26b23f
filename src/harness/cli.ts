import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Env, globalSettings } from '../config.js';
import {
  DatabaseError,
  embeddedDataExists,
  noDatabase,
  openDatabase,
  openPostgres,
} from '../platform/database.js';
import { lockHolder } from '../platform/lock-file.js';
import { migrate } from '../platform/migrations.js';
import { UsageError } from '../platform/service.js';
import { findService, serviceIds, services } from '../services/index.js';
import { checkpointNameRule, isCheckpointName } from './checkpoint-name.js';
import { adminCall, type RunningAdminRecord, runningAdmin } from './running.js';
import { checkpointSchema } from './sql-state.js';
import { HarnessState, SEED, StateError, type StatefulService } from './state.js';
import { stateUsage } from './usage.js';

const usage = `usage:\n${stateUsage.map((l) => `  ${l}`).join('\n')}\nOptions: --data-dir D`;

/**
 * `backlot reset` and `backlot checkpoint ...`. With a backlot serving the data directory (and its admin on), the
 * running process does it through its admin API: it holds the embedded database and the list file. Otherwise the
 * command works on the data directory and database itself.
 */
export async function runStateCommand(verb: 'reset' | 'checkpoint', argv: string[], env: Env) {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]}\n${usage}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return usage;
  const action = verb === 'reset' ? 'reset' : positionals.shift();
  if (
    action !== 'reset' &&
    action !== 'save' &&
    action !== 'restore' &&
    action !== 'delete' &&
    action !== 'list'
  ) {
    throw new UsageError(
      `checkpoint: expected save, restore, delete or list, got "${action ?? ''}"\n${usage}`,
    );
  }
  const named = action === 'save' || action === 'restore' || action === 'delete';
  const name = named ? positionals.shift() : undefined;
  if (named && !name) throw new UsageError(`checkpoint ${action}: NAME is required\n${usage}`);
  // The state's own rule, checked before the database is opened.
  if (named && !isCheckpointName(name)) {
    throw new StateError(`checkpoint name "${name}": use ${checkpointNameRule}`);
  }
  if (action === 'list' && positionals.length > 0) throw new UsageError(`checkpoint list takes no arguments`);
  const unknown = positionals.find((id) => !findService(id));
  if (unknown) throw new UsageError(`unknown service "${unknown}" (valid: ${serviceIds.join(', ')})`);

  const global = globalSettings(env, { dataDir: values['data-dir'] });
  const { dataDir } = global;
  // A running backlot holds the data: it does the work, through its admin API.
  const running = runningAdmin(dataDir);
  if (running) return viaAdmin(running, env.ADMIN_TOKEN, action, name, [...new Set(positionals)], dataDir);
  const inDatabase = positionals.length > 0 ? new Set<string>() : await seededInDatabase(global.database);
  const seeded = (id: string) =>
    existsSync(path.join(dataDir, 'checkpoints', SEED, id, 'complete')) || inDatabase.has(id);
  // Without ids: the services this data directory or the shared database has served (their first-start state is recorded).
  const ids = positionals.length > 0 ? [...new Set(positionals)] : serviceIds.filter(seeded);
  if (ids.length === 0) {
    throw new StateError(`no service has been served from ${dataDir} yet: nothing to reset or checkpoint`);
  }
  const chosen: StatefulService[] = services
    .filter((s) => ids.includes(s.id))
    .map((s) => ({ id: s.id, schema: s.schema, settings: s.settings(env) }));
  const listFile = chosen.find((s) => s.id === 'list');
  if (listFile && action !== 'list') await refuseLockedList(listFile, dataDir);

  const needsDatabase = chosen.some((s) => s.schema);
  if (needsDatabase && !global.database.url && !embeddedDataExists(dataDir)) {
    throw new StateError(`no embedded database in ${dataDir}: nothing has been served from it yet`);
  }
  const db = needsDatabase ? await openRefusingRunning(global.database, dataDir) : noDatabase;
  const state = new HarnessState(chosen, db, dataDir);
  try {
    // The checkpoint copies the tables as the current migrations leave them.
    for (const s of services.filter((s) => s.schema && ids.includes(s.id))) {
      const definition = await s.load();
      await migrate(db, s.schema!, definition.migrations ?? []);
    }
    const list = chosen.map((s) => s.id).join(', ');
    switch (action) {
      case 'reset':
        await state.reset(ids);
        return `reset ${list} to the first-start state`;
      case 'save':
        await state.checkpoint(name!, ids);
        return `saved checkpoint "${name}" of ${list}`;
      case 'restore':
        await state.restore(name!, positionals.length > 0 ? ids : undefined);
        return `restored checkpoint "${name}"`;
      case 'delete':
        await state.deleteCheckpoint(name!);
        return `deleted checkpoint "${name}" of ${list}`;
      default:
        return listing(await state.checkpointSizes(), dataDir);
    }
  } finally {
    await state.close();
    await db.close();
  }
}

/** On PostgreSQL, the services whose first-start state the database holds (any data directory served them). */
async function seededInDatabase(settings: Parameters<typeof openDatabase>[0]): Promise<Set<string>> {
  if (!settings.url) return new Set();
  const db = await openPostgres(settings, 1);
  try {
    const { rows } = await db.query<{ name: string }>(
      'SELECT nspname AS name FROM pg_namespace WHERE nspname = ANY($1)',
      [services.filter((s) => s.schema).map((s) => checkpointSchema(s.schema!, SEED))],
    );
    const found = new Set(rows.map((r) => r.name));
    return new Set(
      services.filter((s) => s.schema && found.has(checkpointSchema(s.schema, SEED))).map((s) => s.id),
    );
  } finally {
    await db.close();
  }
}

type Action = 'reset' | 'save' | 'restore' | 'delete' | 'list';

/** The same command, done by a running backlot (its admin API), printing what the offline command prints. */
async function viaAdmin(
  admin: RunningAdminRecord,
  adminToken: string | undefined,
  action: Action,
  name: string | undefined,
  ids: string[],
  dataDir: string,
) {
  const call = <T>(method: string, route: string, body?: unknown) =>
    adminCall<T>(admin, adminToken, method, route, body);
  const services = ids.length > 0 ? { services: ids } : {};
  const checkpoint = `/checkpoints/${encodeURIComponent(name ?? '')}`;
  switch (action) {
    case 'reset': {
      const { reset } = await call<{ reset: string[] }>('POST', '/reset', services);
      return `reset ${reset.join(', ')} to the first-start state`;
    }
    case 'save': {
      const saved = await call<{ services: string[] }>('POST', '/checkpoints', { name, ...services });
      return `saved checkpoint "${name}" of ${saved.services.join(', ')}`;
    }
    case 'restore':
      await call('POST', `${checkpoint}/restore`, services);
      return `restored checkpoint "${name}"`;
    case 'delete': {
      const running = await call<{ services: { id: string }[] }>('GET', '/services');
      await call('DELETE', checkpoint);
      const of = ids.length > 0 ? ids : running.services.map((s) => s.id);
      return `deleted checkpoint "${name}" of ${of.join(', ')}`;
    }
    default: {
      const { checkpoints } = await call<{ checkpoints: { name: string; bytes: number }[] }>(
        'GET',
        '/checkpoints',
      );
      return listing(checkpoints, dataDir);
    }
  }
}

function listing(sizes: { name: string; bytes: number }[], dataDir: string) {
  if (sizes.length === 0) return `no checkpoints in ${dataDir}`;
  const width = Math.max(...sizes.map((c) => c.name.length));
  return sizes.map((c) => `${c.name.padEnd(width)}  ${c.bytes} bytes`).join('\n');
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
}

const runningHint =
  'reset and checkpoints of a running backlot go through its admin API or the programmatic start(); or stop it first';

async function openRefusingRunning(settings: Parameters<typeof openDatabase>[0], dataDir: string) {
  try {
    return await openDatabase(settings, dataDir);
  } catch (error) {
    if (error instanceof DatabaseError && /in use by another backlot process/.test(error.message)) {
      const pid = /pid (\d+)/.exec(error.message)?.[1];
      throw new StateError(`a backlot (pid ${pid}) is serving ${dataDir}: ${runningHint}`);
    }
    throw error;
  }
}

async function refuseLockedList(list: StatefulService, dataDir: string) {
  const file = (list.settings as { file?: string }).file ?? path.join(dataDir, 'list.json');
  if (!existsSync(file)) return;
  if (lockHolder(`${file}.lock`))
    throw new StateError(`the list file ${file} is in use by a running backlot: ${runningHint}`);
}
