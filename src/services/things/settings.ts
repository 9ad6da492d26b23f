import { ConfigError, type Env, envInt, envString } from '../../config.js';

/** Where the service keeps users, secrets and things, and how it authenticates there. */
export type DatastoreSettings =
  | {
      kind: 'networked';
      /** The URL without its password; DATASTORE_SECRET is the password. */
      url: string;
      source: 'DATASTORE_URL' | 'DATABASE_URL';
      secret: string;
    }
  | {
      /** The database the process already opened (embedded PGlite by default). */
      kind: 'shared';
      /** Configured DATASTORE_SECRET; generated on first start when absent. */
      secret?: string;
    };

export interface ThingsSettings {
  datastore: DatastoreSettings;
  /** How long a login secret stays valid; undefined means until logout, like the original. */
  secretTtlSeconds?: number;
  rateLimit: {
    windowSeconds: number;
    /** Attempts per client address per window; 0 turns the limit off. */
    login: number;
    signup: number;
  };
}

const units: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `3600`, `90s`, `30m`, `12h` or `7d`; unset, empty, `0` or `never` mean no expiry. */
export function parseDuration(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '' || raw === '0' || raw.toLowerCase() === 'never') return undefined;
  const match = /^(\d+)\s*([smhd]?)$/i.exec(raw);
  if (!match) throw new ConfigError(`${name}: must be a duration such as 3600, 30m, 12h or 7d, got "${raw}"`);
  const seconds = Number(match[1]) * units[(match[2] || 's').toLowerCase()];
  if (!Number.isSafeInteger(seconds) || seconds > 10 * 365 * 86_400)
    throw new ConfigError(`${name}: at most 10 years, got "${raw}"`);
  return seconds;
}

function datastoreSettings(env: Env): DatastoreSettings {
  const secret = envString(env, 'DATASTORE_SECRET');
  const own = envString(env, 'DATASTORE_URL');
  const source = own ? 'DATASTORE_URL' : 'DATABASE_URL';
  const raw = own ?? envString(env, 'DATABASE_URL');
  if (!raw) return { kind: 'shared', secret };
  let url: URL;
  try {
    url = new URL(raw);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('scheme');
  } catch {
    throw new ConfigError(
      `${source}: not a valid PostgreSQL URL (expected postgres://user@host:port/database)`,
    );
  }
  if (!secret) {
    throw new ConfigError(
      `DATASTORE_SECRET: required when ${source} is set (it is the password of the database role things connects as)`,
    );
  }
  url.password = '';
  return { kind: 'networked', url: url.toString(), source, secret };
}

export function thingsSettings(env: Env): ThingsSettings {
  return {
    datastore: datastoreSettings(env),
    secretTtlSeconds: parseDuration('THINGS_SECRET_TTL', envString(env, 'THINGS_SECRET_TTL')),
    rateLimit: {
      windowSeconds: envInt(env, 'THINGS_RATE_LIMIT_WINDOW', 60, { min: 1, max: 86_400 }),
      login: envInt(env, 'THINGS_LOGIN_RATE_LIMIT', 10, { min: 0 }),
      signup: envInt(env, 'THINGS_SIGNUP_RATE_LIMIT', 10, { min: 0 }),
    },
  };
}
