import { createHash } from 'node:crypto';

/**
 * The one checkpoint-name rule of the admin API, the command line and `start()`: its own module, so the command
 * line checks a name before it opens anything. Names keep their case; `_seed` (the first-start state) and other
 * names starting with `_` or `.` are the harness's own.
 */
const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const checkpointNameRule =
  '1 to 64 letters, digits, ".", "-" and "_", starting with a letter or digit';

export const isCheckpointName = (name: unknown): name is string =>
  typeof name === 'string' && namePattern.test(name);

/** Names stored under themselves, as every checkpoint was before names could hold capitals, dots or 64 characters. */
const plainKey = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const hashedKey = /^_[0-9a-f]{32}$/;

/**
 * Where a checkpoint is stored: its folder, its PostgreSQL schemas (`<schema>__cp_<key>`, at most 63 bytes) and its
 * bucket prefix. A lower-case name of up to 40 characters is its own key; any other name is hashed, so `Upper`
 * and `upper` stay apart on a case-insensitive disk and a 64-character name fits PostgreSQL's identifier limit.
 */
export function checkpointKey(name: string): string {
  return plainKey.test(name) ? name : `_${createHash('sha256').update(name).digest('hex').slice(0, 32)}`;
}

/** Whether a folder name under `checkpoints/` can be a user checkpoint's key (the name file says which). */
export const isCheckpointKey = (key: string) => plainKey.test(key) || hashedKey.test(key);
