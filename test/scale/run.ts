import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPostgres } from '../../src/platform/database.js';
import { freePort, startPostgres } from '../../support/postgres.js';
import { startS3 } from '../../support/s3.js';

// The scale-out test (issue 41): three backlot processes started at once on one TLS PostgreSQL and an S3 server,
// behind HAProxy (round robin per request, health-checked on /readyz), with things signups and machines creates
// running throughout a kill -9 of one process, a PostgreSQL restart and a rolling restart. Afterwards: every
// acknowledged write is stored, every created machine completed its create action exactly once.
// Prints the requests that failed in each window; exits 1 when an invariant breaks.

const seconds = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
const token = `dop_v1_${'a'.repeat(64)}`;
const pg = await startPostgres({ tls: true });
const s3 = await startS3();
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  BACKLOT_HASH_COST: 'low',
  DATABASE_URL: pg.url,
  DB_SSL_CA: pg.caFile!,
  DATASTORE_SECRET: pg.password,
  STORAGE_ENDPOINT: s3.endpoint,
  STORAGE_REGION: s3.region,
  STORAGE_BUCKET: s3.bucket,
  STORAGE_ACCESS_KEY: s3.accessKey,
  STORAGE_SECRET_KEY: s3.secretKey,
  STORAGE_FORCE_PATH_STYLE: 'true',
  ADMIN_PORT: '0',
  MACHINES_TOKENS: `full=${token}`,
  MACHINES_PROVISION_MS: '300',
  // The workload's own pace is far above the defaults; the limits' atomicity has its own tests (docs/reliability.md).
  MACHINES_RATE_LIMIT_PER_MINUTE: '1000000',
  MACHINES_RATE_LIMIT_PER_HOUR: '1000000',
  THINGS_SIGNUP_RATE_LIMIT: '0',
  THINGS_LOGIN_RATE_LIMIT: '10',
  SHUTDOWN_DRAIN_MS: '1500',
  TRUST_PROXY: 'loopback',
  LOG_LEVEL: 'error',
};
const services = ['things', 'machines'] as const;
const ports = await Promise.all(
  [0, 1, 2].map(async () => ({ things: await freePort(), machines: await freePort() })),
);
const front = { things: await freePort(), machines: await freePort() };
const procs: (ChildProcess | undefined)[] = [];

async function ready(port: number) {
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await seconds(0.1);
  }
  throw new Error(`port ${port} never ready`);
}

async function launch(i: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', ...services], {
    env: {
      ...env,
      BACKLOT_DATA_DIR: mkdtempSync(path.join(tmpdir(), `backlot-scale-${i}-`)),
      THINGS_PORT: String(ports[i].things),
      MACHINES_PORT: String(ports[i].machines),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  procs[i] = child;
  await Promise.all(services.map((s) => ready(ports[i][s])));
}

const exited = (child: ChildProcess) =>
  new Promise<void>((r) =>
    child.exitCode !== null || child.signalCode ? r() : child.once('exit', () => r()),
  );

const cfg = path.join(mkdtempSync(path.join(tmpdir(), 'backlot-haproxy-')), 'haproxy.cfg');
writeFileSync(
  cfg,
  [
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 2',
    '  option redispatch',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  default-server check inter 300ms fall 2 rise 1',
    ...services.flatMap((s) => [
      `frontend ${s}`,
      `  bind 127.0.0.1:${front[s]}`,
      `  default_backend ${s}`,
      `backend ${s}`,
      ...[0, 1, 2].map((i) => `  server p${i} 127.0.0.1:${ports[i][s]}`),
    ]),
    '',
  ].join('\n'),
);

const started = Date.now();
await Promise.all([0, 1, 2].map(launch));
process.stdout.write(`three processes ready in ${Date.now() - started} ms\n`);
const haproxy = spawn('haproxy', ['-f', cfg, '-db'], { stdio: ['ignore', 'ignore', 'inherit'] });
await Promise.all(Object.values(front).map(ready));

// Workloads: each request is noted with when it ended and whether it was acknowledged.
const log: { at: number; ok: boolean; status: number }[] = [];
const signedUp: string[] = [];
const created: number[] = [];
let running = true;
const note = (res: Response | undefined, expected: number) =>
  log.push({ at: Date.now(), ok: res?.status === expected, status: res?.status ?? 0 });
async function signups(w: number) {
  for (let n = 0; running; n++) {
    const username = `u${w}-${n}`;
    const res = await fetch(`http://127.0.0.1:${front.things}/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'correct horse 1' }),
    }).catch(() => undefined);
    note(res, 200);
    if (res?.status === 200) signedUp.push(username);
  }
}
async function machines(w: number) {
  for (let n = 0; running; n++) {
    const res = await fetch(`http://127.0.0.1:${front.machines}/v2/droplets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: `m${w}-${n}`,
        region: 'nyc3',
        size: 's-1vcpu-1gb',
        image: 'ubuntu-24-04-x64',
      }),
    }).catch(() => undefined);
    note(res, 202);
    if (res?.status !== 202) continue;
    const { id } = ((await res.json()) as { droplet: { id: number } }).droplet;
    created.push(id);
    // Deleted again, to stay under the account's droplet limit.
    for (let tries = 0; tries < 20; tries++) {
      const gone = await fetch(`http://127.0.0.1:${front.machines}/v2/droplets/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => undefined);
      note(gone, 204);
      if (gone?.status === 204) break;
      await seconds(0.1);
    }
  }
}
const work = [...[0, 1, 2, 3].map(signups), ...[0, 1].map(machines)];

const windows: Record<string, [number, number]> = {};
const during = async (name: string, event: () => Promise<void>) => {
  const from = Date.now();
  await event();
  await seconds(1);
  windows[name] = [from, Date.now()];
};
await seconds(3);
await during('kill -9 of one process', async () => {
  procs[1]!.kill('SIGKILL');
  await exited(procs[1]!);
  await seconds(2);
  await launch(1);
});
await seconds(2);
await during('PostgreSQL restart', async () => {
  await pg.pause();
  await pg.resume();
});
await seconds(2);
await during('rolling restart', async () => {
  for (const i of [0, 1, 2]) {
    procs[i]!.kill('SIGTERM');
    await exited(procs[i]!);
    await launch(i);
    await seconds(1);
  }
});
await seconds(2);
running = false;
await Promise.all(work);

// Limits are global and atomic: 30 logins at once through the balancer (one client address), a limit of 10.
const logins = await Promise.all(
  Array.from({ length: 30 }, () =>
    fetch(`http://127.0.0.1:${front.things}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'u0-0', password: 'wrong password' }),
    }).then(
      (r) => r.status,
      () => 0,
    ),
  ),
);
const loginCounts = {
  401: logins.filter((x) => x === 401).length,
  429: logins.filter((x) => x === 429).length,
};

// Invariants, read from the database itself.
const db = await openPostgres({ url: pg.url, source: 'DATABASE_URL', sslCaFile: pg.caFile }, 1);
await seconds(0.5);
// A request settles completed actions: one through the balancer applies every create.
await fetch(`http://127.0.0.1:${front.machines}/v2/droplets?per_page=1`, {
  headers: { authorization: `Bearer ${token}` },
});
const users = new Set(
  (await db.query<{ username: string }>('SELECT username FROM things.users')).rows.map((r) => r.username),
);
const lostUsers = signedUp.filter((u) => !users.has(u));
const { rows: actions } = await db.query<{ resource_id: number; n: number; applied: number }>(
  `SELECT resource_id, count(*)::int AS n, count(*) FILTER (WHERE applied)::int AS applied FROM machines.actions
    WHERE type = 'create' GROUP BY resource_id`,
);
const byMachine = new Map(actions.map((a) => [a.resource_id, a]));
const notOnce = created.filter((id) => byMachine.get(id)?.n !== 1 || byMachine.get(id)?.applied !== 1);
await db.close();

const failed = (from: number, to: number) => log.filter((e) => !e.ok && e.at >= from && e.at <= to).length;
const total = (from: number, to: number) => log.filter((e) => e.at >= from && e.at <= to).length;
process.stdout.write(
  `requests: ${log.length}, acknowledged signups ${signedUp.length}, machines created ${created.length}\n`,
);
for (const [name, [from, to]] of Object.entries(windows))
  process.stdout.write(
    `failed during ${name}: ${failed(from, to)} of ${total(from, to)} (${to - from} ms)\n`,
  );
const statuses = new Map<number, number>();
for (const e of log) if (!e.ok) statuses.set(e.status, (statuses.get(e.status) ?? 0) + 1);
process.stdout.write(
  `failed answers by status (0: no answer): ${JSON.stringify(Object.fromEntries(statuses))}\n`,
);
process.stdout.write(
  `failed outside those: ${log.filter((e) => !e.ok).length - Object.values(windows).reduce((n, [f, t]) => n + failed(f, t), 0)}\n`,
);
process.stdout.write(
  `acknowledged signups lost: ${lostUsers.length}; created machines whose create action is not exactly once and applied: ${notOnce.length}\n`,
);

process.stdout.write(
  `30 parallel logins with a limit of 10 on three processes: ${JSON.stringify(loginCounts)}\n`,
);
const limitHeld = loginCounts[401] === 10 && loginCounts[429] === 20;
haproxy.kill('SIGTERM');
for (const child of procs) child?.kill('SIGTERM');
await Promise.all([haproxy, ...procs].map((c) => exited(c!)));
await s3.stop();
await pg.stop();
process.exit(
  limitHeld && lostUsers.length === 0 && notOnce.length === 0 && signedUp.length > 0 && created.length > 0
    ? 0
    : 1,
);
