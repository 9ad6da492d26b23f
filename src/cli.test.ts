import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort, startPostgres, type TestPostgres } from '../support/postgres.js';
import { withEmbeddedCluster } from '../test/db.js';

/** The command line from the TypeScript sources (bin/backlot.js runs the same, compiled: see loading.test.ts). */
const cli = ['--import', import.meta.resolve('tsx'), path.resolve('src/cli.ts')];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the real `backlot` command line with a clean environment (no DATABASE_URL from the caller). */
function backlot(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cli, ...args], {
      env: { PATH: process.env.PATH, BACKLOT_HASH_COST: 'low', ...env },
      cwd,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** Starts `backlot` and resolves once its banner is out, with the URLs it printed. */
function serve(args: string[], env: Record<string, string>) {
  // Stopped at once unless a test is about the drain.
  const child = spawn(process.execPath, [...cli, ...args], {
    env: { PATH: process.env.PATH, SHUTDOWN_DRAIN_MS: '0', ...env },
  });
  let stdout = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (stdout.includes('docs http')) resolve(stdout);
    });
    child.on('exit', () => reject(new Error(`exited before the banner: ${stdout}`)));
  });
  return { child: child as ChildProcess, banner, exited };
}

describe('backlot command line', () => {
  test('--help explains serving and every flag', async () => {
    const run = await backlot(['--help']);
    assert.equal(run.code, 0);
    for (const text of [
      'backlot serve [ids...]',
      '--port',
      '--host',
      '--data-dir',
      '--version',
      'posts',
      'backlot machines token create --name <name> [--scopes <scopes>]',
      'backlot content app-password create --user <user> [--name <name>]',
      'backlot things remove <id>',
    ]) {
      assert.ok(run.stdout.includes(text), `help mentions ${text}`);
    }
  });

  test('--version prints the package version', async () => {
    const run = await backlot(['--version']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  test('an unknown flag or service exits 2 with one line naming the valid ones', async () => {
    const flag = await backlot(['--bogus']);
    assert.equal(flag.code, 2);
    assert.equal(
      flag.stderr,
      'backlot: unknown or malformed option --bogus (valid options: --port, --host, --data-dir, --delay, --routes, --help, --version)\n',
    );
    const id = await backlot(['serve', 'nope']);
    assert.equal(id.code, 2);
    assert.equal(
      id.stderr,
      'backlot: unknown service "nope" (valid: profiles, things, list, employees, posts, machines, content)\n',
    );
    const port = await backlot(['serve', 'posts', 'list', '--port', '9000']);
    assert.equal(port.code, 2);
  });

  test('serves the chosen service, prints the banner, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-cli-'));
    try {
      const run = serve(['serve', 'posts', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], {
        LOG_LEVEL: 'warn',
      });
      const banner = await run.banner;
      const url = /posts\s+(http:\/\/\S+)/.exec(banner)?.[1];
      assert.ok(url, banner);
      const res = await fetch(`${url}/healthz`);
      assert.equal(res.status, 200);
      run.child.kill('SIGTERM');
      assert.equal(await run.exited, 0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('SIGTERM: /readyz turns 503 while requests are still served for SHUTDOWN_DRAIN_MS, then it stops', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-cli-'));
    try {
      const run = serve(['serve', 'posts', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], {
        LOG_LEVEL: 'warn',
        SHUTDOWN_DRAIN_MS: '1500',
      });
      const url = /posts\s+(http:\/\/\S+)/.exec(await run.banner)?.[1];
      assert.ok(url);
      assert.equal((await fetch(`${url}/readyz`)).status, 200);
      const signalled = Date.now();
      run.child.kill('SIGTERM');
      // Until the balancer notices: not ready, yet every request is answered, telling clients to reconnect.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal((await fetch(`${url}/readyz`)).status, 503);
      const served = await fetch(`${url}/posts/1`);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('connection'), 'close');
      assert.equal(await run.exited, 0);
      assert.ok(Date.now() - signalled >= 1500, 'it stops once the drain is over');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a port in use stops startup with one line naming the service and the setting', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-cli-'));
    const holder = createServer();
    const port = await new Promise<number>((resolve) =>
      holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)),
    );
    try {
      const env = { LOG_LEVEL: 'silent', ADMIN_PORT: '0', HOST: '127.0.0.1' };
      const together = await backlot(['serve', 'posts', 'list', '--data-dir', dataDir], {
        ...env,
        POSTS_PORT: String(port),
        LIST_PORT: '0',
      });
      assert.deepEqual(
        [together.code, together.stderr],
        [1, `backlot: posts: port ${port} is in use (127.0.0.1:${port}); choose another with POSTS_PORT\n`],
      );
      const alone = await backlot(['serve', 'posts', '--port', String(port), '--data-dir', dataDir], env);
      assert.deepEqual(
        [alone.code, alone.stderr],
        [1, `backlot: posts: port ${port} is in use (127.0.0.1:${port}); choose another with --port\n`],
      );
    } finally {
      holder.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a data directory that cannot be written stops startup with one line naming the setting', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'backlot-cli-'));
    // A path under a file: unwritable even for root, whom permission bits do not stop.
    const file = path.join(work, 'a-file');
    writeFileSync(file, '');
    const dataDir = path.join(file, 'data');
    try {
      const run = await backlot(['serve', 'employees', '--port', '0', '--data-dir', dataDir], {
        LOG_LEVEL: 'silent',
        ADMIN_PORT: '0',
      });
      assert.equal(run.code, 1);
      assert.equal(
        run.stderr,
        `backlot: the data directory ${dataDir} cannot be written (mkdir ${dataDir}: ENOTDIR); set BACKLOT_DATA_DIR or --data-dir to a writable directory\n`,
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('a data directory under /proc is refused naming the setting, for serve and operator commands (it hung)', {
    skip: process.platform !== 'linux',
    timeout: 60_000,
  }, async () => {
    const refusal =
      'backlot: the data directory /proc/backlot cannot be written (mkdir /proc/backlot: ENOENT); set BACKLOT_DATA_DIR or --data-dir to a writable directory\n';
    const env = { LOG_LEVEL: 'silent', ADMIN_PORT: '0' };
    for (const args of [
      ['serve', 'machines', 'list', '--data-dir', '/proc/backlot'],
      ['machines', 'token', 'create', '--name', 'ci', '--data-dir', '/proc/backlot'],
    ]) {
      const run = await backlot(args, env);
      assert.deepEqual({ code: run.code, stderr: run.stderr }, { code: 1, stderr: refusal }, args.join(' '));
      assert.ok(run.ms < 20_000, `${args.join(' ')} took ${run.ms} ms`);
    }
  });
});

describe('the admin page beside the services', () => {
  const args = (dataDir: string) => [
    'serve',
    'posts',
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--data-dir',
    dataDir,
  ];

  test('ADMIN_PORT: the banner links the admin, which lists the services; 0 turns it off', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-cli-'));
    try {
      const adminPort = await freePort();
      const run = serve(args(dataDir), { LOG_LEVEL: 'warn', ADMIN_PORT: String(adminPort) });
      const banner = await run.banner;
      const admin = /admin\s+(http:\/\/\S+)\s+\(page and API\)/.exec(banner)?.[1];
      assert.equal(admin, `http://127.0.0.1:${adminPort}/`, banner);
      const { services } = (await (await fetch(`${admin}api/services`)).json()) as {
        services: { id: string }[];
      };
      assert.deepEqual(
        services.map((s) => s.id),
        ['posts'],
      );
      run.child.kill('SIGTERM');
      assert.equal(await run.exited, 0);

      const off = serve(args(dataDir), { LOG_LEVEL: 'warn', ADMIN_PORT: '0' });
      assert.doesNotMatch(await off.banner, /admin/);
      off.child.kill('SIGTERM');
      assert.equal(await off.exited, 0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a busy ADMIN_PORT stops startup; a busy default 8090 only skips the admin', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-cli-'));
    const holder = createServer();
    // 8090 is busy either way: held here, or already held by another process.
    await new Promise<void>((resolve) => {
      holder.once('error', () => resolve());
      holder.listen(8090, '127.0.0.1', () => resolve());
    });
    try {
      const busy = await backlot(args(dataDir), { LOG_LEVEL: 'warn', ADMIN_PORT: '8090' });
      assert.equal(busy.code, 1);
      assert.match(busy.stderr, /^backlot: port already in use: .*8090/);
      const run = serve(args(dataDir), { LOG_LEVEL: 'warn' });
      assert.match(
        await run.banner,
        /admin\s+not started: port 8090 is in use \(set ADMIN_PORT; 0 for none\)/,
      );
      run.child.kill('SIGTERM');
      assert.equal(await run.exited, 0);
    } finally {
      holder.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('operator commands', () => {
  test('honour --data-dir: a token made there is accepted by a server started on the same directory', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-cli-'));
    const cwd = mkdtempSync(path.join(tmpdir(), 'backlot-cli-cwd-'));
    await withEmbeddedCluster(dataDir); // what a first start of the built package copies, instead of initdb
    try {
      const create = await backlot(
        ['machines', 'token', 'create', '--name', 'ci', '--data-dir', dataDir],
        {},
        cwd,
      );
      assert.equal(create.code, 0, create.stderr);
      const token = create.stdout.trim().split('\n').at(-1) as string;
      assert.match(token, /^dop_v1_[0-9a-f]{64}$/);
      assert.equal(existsSync(path.join(cwd, 'data')), false, 'nothing was written to ./data');

      const run = serve(['serve', 'machines', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], {
        LOG_LEVEL: 'warn',
      });
      const url = /machines\s+(http:\/\/\S+)/.exec(await run.banner)?.[1];
      assert.ok(url);
      const ok = await fetch(`${url}/v2/machines`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(ok.status, 200);
      assert.deepEqual(((await ok.json()) as { machines: unknown[] }).machines, []);
      const other = await fetch(`${url}/v2/machines`, {
        headers: { authorization: `Bearer dop_v1_${'0'.repeat(64)}` },
      });
      assert.equal(other.status, 401);
      run.child.kill('SIGTERM');
      assert.equal(await run.exited, 0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  test('an unknown or missing flag exits 2 naming the valid flags; --help prints the usage', async () => {
    const unknown = await backlot(['machines', 'token', 'create', '--name', 'ci', '--data-dri', '/tmp/x']);
    assert.equal(unknown.code, 2);
    assert.equal(
      unknown.stderr,
      'backlot: machines token create: unknown option --data-dri (valid options: --name, --scopes, --data-dir, --help)\n',
    );
    const missing = await backlot(['content', 'token', 'create', '--name', 'laptop']);
    assert.equal(missing.code, 2);
    assert.equal(
      missing.stderr,
      'backlot: content token create: --user is required; usage: backlot content token create --user <user> [--name <name>]\n',
    );
    const command = await backlot(['machines', 'token', 'rotate']);
    assert.equal(command.code, 2);
    assert.match(
      command.stderr,
      /^backlot: unknown command "token rotate" for machines \(valid: backlot machines token create/,
    );
    const help = await backlot(['machines', 'token', 'revoke', '--help']);
    assert.equal(help.code, 0);
    assert.equal(
      help.stdout,
      'usage: backlot machines token revoke <name-or-id>\nrevoke a token by name or id, at once\n',
    );
  });
});

test('SIGTERM lets an in-flight request finish before exiting 0', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-cli-'));
  try {
    const run = serve(
      ['serve', 'list', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--delay', '1000'],
      { LOG_LEVEL: 'warn' },
    );
    const url = /list\s+(http:\/\/\S+)/.exec(await run.banner)?.[1];
    const inFlight = fetch(`${url}/list`);
    await new Promise((r) => setTimeout(r, 200));
    run.child.kill('SIGTERM');
    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), [
      { id: 1, item: 'bread' },
      { id: 2, item: 'grapes' },
    ]);
    assert.equal(await run.exited, 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('backlot startup against a networked PostgreSQL', () => {
  let plain: TestPostgres;
  before(async () => {
    plain = await startPostgres({ tls: false });
  });
  after(() => plain?.stop());

  const failsFast = async (env: Record<string, string>, expected: RegExp) => {
    const run = await backlot(['serve', 'employees', '--port', '0'], { ...env, LOG_LEVEL: 'warn' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, expected);
    assert.equal(run.stderr.trim().split('\n').length, 1, `one line, no stack trace: ${run.stderr}`);
    assert.ok(run.ms < 10_000, `exited within 10 s (took ${run.ms} ms)`);
  };

  test('a server without TLS is refused', () =>
    failsFast(
      { DATABASE_URL: plain.url },
      /^backlot: DATABASE_URL: the server at 127\.0\.0\.1:\d+ does not offer TLS; backlot requires TLS\n$/,
    ));

  test('an unreachable host, a bad URL and a wrong password each stop startup with one line', async () => {
    await failsFast(
      { DATABASE_URL: 'postgres://u:p@127.0.0.1:1/db' },
      /cannot connect to 127\.0\.0\.1:1: connection refused/,
    );
    await failsFast({ DATABASE_URL: 'not a url' }, /^backlot: DATABASE_URL: not a valid PostgreSQL URL/);
    await failsFast(
      {
        DB_HOST: '127.0.0.1',
        DB_PORT: String(plain.port),
        DB_USER: 'postgres',
        DB_PASSWORD: 'wrong',
        DB_NAME: 'postgres',
      },
      /^backlot: DB_HOST: /,
    );
  });
});
