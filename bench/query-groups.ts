import path from 'node:path';
import { openEmbedded, openPostgres, type Queryable } from '../src/platform/database.js';
import { buildDataset, photosAt } from '../src/services/posts/dataset.js';
import { compare } from './lib/compare.js';
import { type BenchContext, type BenchGroup, freshDatabase, launch } from './lib/context.js';
import { type LoadResult, load } from './lib/load.js';
import { startBacklot, startCeiling, startJsonServer } from './lib/targets.js';

/** posts' query-string answers (kept by URL) against json-server and a bare server sending the same answer. */
async function postsQueries(ctx: BenchContext) {
  const backlot = await startBacklot(launch(ctx), ['posts'], {});
  const dataset = buildDataset();
  const json = await startJsonServer({ ...dataset, photos: photosAt(dataset.photos, 'http://127.0.0.1') });
  const started = [backlot, json];
  try {
    for (const path of ['/posts?_page=2&_limit=10', '/comments?postId=1']) {
      const answer = await fetch(`${backlot.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
      const text = await answer.text();
      const skip = ['date', 'connection', 'keep-alive', 'content-length'];
      const headers = Object.fromEntries([...answer.headers].filter(([name]) => !skip.includes(name)));
      const ceiling = await startCeiling(text, headers, 0);
      started.push(ceiling);
      await compare(ctx, 'posts-queries', `GET ${path}`, { path }, [
        { name: 'backlot', server: backlot, url: backlot.url },
        { name: 'json-server', server: json, url: json.url },
        { name: 'node:http ceiling (same answer)', server: ceiling, url: ceiling.url },
      ]);
    }
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}

const contentPage = '/wp-json/wp/v2/posts?per_page=10&page=1';
const all = ['profiles', 'things', 'list', 'employees', 'posts', 'machines', 'content'];
const mixedEnv = { LIST_DELAY_MS: '0', CONTENT_ADMIN_APP_PASSWORD: 'abcd EFGH ijkl MNOP qrst UVWX' };

/** content grown by `rows` posts, cloned from its first (the server stopped, on PGlite). */
async function growContent(db: Queryable, rows: number) {
  const { rows: columns } = await db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
     WHERE table_schema = 'content' AND table_name = 'posts' AND column_name <> 'id' ORDER BY ordinal_position`,
  );
  const names = columns.map((c) => c.column_name);
  const values = names.map(
    (c) => ({ title: `'Bench post ' || g`, slug: `'bench-post-' || g` })[c] ?? `t.${c}`,
  );
  await db.query(
    `INSERT INTO content.posts (${names.join(', ')})
     SELECT ${values.join(', ')} FROM (SELECT * FROM content.posts ORDER BY id LIMIT 1) t, generate_series(1, $1::int) g`,
    [rows],
  );
  await db.query('ANALYZE content.posts');
}

/**
 * All seven in one process on each database, content grown by 10,000 posts: posts' `/posts/1` (in memory, 50
 * connections) and employees' `/healthz` (1 connection) alone, then while 50 connections read content's first
 * page. What was bench/embedded-mixed.ts. The ratio is posts loaded ÷ posts alone, in the same run.
 */
async function mixed(ctx: BenchContext) {
  const rows = ctx.smoke ? 100 : 10_000;
  // Smoke runs too get 3 s: under 50 connections content's first page may finish none within 1 s.
  const seconds = ctx.smoke ? 3 : Math.min(ctx.settings.durationSeconds, 10);
  for (const database of ['pglite', 'postgres'] as const) {
    let env: Record<string, string> = { ...mixedEnv };
    if (database === 'postgres') {
      const url = await freshDatabase(ctx, 'bench_mixed');
      env = { ...env, DATABASE_URL: url, DATASTORE_SECRET: ctx.postgres.password };
      const first = await startBacklot(launch(ctx), all, env);
      await first.stop();
      const db = await openPostgres({ url, source: 'bench' }, 1);
      await growContent(db, rows).finally(() => db.close());
    } else {
      const first = await startBacklot(launch(ctx), all, env);
      await first.stop();
      const db = await openEmbedded(path.join(first.dataDir, 'pg'));
      await growContent(db, rows).finally(() => db.close());
      env = { ...env, BACKLOT_DATA_DIR: first.dataDir };
    }
    const backlot = await startBacklot(launch(ctx), all, env);
    try {
      const settings = { ...ctx.settings, durationSeconds: seconds };
      const run = (id: string, path: string, connections: number) =>
        load(backlot.urls[id] as string, { path }, { ...settings, connections });
      // One request each first: a fresh process compiles each route's serializers on its first answer.
      for (const [id, path] of [
        ['posts', '/posts/1'],
        ['employees', '/healthz'],
        ['content', contentPage],
      ])
        await fetch(`${backlot.urls[id]}${path}`).then((r) => r.arrayBuffer());
      const phases: { loaded: boolean; posts: LoadResult; healthz: LoadResult; content?: LoadResult }[] = [];
      for (const loaded of [false, true]) {
        const [posts, healthz, content] = await Promise.all([
          run('posts', '/posts/1', 50),
          run('employees', '/healthz', 1),
          loaded ? run('content', contentPage, 50) : undefined,
        ]);
        phases.push({ loaded, posts, healthz, content });
      }
      const [alone, loaded] = phases as [(typeof phases)[0], (typeof phases)[0]];
      const share = (loaded.posts.requestsPerSecond / alone.posts.requestsPerSecond).toFixed(2);
      const where = database === 'pglite' ? 'PGlite' : 'PostgreSQL';
      for (const phase of phases) {
        const when = phase.loaded ? 'content loaded' : 'content idle';
        ctx.report.add({
          group: 'mixed',
          scenario: `${where}: posts GET /posts/1, ${when}`,
          server: 'backlot (all 7)',
          result: phase.posts,
          note: phase.loaded
            ? `${share}× posts with content idle${database === 'pglite' ? ' (target ≥ 0.33)' : ''}`
            : undefined,
        });
        ctx.report.add({
          group: 'mixed',
          scenario: `${where}: employees GET /healthz (1 connection), ${when}`,
          server: 'backlot (all 7)',
          result: phase.healthz,
        });
        if (phase.content)
          ctx.report.add({
            group: 'mixed',
            scenario: `${where}: content first page (+${rows} posts), 50 connections`,
            server: 'backlot (all 7)',
            result: phase.content,
            peakRssMiB: backlot.peakRssMiB(),
          });
      }
    } finally {
      await backlot.stop();
    }
  }
}

export const queryGroups: Record<string, BenchGroup> = {
  'posts-queries': postsQueries,
  mixed,
};
