import path from 'node:path';
import { delayText, type Env, envInt, envString, parseDelay } from '../../config.js';

/** The spec's delay before every API answer; the harness applies it (LIST_DELAY_MS is list's `<ID>_DELAY_MS`). */
export const listDelayMs = 1500;

export interface ListSettings {
  /** The JSON data file; undefined means `<data dir>/list.json`. */
  file?: string;
  /** LIST_DELAY_MS as configured (`1500`, or a range `100-300`), for the home page and the banner. */
  delay: string;
  /** How long startup waits for another process's lock on the file to be released or go stale. */
  lockWaitMs: number;
}

export function listSettings(env: Env): ListSettings {
  const file = envString(env, 'LIST_FILE');
  const delay = envString(env, 'LIST_DELAY_MS');
  return {
    file: file === undefined ? undefined : path.resolve(file),
    delay: delay === undefined ? String(listDelayMs) : delayText(parseDelay(delay, 'LIST_DELAY_MS')),
    lockWaitMs: envInt(env, 'LIST_LOCK_WAIT_MS', 6000, { min: 0, max: 600_000 }),
  };
}
