import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

const cli = ['--import', import.meta.resolve('tsx'), path.resolve('src/cli.ts')];
const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-console-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

/** Serves posts on a free port, sends `paths`, stops it with Ctrl+C and returns what it printed before and after the banner. */
async function consoleOf(paths: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [...cli, 'serve', 'posts', '--port', '0'], {
    env: { PATH: process.env.PATH, BACKLOT_DATA_DIR: dataDir, ADMIN_PORT: '0', ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const found = /posts +(http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1] as string);
    });
    child.on('exit', () => reject(new Error(`exited before the banner: ${out}`)));
  });
  const bannerStart = out.indexOf('backlot ');
  const bannerEnd = out.indexOf('\n', out.indexOf('docs http')) + 1;
  for (const p of paths) await (await fetch(url + p)).arrayBuffer();
  // The line is written once the answer is sent: give the child a moment before stopping it.
  await new Promise((resolve) => setTimeout(resolve, 300));
  child.kill('SIGINT');
  await exited;
  return {
    before: out.slice(0, bannerStart).split('\n').filter(Boolean),
    after: out.slice(bannerEnd).split('\n').filter(Boolean),
  };
}

const probesAndRequests = ['/posts/1', '/healthz', '/posts?access_token=abc&_limit=1', '/readyz', '/nope'];

test('on a terminal: nothing before the banner, one line per request, secrets redacted, none for health probes', async () => {
  const { before, after: lines } = await consoleOf(probesAndRequests, { LOG_PRETTY: 'true' });
  // Fastify's "Server listening at …" (one per address) came first and pushed the banner up.
  assert.deepEqual(before, []);
  assert.deepEqual(
    lines.map((l) => l.replace(/ \d+ ms$/, ' N ms')),
    [
      'posts      GET /posts/1 200 N ms',
      'posts      GET /posts?access_token=[redacted]&_limit=1 200 N ms',
      'posts      GET /nope 404 N ms',
      'backlot    SIGINT: finishing in-flight requests, then stopping',
    ],
  );
});

test('as JSON (not a terminal): the same one entry per request, with its fields', async () => {
  const { before, after: lines } = await consoleOf(probesAndRequests, {});
  assert.deepEqual(before, []);
  const entries = lines.map((l) => JSON.parse(l));
  const requests = entries.filter((e) => e.url !== undefined);
  assert.deepEqual(
    requests.map(({ service, method, url, status, msg }) => ({ service, method, url, status, msg })),
    [
      ['/posts/1', 200],
      ['/posts?access_token=[redacted]&_limit=1', 200],
      ['/nope', 404],
    ].map(([url, status]) => ({
      service: 'posts',
      method: 'GET',
      url,
      status,
      msg: `GET ${url} ${status} ${requests.find((r) => r.url === url).ms} ms`,
    })),
  );
  assert.deepEqual(
    entries.filter((e) => e.url === undefined).map((e) => e.msg),
    ['SIGINT: finishing in-flight requests, then stopping'],
  );
  assert.ok(!lines.join('\n').includes('abc'), 'the token never appears');
});
