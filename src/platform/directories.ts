import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * `mkdir -p`, one level at a time: Node's own recursive mkdir never returns for a path under /proc (it retries the
 * ENOENT there forever, Node 20 to 24), so `--data-dir /proc/backlot` hung instead of failing. Throws the first
 * level's error (its `path` names the folder).
 */
export function makeDirectory(dir: string, mode = 0o700) {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !existsSync(at); at = path.dirname(at)) {
    missing.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
