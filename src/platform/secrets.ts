import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeDirectory } from './directories.js';

// Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const ARGON2ID = 2;

/** Argon2id with the OWASP-recommended minimum cost (19 MiB, 2 passes); `BACKLOT_HASH_COST=low` is for tests. */
const argonOptions =
  process.env.BACKLOT_HASH_COST === 'low'
    ? { algorithm: ARGON2ID, memoryCost: 1024, timeCost: 1, parallelism: 1 }
    : { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const passwordHashCost = `argon2id m=${argonOptions.memoryCost}KiB t=${argonOptions.timeCost} p=1`;

/**
 * At most two Argon2 computations run at once. They run on libuv's thread pool (four threads), which file and DNS
 * work of every service shares: a burst of logins must queue here rather than stall the list's writes.
 */
const argonSlots = 2;
let argonRunning = 0;
const argonQueue: (() => void)[] = [];

async function withArgonSlot<T>(work: () => Promise<T>): Promise<T> {
  if (argonRunning < argonSlots) argonRunning++;
  else await new Promise<void>((resolve) => argonQueue.push(resolve));
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, so nobody can slip in between.
    const next = argonQueue.shift();
    if (next) next();
    else argonRunning--;
  }
}

// The native Argon2 module is loaded by the first password hashed or checked, not by every process.
const argon2 = () => import('@node-rs/argon2');

export function hashPassword(password: string): Promise<string> {
  return withArgonSlot(async () => (await argon2()).hash(password, argonOptions));
}

/** False for a wrong password and for a malformed stored hash alike. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await withArgonSlot(async () => (await argon2()).verify(stored, password));
  } catch {
    return false;
  }
}

/** A hash of a throwaway password, so that a login for an unknown user costs the same as a wrong password. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash() {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return decoyHash;
}

/** 32 random bytes as hex (64 characters) unless told otherwise. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}

/** Tokens and secrets are stored only as this hash, and looked up by it. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/**
 * Credentials a service generated on first start (no configured ones), kept for the operator in
 * `<dataDir>/credentials.json` (mode 0600) so the banner can show them again. The database holds only hashes.
 */
export class GeneratedCredentials {
  private readonly file: string;
  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'credentials.json');
  }

  private read(): Record<string, Record<string, string>> {
    if (!existsSync(this.file)) return {};
    return JSON.parse(readFileSync(this.file, 'utf8'));
  }

  recall(service: string, key: string): string | undefined {
    return this.read()[service]?.[key];
  }

  remember(service: string, key: string, value: string) {
    const all = this.read();
    all[service] = { ...all[service], [key]: value };
    makeDirectory(path.dirname(this.file));
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }
}
