import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { readFile, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';

/**
 * The one lock-file mechanism (the embedded database's data directory, the list file, and the state commands that
 * must not touch what a running backlot holds). A lock is a file created exclusively (O_EXCL) holding its holder's
 * pid, host and a random token; the holder refreshes its mtime every `staleMs / 5`. Whether a holder is gone:
 * - on this host (same hostname and PID namespace) by its process: a lock whose process died — kill -9 included —
 *   is taken over at once; a live holder keeps it however long it stalls;
 * - elsewhere (a shared disk), or when the file says nothing readable (a lock being written, one of an older
 *   version: a bare pid is read as this host's, a directory as proper-lockfile's), by its mtime: abandoned once
 *   not refreshed for `staleMs`.
 * A holder checks at every refresh that the file is still its own and calls `onLost` once when it is not.
 */

export interface LockHolder {
  pid: number;
  host: string;
  /** The PID namespace (Linux), so that containers sharing a hostname do not read each other's pids. */
  ns?: string;
}

/** The lock is held by another process (`holder`, when the file says who). */
export class LockHeldError extends Error {
  override name = 'LockHeldError';
  readonly code = 'ELOCKED';
  constructor(
    readonly lockPath: string,
    readonly holder?: LockHolder,
  ) {
    super(`${lockPath} is held by ${holder ? `pid ${holder.pid} on ${holder.host}` : 'another process'}`);
  }
}

export interface LockOptions {
  /** How long to wait for a live holder before refusing with `LockHeldError` (default 0: refuse at once). */
  waitMs?: number;
  /** A holder that cannot be asked (another host) counts as gone after this long without a refresh (5000). */
  staleMs?: number;
  /** Called once when the lock, after it was taken, is found removed or another's. */
  onLost?: (error: Error) => void;
}

export interface HeldLock {
  readonly path: string;
  /** Stops refreshing and removes the file if it is still this lock's. */
  release(): void;
}

const DEFAULT_STALE_MS = 5000;
const RETRY_MS = 250;

function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

const self: LockHolder = { pid: process.pid, host: hostname(), ns: pidNamespace() };
/** Locks this process holds, by path, with their tokens: removed on exit if the holder forgot. */
const held = new Map<string, string>();
let exitHook = false;

function processAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type Found = { state: 'free' } | { state: 'held'; holder?: LockHolder } | { state: 'abandoned'; ino: number };

function readLock(lockPath: string): { holder?: LockHolder; token?: string } {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch {
    return {}; // a directory (proper-lockfile's), or removed meanwhile
  }
  if (/^\d+$/.test(text.trim())) return { holder: { pid: Number(text), host: self.host, ns: self.ns } };
  try {
    const { pid, host, ns, token } = JSON.parse(text);
    if (Number.isInteger(pid) && typeof host === 'string') return { holder: { pid, host, ns }, token };
  } catch {}
  return {};
}

/** Who holds `lockPath`, or whether it is free or abandoned. */
function inspect(lockPath: string, staleMs: number): Found {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'free' };
    throw error;
  }
  const { holder, token } = readLock(lockPath);
  const local = holder && holder.host === self.host && (holder.ns ?? self.ns) === self.ns;
  if (holder && local) {
    // Our own pid: held by this process if it says so, else a leftover of an earlier process with our pid
    // (a container's PID 1 after a restart).
    const ours = holder.pid === process.pid;
    const alive = ours ? token !== undefined && held.get(lockPath) === token : processAlive(holder.pid);
    return alive ? { state: 'held', holder } : { state: 'abandoned', ino: Number(stat.ino) };
  }
  if (stat.mtimeMs < Date.now() - staleMs) return { state: 'abandoned', ino: Number(stat.ino) };
  return { state: 'held', holder };
}

/** Moves an abandoned lock aside, unless another process replaced it in the meantime. */
function removeAbandoned(lockPath: string, ino: number) {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // gone already: try again
    throw error; // not ours to move (permissions): say so rather than try for ever
  }
  if (Number(statSync(aside).ino) !== ino) {
    // A fresh lock was taken between the look and the move: put it back.
    try {
      linkSync(aside, lockPath);
    } catch {}
  }
  rmSync(aside, { recursive: true, force: true });
}

function tryCreate(lockPath: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify({ ...self, token }));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Takes the lock at `lockPath`, waiting up to `waitMs` for a live holder; throws `LockHeldError` otherwise. */
export async function takeLock(lockPath: string, options: LockOptions = {}): Promise<HeldLock> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + (options.waitMs ?? 0);
  const token = randomBytes(12).toString('hex');
  for (;;) {
    if (tryCreate(lockPath, token)) break;
    const found = inspect(lockPath, staleMs);
    if (found.state === 'abandoned') removeAbandoned(lockPath, found.ino);
    if (found.state !== 'held') continue;
    const left = deadline - Date.now();
    if (left <= 0) throw new LockHeldError(lockPath, found.holder);
    await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MS, left)));
  }
  held.set(lockPath, token);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const [file, token] of held) if (readLock(file).token === token) rmSync(file, { force: true });
    });
  }
  let lost = false;
  let refreshing = false;
  const refresh = async () => {
    if (refreshing || lost) return;
    refreshing = true;
    try {
      const text = await readFile(lockPath, 'utf8').catch(() => '');
      if (held.get(lockPath) !== token) return; // released meanwhile
      if (!text.includes(`"token":"${token}"`)) {
        lost = true;
        clearInterval(timer);
        if (held.get(lockPath) === token) held.delete(lockPath);
        options.onLost?.(new Error(text ? 'another process holds it now' : 'it was removed'));
        return;
      }
      const now = new Date();
      await utimes(lockPath, now, now).catch(() => {});
    } finally {
      refreshing = false;
    }
  };
  const timer = setInterval(() => void refresh(), Math.max(100, Math.floor(staleMs / 5)));
  timer.unref();
  return {
    path: lockPath,
    release() {
      clearInterval(timer);
      if (held.get(lockPath) !== token) return;
      held.delete(lockPath);
      if (readLock(lockPath).token === token) rmSync(lockPath, { force: true });
    },
  };
}

/** The live holder of `lockPath`, or undefined when it is free or abandoned: for a look without taking it. */
export function lockHolder(
  lockPath: string,
  staleMs = DEFAULT_STALE_MS,
): { holder?: LockHolder } | undefined {
  const found = inspect(lockPath, staleMs);
  return found.state === 'held' ? { holder: found.holder } : undefined;
}
