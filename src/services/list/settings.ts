import path from 'node:path';
import { type Env, envInt, envString } from '../../config.js';

export interface ListSettings {
  /** The JSON data file; undefined means `<data dir>/list.json`. */
  file?: string;
  /** Delay before every API response (the spec's 1500 ms). */
  delayMs: number;
  /** How long startup waits for another process's lock on the file to be released or go stale. */
  lockWaitMs: number;
}

export function listSettings(env: Env): ListSettings {
  const file = envString(env, 'LIST_FILE');
  return {
    file: file === undefined ? undefined : path.resolve(file),
    delayMs: envInt(env, 'LIST_DELAY_MS', 1500, { min: 0, max: 600_000 }),
    lockWaitMs: envInt(env, 'LIST_LOCK_WAIT_MS', 6000, { min: 0, max: 600_000 }),
  };
}
