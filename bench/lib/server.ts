import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { onCores } from './cores.js';

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** Peak resident memory of the process so far (VmHWM), in MiB. */
  peakRssMiB(): number;
  /** Current resident memory (VmRSS), in MiB. */
  rssMiB(): number;
  /** JS heap in use after full collections, in MiB; only for servers started with `heapProbe`. */
  heapAfterGcMiB(): Promise<number>;
  stop(): Promise<void>;
}

function statusField(pid: number, field: string) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Starts a server process and waits until `readyPath` answers 2xx (or fails after `timeoutMs`). */
export async function startServer(
  name: string,
  command: string[],
  options: {
    url: string;
    readyPath: string;
    env?: Record<string, string | undefined>;
    timeoutMs?: number;
    /** Loads heap-probe.mjs into the server (a Node process) so heapAfterGcMiB can ask it. */
    heapProbe?: boolean;
    /** The cores it runs on (taskset's list syntax; see cores.ts), every thread of it. */
    cores?: string;
  },
): Promise<ServerProcess> {
  const probe = options.heapProbe
    ? { NODE_OPTIONS: `--expose-gc --import=${new URL('./heap-probe.mjs', import.meta.url).href}` }
    : {};
  // taskset execs the command: the child's pid is the server's own.
  const [file, ...args] = onCores(options.cores, command);
  const child: ChildProcess = spawn(file!, args, {
    env: { ...process.env, ...options.env, ...probe },
    stdio: ['ignore', 'ignore', 'pipe', ...(options.heapProbe ? (['ipc'] as const) : [])],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(options.url + options.readyPath);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become ready: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const pid = child.pid!;
  return {
    name,
    url: options.url,
    pid,
    peakRssMiB: () => statusField(pid, 'VmHWM'),
    rssMiB: () => statusField(pid, 'VmRSS'),
    heapAfterGcMiB: () =>
      new Promise<number>((resolve, reject) => {
        if (!child.send) return reject(new Error(`${name} was started without the heap probe`));
        child.once('message', (reply) => resolve((reply as { heapUsed: number }).heapUsed / 2 ** 20));
        child.send('heap');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
