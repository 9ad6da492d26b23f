import { decoyPasswordHash, tokenHash, verifyPassword } from '../../platform/secrets.js';
import type { Role } from './settings.js';
import type { EmployeeStore } from './store.js';

export interface Caller {
  name: string;
  role: Role;
}

/** The user name and password of an `Authorization: Basic ...` header; undefined when there is none or it is malformed. */
export function basicCredentials(header: string | undefined): { name: string; password: string } | undefined {
  const match = header?.match(/^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { name: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

const cacheTtlMs = 60_000;
const cacheLimit = 1_000;

/**
 * Checks Basic credentials against the stored Argon2 hashes. A header that verified recently is remembered
 * (by its SHA-256, for a minute) so that a client sending credentials on every request does not pay for
 * an Argon2 verification each time.
 */
export class Authenticator {
  private readonly verified = new Map<string, { caller: Caller; until: number }>();

  constructor(private readonly store: EmployeeStore) {}

  async authenticate(header: string | undefined): Promise<Caller | undefined> {
    const credentials = basicCredentials(header);
    if (!credentials || !header) return undefined;
    const key = tokenHash(header);
    const now = Date.now();
    const cached = this.verified.get(key);
    if (cached && cached.until > now) return cached.caller;
    if (cached) this.verified.delete(key);

    const account = await this.store.findAccount(credentials.name);
    // Unknown names cost one verification too, so response times do not reveal which names exist.
    const stored = account?.passwordHash ?? (await decoyPasswordHash());
    const ok = await verifyPassword(stored, credentials.password);
    if (!ok || !account) return undefined;

    const caller = { name: account.name, role: account.role };
    if (this.verified.size >= cacheLimit) this.verified.clear();
    this.verified.set(key, { caller, until: now + cacheTtlMs });
    return caller;
  }
}
