import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { gunzip } from 'node:zlib';
import type { ClientConfig, Pool } from 'pg';
import type { DatabaseSettings } from '../config.js';
import { makeDirectory } from './directories.js';
import { LockHeldError, takeLock } from './lock-file.js';
import { unpackTar } from './tar.js';

const gunzipAsync = promisify(gunzip);

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  /** One statement with `$1`-style parameters. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** The one interface services see, whether PostgreSQL over the network or PGlite in-process. */
export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite' | 'none';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface Migration {
  /** Unique within its service and sorted: `001_users`, `002_tokens`. */
  name: string;
  sql: string;
}

/** The database could not be opened or reached; the message is one line meant for the operator. */
export class DatabaseError extends Error {
  override name = 'DatabaseError';
}

// int8 and numeric come back as strings on both backends (no silent precision loss; pglite-worker.js for PGlite).
const INT8 = 20;
const NUMERIC = 1700;

// Each driver is imported when a database of its kind is opened: a process on PGlite never loads pg, and one on
// PostgreSQL (or with no database, or printing --help) never loads PGlite's WASM build.
let pgModule: typeof import('pg').default | undefined;
async function loadPg() {
  if (!pgModule) {
    pgModule = requirePg();
    pgModule.types.setTypeParser(INT8, (v: string) => v);
    pgModule.types.setTypeParser(NUMERIC, (v: string) => v);
  }
  return pgModule;
}

/**
 * pg, required with a `navigator` global present for the while. Without one (Node 20) pg probes for Cloudflare
 * Workers with `new Response(…)`, which loads Node's whole fetch implementation: about half of pg's load time,
 * in the middle of a start. Node 21 and later define `navigator` themselves (`userAgent` `Node.js/<major>`), as
 * this does; the require is synchronous, so no other code runs while the global is there, and it is removed again.
 */
function requirePg(): typeof import('pg').default {
  const require = createRequire(import.meta.url);
  if ('navigator' in globalThis) return require('pg');
  const userAgent = `Node.js/${process.versions.node.split('.')[0]}`;
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent }, configurable: true });
  try {
    return require('pg');
  } finally {
    Reflect.deleteProperty(globalThis, 'navigator');
  }
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres';
  constructor(private readonly pool: Pool) {}

  async query<T>(sql: string, params?: unknown[]) {
    const result = await this.pool.query(sql, params as unknown[]);
    return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
  }

  async exec(sql: string) {
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A connection lost between statements is reported by the next one; unheard, its 'error' event would crash the process.
    const ignoreLostConnection = () => {};
    client.on('error', ignoreLostConnection);
    const tx: Queryable = {
      query: async <R>(sql: string, params?: unknown[]) => {
        const result = await client.query(sql, params as unknown[]);
        return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
      },
      exec: async (sql) => {
        await client.query(sql);
      },
    };
    try {
      await client.query('BEGIN');
      const value = await fn(tx);
      await client.query('COMMIT');
      client.removeListener('error', ignoreLostConnection);
      client.release();
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.removeListener('error', ignoreLostConnection);
      // A client whose connection broke must not go back to the pool.
      client.release(isUnavailable(error) ? (error as Error) : undefined);
      throw error;
    }
  }

  async ping() {
    await this.pool.query('SELECT 1');
  }

  async close() {
    await this.pool.end();
  }
}

/**
 * PGlite in a worker thread (pglite-worker.js says why), behind the same interface: each call is one message,
 * `{ id, op, args }`, answered by `{ id, result }` or `{ id, error }`. A worker that stops (a crash, or close)
 * fails what was waiting and everything after with an error `isUnavailable` takes for an outage.
 */
class EmbeddedDatabase implements Database {
  readonly kind = 'pglite';
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private stopped: Error | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly worker: Worker,
    private readonly release: () => void = () => {},
  ) {
    worker.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: object }) => {
      const call = this.waiting.get(id);
      this.waiting.delete(id);
      if (this.waiting.size === 0) worker.unref();
      if (error) call?.reject(Object.assign(new Error(), error));
      else call?.resolve(result);
    });
    worker.on('error', (error) => this.stop(`the embedded database failed: ${error.message}`));
    worker.on('exit', () => this.stop('the embedded database stopped'));
    // Idle, the worker does not keep the process alive (as PGlite on the main thread did not); a call does.
    worker.unref();
  }

  call<T>(op: string, ...args: unknown[]): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.worker.postMessage({ id, op, args }); // throws (and so rejects) when an argument cannot be copied
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private stop(message: string) {
    // 08006 (connection_failure) is what a lost server connection reports: callers answer 503.
    this.stopped ??= Object.assign(new Error(message), { code: '08006' });
    for (const call of this.waiting.values()) call.reject(this.stopped);
    this.waiting.clear();
  }

  query<T>(sql: string, params?: unknown[], tx?: number) {
    return this.call<QueryResult<T>>('query', sql, params, tx);
  }

  exec(sql: string, tx?: number) {
    return this.call<void>('exec', sql, tx);
  }

  /** fn's queries run in one PGlite transaction, held open in the worker; others wait for its end, as before. */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const tx = this.nextId++;
    await this.call('begin', tx);
    let value: T;
    try {
      value = await fn({
        query: (sql, params) => this.query(sql, params, tx),
        exec: (sql) => this.exec(sql, tx),
      });
    } catch (error) {
      await this.call('rollback', tx).catch(() => {});
      throw error;
    }
    await this.call('commit', tx);
    return value;
  }

  async ping() {
    await this.query('SELECT 1');
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.stopped) await this.call('close');
      } finally {
        this.stop('the embedded database is closed');
        await this.worker.terminate();
        this.release();
      }
    })();
    return this.closing;
  }
}

/** A worker thread for PGlite, started (its module loading) while the caller does other things. */
const startWorker = () =>
  // No execArgv: the worker is plain JavaScript and needs none of the parent's flags (tsx's loader, say).
  new Worker(new URL('./pglite-worker.js', import.meta.url), { execArgv: [] });

/** A freshly initialised, empty embedded database as a tarball (for tests that need many databases). */
export async function dumpEmbeddedTemplate(): Promise<Blob> {
  const db = new EmbeddedDatabase(startWorker());
  try {
    await db.call('open', undefined, undefined, []);
    return await db.call<Blob>('dump');
  } finally {
    await db.close();
  }
}

/**
 * PostgreSQL settings on top of PGlite's own start parameters (which run it with fsync off, as PGlite always
 * does; unchanged here). initdb sizes shared memory for a server (128 MB of buffers, 100 connections) and PGlite's
 * WASM heap holds all of it from the start; one process with one connection and small tables needs far less:
 * this takes about 110 MiB off the resident memory of every process on the embedded database.
 */
const embeddedSettings = ['shared_buffers=16MB', 'max_connections=5'];

/** Where the build put a cluster initialised by PGlite's initdb (scripts/embedded-template.mjs): dist/. */
const templateDir = fileURLToPath(new URL('../embedded-template/', import.meta.url));

/** The installed PGlite's version: a cluster is only valid for the build that made it. */
export function installedPGliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = path.join(path.dirname(entry), '..', 'package.json');
  return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

/**
 * On a first start (no `dataDir` yet), unpacks the cluster the build initialised (`data.tar.gz`, made by
 * scripts/embedded-template.mjs), when the same PGlite made it: initdb in WASM takes seconds, the unpacking about
 * a tenth of one. Otherwise PGlite runs initdb itself, as before. Returns whether it unpacked.
 */
export async function seedFromTemplate(dataDir: string, template = templateDir): Promise<boolean> {
  if (existsSync(dataDir)) return false;
  const stamp = path.join(template, 'pglite-version');
  const archive = path.join(template, 'data.tar.gz');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== installedPGliteVersion()) return false;
  if (!existsSync(archive)) return false;
  // Unpacked beside its place and renamed into it: an interrupted start never leaves half a cluster.
  const partial = `${dataDir}.partial`;
  await rm(partial, { recursive: true, force: true });
  // On the thread pool: the main thread goes on loading the services' modules meanwhile.
  await unpackTar(await gunzipAsync(await readFile(archive)), partial);
  await rename(partial, dataDir);
  return true;
}

/** PGlite is single-process: the data directory's lock keeps a second process from opening the same files. */
async function lockEmbedded(dir: string): Promise<() => void> {
  // The database files are the users' data: readable by this user only, like PostgreSQL's own data directory.
  makeDirectory(dir);
  chmodSync(dir, 0o700);
  try {
    const lock = await takeLock(path.join(dir, 'backlot.lock'));
    return () => lock.release();
  } catch (error) {
    if (!(error instanceof LockHeldError)) throw error;
    const { holder } = error;
    const who = !holder
      ? ''
      : holder.host === hostname()
        ? ` (pid ${holder.pid})`
        : ` (pid ${holder.pid} on ${holder.host})`;
    throw new DatabaseError(
      `the embedded database in ${dir} is in use by another backlot process${who}; stop it first, or set DATABASE_URL to share a PostgreSQL server`,
    );
  }
}

/**
 * Opens PGlite in `dir`, or in memory when `dir` is undefined (tests). `template` is a data directory dumped
 * by `dumpEmbeddedTemplate`, which starts several times faster than a fresh initdb.
 */
export async function openEmbedded(dir?: string, template?: Blob): Promise<Database> {
  const release = dir ? await lockEmbedded(dir) : () => {};
  const db = new EmbeddedDatabase(startWorker(), release);
  try {
    const dataDir = dir ? path.join(dir, 'data') : undefined;
    if (dataDir) await seedFromTemplate(dataDir);
    await db.call('open', dataDir, template, embeddedSettings);
    return db;
  } catch (error) {
    await db.close().catch(() => {});
    throw new DatabaseError(`cannot open the embedded database in ${dir}: ${(error as Error).message}`);
  }
}

/** TLS options for `pg`: always on; verified against a CA when one is given. */
function tlsOptions(settings: DatabaseSettings, url: URL): ClientConfig['ssl'] {
  const mode = url.searchParams.get('sslmode');
  if (mode === 'disable' || mode === 'allow' || mode === 'prefer') {
    throw new DatabaseError(
      `${settings.source}: sslmode=${mode} is not allowed; backlot requires TLS (use sslmode=require or verify-full)`,
    );
  }
  if (!settings.sslCaFile) return { rejectUnauthorized: false };
  return { ca: readFileSync(settings.sslCaFile, 'utf8'), rejectUnauthorized: true };
}

function parseUrl(settings: DatabaseSettings): URL {
  try {
    const url = new URL(settings.url!);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('bad scheme');
    return url;
  } catch {
    throw new DatabaseError(
      `${settings.source}: not a valid PostgreSQL URL (expected postgres://user:password@host:port/database)`,
    );
  }
}

/** Opens a pool to a networked PostgreSQL over TLS and checks that it answers. */
export async function openPostgres(settings: DatabaseSettings, poolSize = 10): Promise<Database> {
  const url = parseUrl(settings);
  const ssl = tlsOptions(settings, url);
  for (const key of ['sslmode', 'sslrootcert', 'sslcert', 'sslkey']) url.searchParams.delete(key);
  const pg = await loadPg();
  const pool = new pg.Pool({
    connectionString: url.toString(),
    ssl,
    max: poolSize,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server must not crash the process; the next query reports the outage.
  pool.on('error', () => {});
  const db = new PostgresDatabase(pool);
  try {
    await db.ping();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseError(`${settings.source}: ${describeConnectError(error, url)}`);
  }
  return db;
}

export function describeConnectError(error: unknown, url: URL): string {
  const e = error as NodeJS.ErrnoException & { code?: string };
  const where = `${url.hostname}:${url.port || 5432}`;
  const message = e?.message ?? String(error);
  if (/does not support SSL/i.test(message))
    return `the server at ${where} does not offer TLS; backlot requires TLS`;
  if (/self[- ]signed|unable to verify|certificate/i.test(message))
    return `TLS certificate of ${where} not trusted: ${message}`;
  if (e.code === '28P01' || e.code === '28000')
    return `authentication failed for user "${decodeURIComponent(url.username)}" at ${where}`;
  if (e.code === '3D000') return `database "${url.pathname.slice(1)}" does not exist at ${where}`;
  if (e.code === 'ECONNREFUSED') return `cannot connect to ${where}: connection refused`;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return `cannot resolve host "${url.hostname}"`;
  if (/timeout/i.test(message)) return `cannot connect to ${where}: timed out`;
  return `cannot connect to ${where}: ${message.split('\n')[0]}`;
}

/** True for errors that mean the database is down or unreachable, as opposed to a bad query. */
export function isUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  if (!e || typeof e !== 'object') return false;
  const code = e.code ?? '';
  if (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03'].includes(
      code,
    )
  )
    return true;
  if (code.startsWith('08')) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    e.message ?? '',
  );
}

/**
 * What a process serving only services without SQL state (posts, list) gets instead of a database, so it
 * neither opens the embedded files (which would lock out another process) nor depends on a server.
 */
export const noDatabase: Database = {
  kind: 'none',
  query: () =>
    Promise.reject(new Error('this process has no database: no service it serves keeps SQL state')),
  exec: () => Promise.reject(new Error('this process has no database')),
  transaction: () => Promise.reject(new Error('this process has no database')),
  ping: async () => {},
  close: async () => {},
};

/** Opens the configured database: networked PostgreSQL when a URL is set, otherwise PGlite under the data directory. */
export async function openDatabase(settings: DatabaseSettings, dataDir: string): Promise<Database> {
  if (settings.url) return openPostgres(settings);
  return openEmbedded(path.join(dataDir, 'pg'));
}

export function embeddedDataExists(dataDir: string) {
  return existsSync(path.join(dataDir, 'pg', 'data'));
}
