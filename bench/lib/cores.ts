import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Which cores (taskset's list syntax) the load client and the servers it measures run on. */
export interface CoreSplit {
  client: string;
  servers: string;
}

/**
 * The load client on core 0 and the servers on the others, as if on two machines. Unpinned, the scheduler moves
 * the server between the core the client uses and the other, and a server with more code and data per request
 * loses more to that than the node:http ceiling does: `/posts/1` ÷ ceiling was 1–5 % lower unpinned in alternated
 * runs (docs/benchmarks.md, "Known limits"). Undefined with one core, without taskset, or with BENCH_PIN=0.
 */
export function coreSplit(): CoreSplit | undefined {
  const cores = availableParallelism();
  if (cores < 2 || process.env.BENCH_PIN === '0') return undefined;
  const split = { client: '0', servers: cores === 2 ? '1' : `1-${cores - 1}` };
  // Both must be cores this process may use (a container may be given others).
  const usable = (list: string) => spawnSync('taskset', ['-c', list, 'true']).status === 0;
  return usable(split.client) && usable(split.servers) ? split : undefined;
}

/** `command` run on `cores` (taskset's list syntax), or as it is when `cores` is undefined. */
export const onCores = (cores: string | undefined, command: string[]) =>
  cores === undefined ? command : ['taskset', '-c', cores, ...command];
