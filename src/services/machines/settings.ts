import { ConfigError, type Env, envInt, envString } from '../../config.js';
import { isTokenFormat, normalizeScopes, type Scope } from './scopes.js';

export interface PresetToken {
  name: string;
  token: string;
  scopes: Scope[];
}

export interface MachinesSettings {
  /** How long a new machine stays `new` before it is `active` (and its create action `completed`). */
  provisionMs: number;
  /** Account limit on existing machines. */
  limit: number;
  ratePerHour: number;
  ratePerMinute: number;
  /** Tokens from `MACHINES_TOKENS`; when set, no token is generated on first start. */
  presetTokens: PresetToken[];
}

/**
 * `MACHINES_TOKENS`: comma-separated entries `token`, `name=token` or `name=token=scope+scope`
 * (scopes default to all).
 */
export function parsePresetTokens(raw: string | undefined): PresetToken[] {
  if (!raw) return [];
  const seen = new Set<string>();
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry, index) => {
      const parts = entry.split('=');
      if (parts.length > 3) throw new ConfigError(`MACHINES_TOKENS: entry ${index + 1} has too many "="`);
      const [name, token, scopeList] =
        parts.length === 1 ? [`preset-${index + 1}`, parts[0], undefined] : [parts[0], parts[1], parts[2]];
      if (!name || !/^[\w.-]{1,100}$/.test(name))
        throw new ConfigError(
          `MACHINES_TOKENS: entry ${index + 1} has an invalid name (letters, digits, . _ -)`,
        );
      if (!isTokenFormat(token ?? ''))
        throw new ConfigError(
          `MACHINES_TOKENS: entry ${index + 1} is not a token of the form dop_v1_ + 64 hex`,
        );
      if (seen.has(name)) throw new ConfigError(`MACHINES_TOKENS: the name "${name}" is used twice`);
      seen.add(name);
      let scopes: Scope[];
      try {
        scopes = normalizeScopes(scopeList ? scopeList.split('+') : undefined);
      } catch (error) {
        throw new ConfigError(`MACHINES_TOKENS: entry ${index + 1}: ${(error as Error).message}`);
      }
      return { name, token: token as string, scopes };
    });
}

export function machinesSettings(env: Env): MachinesSettings {
  return {
    provisionMs: envInt(env, 'MACHINES_PROVISION_MS', 5000, { min: 0, max: 86_400_000 }),
    limit: envInt(env, 'MACHINES_LIMIT', 25, { min: 0, max: 100_000 }),
    ratePerHour: envInt(env, 'MACHINES_RATE_LIMIT_PER_HOUR', 5000, { min: 1 }),
    ratePerMinute: envInt(env, 'MACHINES_RATE_LIMIT_PER_MINUTE', 250, { min: 1 }),
    presetTokens: parsePresetTokens(envString(env, 'MACHINES_TOKENS')),
  };
}
