import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, delayText, type Env, envBool, envInt, envString, parseDelay } from '../../config.js';
import { compileRoutes } from './rewrite.js';

/** The spec's delay before every API answer; the harness applies it (LIST_DELAY_MS is list's `<ID>_DELAY_MS`). */
export const listDelayMs = 1500;

export interface ListSettings {
  /** The JSON data file; undefined means `<data dir>/list.json`. */
  file?: string;
  /** LIST_DELAY_MS as configured (`1500`, or a range `100-300`), for the home page and the banner. */
  delay: string;
  /** How long startup waits for another process's lock on the file to be released or go stale. */
  lockWaitMs: number;
  /** LIST_JSONP: answer `?callback=fn` with JSONP, as json-server did; off by default (a cross-site read). */
  jsonp: boolean;
  /** LIST_PUBLIC: the folder of static files; undefined means `public` beside the data file. */
  publicDir?: string;
  /** LIST_ROUTES: json-server's routes file (`{"/api/*": "/$1"}`), read and checked at startup. */
  routes?: { file: string; rules: Record<string, string> };
}

/** Reads and checks the routes file now, so a bad one stops startup with one line naming it. */
function readRoutes(file: string): ListSettings['routes'] {
  const where = `LIST_ROUTES: ${file}`;
  let rules: Record<string, string>;
  try {
    rules = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'not valid JSON' : 'cannot read';
    throw new ConfigError(`${where}: ${reason} (${(error as Error).message.split('\n')[0]})`);
  }
  try {
    compileRoutes(rules);
  } catch (error) {
    throw new ConfigError(`${where}: ${(error as Error).message}`);
  }
  return { file, rules };
}

export function listSettings(env: Env): ListSettings {
  const file = envString(env, 'LIST_FILE');
  const delay = envString(env, 'LIST_DELAY_MS');
  const routes = envString(env, 'LIST_ROUTES');
  const publicDir = envString(env, 'LIST_PUBLIC');
  return {
    file: file === undefined ? undefined : path.resolve(file),
    delay: delay === undefined ? String(listDelayMs) : delayText(parseDelay(delay, 'LIST_DELAY_MS')),
    lockWaitMs: envInt(env, 'LIST_LOCK_WAIT_MS', 6000, { min: 0, max: 600_000 }),
    routes: routes === undefined ? undefined : readRoutes(path.resolve(routes)),
    publicDir: publicDir === undefined ? undefined : path.resolve(publicDir),
    jsonp: envBool(env, 'LIST_JSONP', false),
  };
}
