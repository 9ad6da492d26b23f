import type { LoginLimiter } from '../../platform/login-limit.js';
import { parseBasic } from '../../platform/request.js';
import { decoyPasswordHash, tokenHash, verifyPassword } from '../../platform/secrets.js';
import type { Role } from './settings.js';
import type { EmployeeStore } from './store.js';

export interface Caller {
  name: string;
  role: Role;
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

  constructor(
    private readonly store: EmployeeStore,
    private readonly limiter: LoginLimiter,
  ) {}

  /** The caller; undefined for wrong credentials; `retryAfter` seconds when `client` failed too often. */
  async authenticate(header: string, client: string): Promise<Caller | { retryAfter: number } | undefined> {
    const key = tokenHash(header);
    const now = Date.now();
    const cached = this.verified.get(key);
    if (cached && cached.until > now) return cached.caller;
    if (cached) this.verified.delete(key);

    // Counted as a failure before the Argon2 work, given back when right: never more than the limit in flight.
    const retryAfter = await this.limiter.reserve(client);
    if (retryAfter !== undefined) return { retryAfter };
    const credentials = parseBasic(header);
    const account = credentials ? await this.store.findAccount(credentials.user) : undefined;
    // Unknown names cost one verification too, so response times do not reveal which names exist.
    const stored = account?.passwordHash ?? (await decoyPasswordHash());
    const ok = credentials ? await verifyPassword(stored, credentials.password) : false;
    if (!ok || !account) return undefined;
    await this.limiter.succeeded(client);

    const caller = { name: account.name, role: account.role };
    if (this.verified.size >= cacheLimit) this.verified.clear();
    this.verified.set(key, { caller, until: now + cacheTtlMs });
    return caller;
  }
}
