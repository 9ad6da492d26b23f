import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../platform/service.js';
import { StateError } from './state.js';

/**
 * Where a running `backlot serve` keeps its admin API's address for operator commands run beside it: on the
 * embedded database (and the list file) the running process holds the data, so a command run in another process
 * asks it through the admin API instead of opening the data itself.
 */
const fileOf = (dataDir: string) => path.join(dataDir, 'admin.json');

export interface RunningAdminRecord {
  pid: number;
  url: string;
  /** A token the server generated (an operator's ADMIN_TOKEN is never written: the command reads it from the env). */
  token?: string;
}

/** Writes the record (this user only, like the credentials file) and returns how to remove it again. */
export function recordRunningAdmin(dataDir: string, url: string, generatedToken?: string): () => void {
  if (!existsSync(dataDir)) return () => {};
  const file = fileOf(dataDir);
  const record: RunningAdminRecord = { pid: process.pid, url, token: generatedToken };
  writeFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  return () => rmSync(file, { force: true });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The admin of a backlot serving `dataDir`, if one is running with its admin on. */
export function runningAdmin(dataDir: string): RunningAdminRecord | undefined {
  const file = fileOf(dataDir);
  if (!existsSync(file)) return undefined;
  let record: RunningAdminRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  return Number.isSafeInteger(record.pid) && alive(record.pid) ? record : undefined;
}

/**
 * One call to the running admin API; its `{"error"}` answers become the errors the offline command throws (a 400
 * is the caller's usage, anything else refused a StateError), so both paths print the same way.
 */
export async function adminCall<T>(
  admin: RunningAdminRecord,
  adminToken: string | undefined,
  method: string,
  route: string,
  body?: unknown,
): Promise<T> {
  const token = admin.token ?? adminToken;
  let response: Response;
  try {
    response = await fetch(new URL(`api${route}`, admin.url), {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    throw new StateError(
      `the running backlot (pid ${admin.pid}) did not answer at ${admin.url}: ${(error as Error).message}`,
    );
  }
  const text = await response.text();
  const answer = text ? JSON.parse(text) : undefined;
  if (response.ok) return answer as T;
  const message = (answer as { error?: string } | undefined)?.error ?? `HTTP ${response.status}`;
  if (response.status === 401) {
    throw new StateError(
      `the running backlot's admin API refused the token: set ADMIN_TOKEN to the one it uses`,
    );
  }
  throw response.status === 400 ? new UsageError(message) : new StateError(message);
}
