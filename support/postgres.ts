import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A throwaway PostgreSQL server on loopback, for tests and benchmarks. */
export interface TestPostgres {
  /** Superuser URL (`sslmode=require` when TLS is on). */
  url: string;
  port: number;
  password: string;
  /** CA that signed the server certificate (TLS only). */
  caFile?: string;
  dir: string;
  stop(): Promise<void>;
  /** Stops the server process, keeping its data, and starts it again (fault tests). */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

/** Where Debian keeps the PostgreSQL binaries (`/usr/lib/postgresql/<major>/bin`). */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = path.join(root, major, 'bin');
    if (existsSync(path.join(bin, 'initdb'))) return bin;
  }
  return undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const isRoot = process.getuid?.() === 0;

/** initdb and postgres refuse to run as root: run them as `postgres` then. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

function giveToPostgres(target: string) {
  if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', target]);
}

/** A CA and a server certificate for localhost / 127.0.0.1, made with openssl. */
function makeCertificates(dir: string) {
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run([
    'req',
    '-new',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=backlot test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  ]);
  writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run([
    'req',
    '-new',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  ]);
  run([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'san.ext',
    '-out',
    'server.pem',
  ]);
}

async function waitForPort(port: number, child: { exitCode: number | null }, log: () => string) {
  const { connect } = await import('node:net');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`postgres exited: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`postgres did not start on port ${port}: ${log()}`);
}

/**
 * Starts PostgreSQL (the machine's Debian binaries) in a temporary directory on a free loopback port.
 * With `tls` (the default) only TLS connections are accepted; without it, only plain ones (to prove refusal).
 */
export async function startPostgres(options: { tls?: boolean; port?: number } = {}): Promise<TestPostgres> {
  const tls = options.tls ?? true;
  const bin = postgresBinDir();
  if (!bin)
    throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
  const dir = mkdtempSync(path.join(tmpdir(), 'backlot-pg-'));
  const data = path.join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  writeFileSync(path.join(dir, 'pwfile'), `${password}\n`);
  if (tls) makeCertificates(dir);
  giveToPostgres(dir);
  const [initCmd, initArgs] = asPostgres(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=scram-sha-256',
    `--pwfile=${path.join(dir, 'pwfile')}`,
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  execFileSync(initCmd, initArgs, { stdio: 'ignore' });
  const hba = tls
    ? 'hostssl all all 127.0.0.1/32 scram-sha-256\n'
    : 'hostnossl all all 127.0.0.1/32 scram-sha-256\n';
  writeFileSync(path.join(data, 'pg_hba.conf'), `local all all trust\n${hba}`);
  giveToPostgres(path.join(data, 'pg_hba.conf'));
  const port = options.port ?? (await freePort());
  const settings = [
    '-c',
    `port=${port}`,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${dir}`,
    '-c',
    'fsync=off',
    '-c',
    'max_connections=200',
    '-c',
    'shared_buffers=128MB',
    ...(tls
      ? [
          '-c',
          'ssl=on',
          '-c',
          `ssl_cert_file=${path.join(dir, 'server.pem')}`,
          '-c',
          `ssl_key_file=${path.join(dir, 'server.key')}`,
        ]
      : ['-c', 'ssl=off']),
  ];
  let child: ReturnType<typeof spawn>;
  let output = '';
  const start = async () => {
    const [cmd, args] = asPostgres(path.join(bin, 'postgres'), ['-D', data, ...settings]);
    child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    await waitForPort(port, child, () => output.slice(-2000));
  };
  const halt = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      // SIGINT to the postmaster itself (runuser does not pass it on) is PostgreSQL's "fast shutdown":
      // clients are disconnected, data is kept.
      const pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGINT');
    });
  await start();
  const query = tls ? '?sslmode=require' : '';
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres${query}`,
    port,
    password,
    caFile: tls ? path.join(dir, 'ca.pem') : undefined,
    dir,
    pause: halt,
    resume: start,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
