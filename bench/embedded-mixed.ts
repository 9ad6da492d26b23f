/**
 * The embedded database under mixed load (docs/benchmarks.md, last section): all seven services on PGlite, content
 * grown to ROWS posts. Prints the idle resident memory, then for 10 s each, first with content idle and then with
 * 50 connections reading content's first page: posts' throughput (in memory, 50 connections) and the latency of
 * employees' /healthz (which reads nothing, 1 connection); then the resident memory after the load. When PGlite
 * blocks the event loop, every service waits.
 *
 *   npm run build && npx tsx bench/embedded-mixed.ts [ROWS]        # BENCH_BACKLOT_CLI=…/dist/cli.js: another build
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { openEmbedded } from '../src/platform/database.js';
import { startBacklot } from './lib/targets.js';

const rows = Number(process.argv[2] ?? 10_000);
const seconds = 10;
const all = ['profiles', 'things', 'list', 'employees', 'posts', 'machines', 'content'];
const env = { LIST_DELAY_MS: '0', CONTENT_ADMIN_APP_PASSWORD: 'abcd EFGH ijkl MNOP qrst UVWX' };
const autocannon = path.resolve(import.meta.dirname, '../node_modules/.bin/autocannon');

interface Figures {
  requests: { average: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}

async function load(url: string, connections: number): Promise<Figures> {
  const args = ['-j', '-c', String(connections), '-d', String(seconds), url];
  const { stdout } = await promisify(execFile)(autocannon, args, { maxBuffer: 1 << 24 });
  return JSON.parse(stdout);
}

// A first start makes the schemas and seed data; content's posts are then cloned with the server stopped.
let backlot = await startBacklot({ fromSource: false }, all, env);
const dataDir = backlot.dataDir;
await backlot.stop();
const db = await openEmbedded(path.join(dataDir, 'pg'));
const columns = (
  await db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
     WHERE table_schema = 'content' AND table_name = 'posts' AND column_name <> 'id' ORDER BY ordinal_position`,
  )
).rows.map((r) => r.column_name);
const values = columns.map(
  (c) => ({ title: `'Bench post ' || g`, slug: `'bench-post-' || g` })[c] ?? `t.${c}`,
);
await db.query(
  `INSERT INTO content.posts (${columns.join(', ')})
   SELECT ${values.join(', ')} FROM (SELECT * FROM content.posts ORDER BY id LIMIT 1) t, generate_series(1, $1::int) g`,
  [rows],
);
await db.close();

backlot = await startBacklot({ fromSource: false }, all, { ...env, BACKLOT_DATA_DIR: dataDir });
await new Promise((resolve) => setTimeout(resolve, 5000));
console.log(`idle RSS, all seven: ${backlot.rssMiB().toFixed(0)} MiB; content: ${rows} posts more`);
const posts = `${backlot.urls.posts}/posts/1`;
const healthz = `${backlot.urls.employees}/healthz`;
const page = `${backlot.urls.content}/wp-json/wp/v2/posts?per_page=10&page=1`;
const line = (name: string, f: Figures) =>
  `  ${name}: ${f.requests.average.toFixed(0)} req/s, p50 ${f.latency.p50} ms, p99 ${f.latency.p99} ms, ` +
  `max ${f.latency.max} ms${f.non2xx || f.errors ? `, ${f.non2xx} non-2xx, ${f.errors} errors` : ''}`;
for (const contentLoaded of [false, true]) {
  const [p, h, c] = await Promise.all([
    load(posts, 50),
    load(healthz, 1),
    contentLoaded ? load(page, 50) : undefined,
  ]);
  console.log(contentLoaded ? 'content loaded (50 connections on its first page):' : 'content idle:');
  console.log(line('posts GET /posts/1, 50 connections', p));
  console.log(line('employees GET /healthz, 1 connection', h));
  if (c) console.log(line('content first page, 50 connections', c));
}
console.log(
  `RSS after the load: ${backlot.rssMiB().toFixed(0)} MiB, peak ${backlot.peakRssMiB().toFixed(0)} MiB`,
);
await backlot.stop();
