import { ConfigError, type Env, envBool, envString } from '../../config.js';

export type Role = 'editor' | 'viewer';
export const roles: readonly Role[] = ['editor', 'viewer'];

export interface ConfiguredAccount {
  name: string;
  password: string;
  role: Role;
}

export interface EmployeesSettings {
  /** From EMPLOYEES_USERS; empty means "generate an `admin` editor on first start". */
  accounts: ConfiguredAccount[];
  /** EMPLOYEES_OPEN_WRITES: anyone may create, update and delete (tutorials that send no credentials). */
  openWrites: boolean;
  /** EMPLOYEES_SEED: put the 24 sample employees in an empty database on first start. */
  seed: boolean;
}

/**
 * `name:password:role,...`. The password is everything between the first and the last colon, so it may
 * itself contain colons (but not commas, which separate accounts).
 */
export function parseAccounts(raw: string | undefined): ConfiguredAccount[] {
  if (raw === undefined) return [];
  const accounts: ConfiguredAccount[] = [];
  for (const entry of raw.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const first = entry.indexOf(':');
    const last = entry.lastIndexOf(':');
    if (first <= 0 || last === first) {
      throw new ConfigError(
        `EMPLOYEES_USERS: each account must be name:password:role, got "${entry.split(':')[0]}:…"`,
      );
    }
    const name = entry.slice(0, first);
    const password = entry.slice(first + 1, last);
    const role = entry.slice(last + 1);
    if (password === '') throw new ConfigError(`EMPLOYEES_USERS: account "${name}" has an empty password`);
    if (!(roles as readonly string[]).includes(role)) {
      throw new ConfigError(`EMPLOYEES_USERS: account "${name}" has role "${role}"; use editor or viewer`);
    }
    if (accounts.some((a) => a.name === name)) {
      throw new ConfigError(`EMPLOYEES_USERS: account "${name}" is listed twice`);
    }
    accounts.push({ name, password, role: role as Role });
  }
  return accounts;
}

export function employeesSettings(env: Env): EmployeesSettings {
  return {
    accounts: parseAccounts(envString(env, 'EMPLOYEES_USERS')),
    openWrites: envBool(env, 'EMPLOYEES_OPEN_WRITES', false),
    seed: envBool(env, 'EMPLOYEES_SEED', true),
  };
}
