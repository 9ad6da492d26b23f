import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import path from 'node:path';
import dotenv from 'dotenv';

/** A setting that is wrong: the message names the variable and what is wrong with it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

/** Reads `.env` (optional) under the real environment: the environment wins, as dotenv does. */
export function loadEnv(cwd = process.cwd(), env: Env = process.env): Env {
  const file = path.join(cwd, '.env');
  if (!existsSync(file)) return { ...env };
  return { ...dotenv.parse(readFileSync(file)), ...env };
}

const present = (env: Env, name: string) => {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
};

export function envString(env: Env, name: string, fallback: string): string;
export function envString(env: Env, name: string): string | undefined;
export function envString(env: Env, name: string, fallback?: string) {
  return present(env, name) ?? fallback;
}

export function envInt(env: Env, name: string, fallback: number, range: { min?: number; max?: number } = {}) {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${name}: must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (range.min !== undefined && value < range.min)
    throw new ConfigError(`${name}: must be at least ${range.min}, got ${value}`);
  if (range.max !== undefined && value > range.max)
    throw new ConfigError(`${name}: must be at most ${range.max}, got ${value}`);
  return value;
}

export function envBool(env: Env, name: string, fallback: boolean) {
  const raw = present(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name}: must be true or false, got "${raw}"`);
}

export function envEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name}: must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function envPort(env: Env, name: string, fallback: number) {
  return envInt(env, name, fallback, { min: 0, max: 65535 });
}

export interface DatabaseSettings {
  /** Networked PostgreSQL; undefined means the embedded PGlite in `<dataDir>/pg`. */
  url?: string;
  /** The setting the URL came from, so errors can name it. */
  source?: string;
  /** CA certificate file: when set the server certificate is verified, otherwise TLS is required but not verified. */
  sslCaFile?: string;
}

/** Settings every service shares. Service-specific settings live beside each service (its `settings.ts`). */
export interface GlobalSettings {
  dataDir: string;
  host: string;
  logLevel: string;
  /** Pretty logs only on a terminal; JSON otherwise. */
  prettyLogs: boolean;
  bodyLimit: number;
  /** How long shutdown waits for in-flight requests before closing sockets. */
  shutdownGraceMs: number;
  /** After SIGTERM, how long `/readyz` answers 503 while requests are still served, before the listeners close. */
  shutdownDrainMs: number;
  database: DatabaseSettings;
  /**
   * Fastify's trustProxy: the proxies (addresses, CIDRs, named ranges, comma-separated) whose X-Forwarded-* decide
   * the client's address, protocol and host; false to believe none.
   */
  trustProxy: string | false;
  /** Pages (origins) that may use services with credentials from a browser, besides loopback pages. */
  corsOrigins: string[] | '*';
  /** Host names accepted in `Host` when the DNS-rebinding check is on; `*` turns the check off. */
  allowedHosts: string[] | '*' | undefined;
  /** Failed logins one client address may make per window, in every service with credentials (0: no limit). */
  loginFailureLimit: number;
  loginFailureWindowSeconds: number;
  /** The test harness: whether X-Backlot-Delay/-Status are honoured, and what the request journal keeps. */
  faultHeaders: boolean;
  journalSize: number;
  journalBodies: boolean;
  /** The admin API and page; port 0 turns it off. The token is required when it listens off loopback. */
  admin: { port: number; host: string; token?: string; portSet: boolean };
}

export interface GlobalOverrides {
  dataDir?: string;
  host?: string;
}

/** The profile service's DB_* variables, combined into a URL when DB_HOST is set. */
function urlFromParts(env: Env): string | undefined {
  const host = present(env, 'DB_HOST');
  if (!host) return undefined;
  const user = encodeURIComponent(present(env, 'DB_USER') ?? 'postgres');
  const password = present(env, 'DB_PASSWORD');
  const auth = password ? `${user}:${encodeURIComponent(password)}` : user;
  const port = envPort(env, 'DB_PORT', 5432);
  const name = encodeURIComponent(present(env, 'DB_NAME') ?? 'postgres');
  return `postgres://${auth}@${host}:${port}/${name}`;
}

/**
 * The S3 client and pg are optional peer dependencies of the npm package (docs/architecture.md, "Decisions"):
 * a setting that needs one whose package is not installed stops the start with one line saying what to install,
 * instead of an import error at the first upload or query.
 */
export function requirePeer(setting: string, purpose: string, pkg: string, from = import.meta.url) {
  try {
    createRequire(from).resolve(pkg);
  } catch {
    throw new ConfigError(
      `${setting}: ${purpose} needs the ${pkg} package, which backlot does not install itself: npm i ${pkg}`,
    );
  }
}

export function databaseSettings(env: Env): DatabaseSettings {
  const sslCaFile = present(env, 'DB_SSL_CA');
  if (sslCaFile && !existsSync(sslCaFile)) throw new ConfigError(`DB_SSL_CA: no such file "${sslCaFile}"`);
  const url = present(env, 'DATABASE_URL');
  const fromParts = url ? undefined : urlFromParts(env);
  const source = url ? 'DATABASE_URL' : 'DB_HOST';
  if (!url && !fromParts) return { sslCaFile };
  requirePeer(source, 'PostgreSQL', 'pg');
  return { url: url ?? fromParts, source, sslCaFile };
}

export function globalSettings(env: Env, overrides: GlobalOverrides = {}): GlobalSettings {
  return {
    dataDir: path.resolve(overrides.dataDir ?? envString(env, 'BACKLOT_DATA_DIR', './data')),
    host: overrides.host ?? envString(env, 'HOST', '0.0.0.0'),
    logLevel: envEnum(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'info',
    ),
    prettyLogs: envBool(env, 'LOG_PRETTY', Boolean(process.stdout.isTTY)),
    bodyLimit: envInt(env, 'BODY_LIMIT_BYTES', 1024 * 1024, { min: 1024 }),
    shutdownGraceMs: envInt(env, 'SHUTDOWN_GRACE_MS', 10_000, { min: 0 }),
    shutdownDrainMs: envInt(env, 'SHUTDOWN_DRAIN_MS', 5_000, { min: 0 }),
    database: databaseSettings(env),
    trustProxy: trustProxySetting(envString(env, 'TRUST_PROXY')),
    corsOrigins: listSetting(env, 'CORS_ORIGINS', /^https?:\/\/[^/\s]+$/i) ?? [],
    allowedHosts: listSetting(env, 'ALLOWED_HOSTS', /^\.?[a-z0-9.-]+$/i),
    loginFailureLimit: envInt(env, 'LOGIN_FAILURE_LIMIT', 10, { min: 0 }),
    loginFailureWindowSeconds: envInt(env, 'LOGIN_FAILURE_WINDOW', 60, { min: 1, max: 86_400 }),
    faultHeaders: envBool(env, 'BACKLOT_FAULT_HEADERS', false),
    journalSize: envInt(env, 'BACKLOT_JOURNAL_SIZE', 200, { min: 0, max: 100_000 }),
    journalBodies: envBool(env, 'BACKLOT_JOURNAL_BODIES', false),
    admin: {
      port: envPort(env, 'ADMIN_PORT', 8090),
      host: envString(env, 'ADMIN_HOST', '127.0.0.1'),
      token: adminToken(env),
      portSet: envString(env, 'ADMIN_PORT') !== undefined,
    },
  };
}

/**
 * ADMIN_TOKEN travels as `Authorization: Bearer <token>`, read by the one Bearer parser (RFC 6750 token68): a token
 * with other characters could never be sent, and would lock everyone out of the admin API.
 */
function adminToken(env: Env): string | undefined {
  const token = envString(env, 'ADMIN_TOKEN');
  if (token !== undefined && !/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) {
    throw new ConfigError(
      'ADMIN_TOKEN: use letters, digits and - . _ ~ + / only (it is sent as a Bearer token)',
    );
  }
  return token;
}

/** A comma-separated list whose items must match `item`, or `*`; undefined when unset or empty. */
function listSetting(env: Env, name: string, item: RegExp): string[] | '*' | undefined {
  const raw = present(env, name)?.trim();
  if (!raw) return undefined;
  if (raw === '*') return '*';
  const items = raw
    .split(',')
    .map((s) => s.trim().replace(/\/$/, ''))
    .filter(Boolean);
  const bad = items.find((s) => !item.test(s));
  if (bad !== undefined) throw new ConfigError(`${name}: "${bad}" is not valid (comma-separated list, or *)`);
  return items.map((s) => s.toLowerCase());
}

const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);
const trustedForms =
  "the proxies' addresses or CIDRs, or loopback, linklocal, uniquelocal, comma-separated (e.g. TRUST_PROXY=loopback,10.0.0.0/8)";

/** One trusted proxy: an address, a CIDR (`10.0.0.0/8`, `fd00::/8`), an address/netmask, or a named range. */
function isProxyAddress(item: string): boolean {
  if (namedRanges.has(item)) return true;
  const [address = '', mask, extra] = item.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (mask === undefined) return true;
  if (/^\d{1,3}$/.test(mask)) return Number(mask) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(mask) === 4;
}

/**
 * The proxies whose X-Forwarded-* headers are believed (Fastify's `trustProxy` as a comma list), or false.
 * `true` (trust every hop) is refused: any client could then choose the address the failed-login limit counts,
 * guessing without limit or locking others out. A hop count is refused too: Fastify 5.12 ignores it (it cannot
 * tell a proxy from a client that sends enough hops).
 */
function trustProxySetting(raw: string | undefined): string | false {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || ['', 'false', '0', 'no', 'off'].includes(value)) return false;
  if (['true', 'yes', 'on'].includes(value)) {
    throw new ConfigError(
      `TRUST_PROXY: "${raw}" would let any client choose its address; list ${trustedForms}`,
    );
  }
  const items = value.split(',').map((item) => item.trim());
  const bad = items.find((item) => !isProxyAddress(item));
  if (bad !== undefined) throw new ConfigError(`TRUST_PROXY: "${bad}" is not valid; list ${trustedForms}`);
  return items.join(',');
}

/** A delay setting: fixed (`min === max`) or a range, in milliseconds. */
export interface DelayRange {
  min: number;
  max: number;
}

export const maxDelayMs = 600_000;

/** `1500` or `100-300` (random in the range, inclusive); throws a message naming `name`. */
export function parseDelay(raw: string, name: string): DelayRange {
  const match = /^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$/.exec(raw);
  const min = match ? Number(match[1]) : Number.NaN;
  const max = match?.[2] !== undefined ? Number(match[2]) : min;
  if (!match || max < min || max > maxDelayMs) {
    throw new ConfigError(
      `${name}: must be milliseconds (0-${maxDelayMs}) or a range like 100-300, got "${raw}"`,
    );
  }
  return { min, max };
}

export const delayText = ({ min, max }: DelayRange) => (min === max ? `${min}` : `${min}-${max}`);
