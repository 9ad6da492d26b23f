import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPostgres } from '../src/platform/database.js';
import { passwordHashCost } from '../src/platform/secrets.js';
import { measure } from './lib/compare.js';
import { type BenchContext, type BenchGroup, freshDatabase, launch } from './lib/context.js';
import { startBacklot } from './lib/targets.js';

const json = { 'content-type': 'application/json' };
const machinesToken = `dop_v1_${'ab'.repeat(32)}`;
const contentAppPassword = 'abcd EFGH ijkl MNOP qrst UVWX';
/** Settings that keep the benchmark itself from tripping the services' own limits. */
const benchEnv = {
  MACHINES_TOKENS: `bench=${machinesToken}`,
  MACHINES_RATE_LIMIT_PER_HOUR: '100000000',
  MACHINES_RATE_LIMIT_PER_MINUTE: '100000000',
  MACHINES_LIMIT: '100000',
  MACHINES_PROVISION_MS: '0',
  THINGS_LOGIN_RATE_LIMIT: '0',
  THINGS_SIGNUP_RATE_LIMIT: '0',
  CONTENT_ADMIN_APP_PASSWORD: contentAppPassword,
  EMPLOYEES_USERS: 'bench:bench-password:editor',
};

async function things(ctx: BenchContext) {
  const url = await freshDatabase(ctx, 'bench_things');
  const backlot = await startBacklot(launch(ctx), ['things'], {
    ...benchEnv,
    DATABASE_URL: url,
    DATASTORE_SECRET: ctx.postgres.password,
  });
  const db = await openPostgres({ url, source: 'bench' }, 1);
  try {
    await db.query(
      `INSERT INTO things.things (name, color) SELECT 'thing ' || g, (ARRAY['red','green','blue'])[1 + g % 3]
       FROM generate_series(1, 95) g`,
    );
    const credentials = JSON.stringify({ username: 'bench', password: 'bench-password' });
    await fetch(`${backlot.url}/signup`, { method: 'POST', headers: json, body: credentials });
    const { secret } = (await (
      await fetch(`${backlot.url}/login`, { method: 'POST', headers: json, body: credentials })
    ).json()) as {
      secret: string;
    };
    const c = { name: 'backlot', server: backlot, url: backlot.url };
    await measure(ctx, 'things', 'GET /things (100 things, valid secret)', {
      ...c,
      request: { path: '/things', headers: { 'db-user-secret': secret } },
    });
    await measure(
      ctx,
      'things',
      'POST /login',
      { ...c, request: { method: 'POST', path: '/login', headers: json, body: credentials } },
      `password hash: ${passwordHashCost}`,
    );
  } finally {
    await db.close();
    await backlot.stop();
  }
}

async function reads(ctx: BenchContext) {
  const url = await freshDatabase(ctx, 'bench_reads');
  const backlot = await startBacklot(launch(ctx), ['employees', 'machines', 'content'], {
    ...benchEnv,
    DATABASE_URL: url,
  });
  try {
    const bearer = { authorization: `Bearer ${machinesToken}`, ...json };
    for (let i = 0; i < 3; i++) {
      await fetch(`${backlot.urls.machines}/v2/machines`, {
        method: 'POST',
        headers: bearer,
        body: JSON.stringify({
          name: `web-${i}`,
          region: 'nyc3',
          size: 's-1vcpu-1gb',
          image: 'ubuntu-24-04-x64',
        }),
      });
    }
    const target = (id: string) => ({ name: 'backlot', server: backlot, url: backlot.urls[id] });
    const note = 'compare with posts GET /posts/1 (the cost of the database path)';
    await measure(
      ctx,
      'database',
      'employees GET /api/2/employees/1',
      { ...target('employees'), request: { path: '/api/2/employees/1' } },
      note,
    );
    await measure(
      ctx,
      'database',
      'machines GET /v2/machines?page=1&per_page=20',
      {
        ...target('machines'),
        request: { path: '/v2/machines?page=1&per_page=20', headers: bearer },
      },
      note,
    );
    await measure(
      ctx,
      'database',
      'content GET /wp-json/wp/v2/posts?per_page=10',
      {
        ...target('content'),
        request: { path: '/wp-json/wp/v2/posts?per_page=10' },
      },
      note,
    );
  } finally {
    await backlot.stop();
  }
}

/** Inserts `n` copies of the first row of `table`, with the given columns replaced by SQL expressions of `g`. */
async function cloneRows(url: string, table: string, n: number, overrides: Record<string, string>) {
  const db = await openPostgres({ url, source: 'bench' }, 1);
  try {
    const [schema, name] = table.split('.');
    const { rows } = await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name <> 'id'
       ORDER BY ordinal_position`,
      [schema, name],
    );
    const columns = rows.map((r) => r.column_name);
    const values = columns.map((c) => overrides[c] ?? `t.${c}`);
    await db.query(
      `INSERT INTO ${table} (${columns.join(', ')})
       SELECT ${values.join(', ')} FROM (SELECT * FROM ${table} ORDER BY id LIMIT 1) t, generate_series(1, ${n}) g`,
    );
  } finally {
    await db.close();
  }
}

/**
 * Gives the cloned posts terms as a site's have them: every third post the first category, every tenth the first
 * tag; then fresh statistics, as autovacuum would give them some time after a bulk insert (stale ones flip plans).
 */
async function tagGrownPosts(url: string) {
  const db = await openPostgres({ url, source: 'bench' }, 1);
  try {
    await db.exec(`
      INSERT INTO content.post_terms (post_id, term_id)
        SELECT p.id, t.id FROM content.posts p,
          (SELECT min(id) AS id FROM content.terms WHERE taxonomy = 'category') t
        WHERE p.id > 30 AND p.id % 3 = 0;
      INSERT INTO content.post_terms (post_id, term_id)
        SELECT p.id, t.id FROM content.posts p,
          (SELECT min(id) AS id FROM content.terms WHERE taxonomy = 'post_tag') t
        WHERE p.id > 30 AND p.id % 10 = 0;
      ANALYZE;`);
  } finally {
    await db.close();
  }
}

/** Single-item reads and first pages at growing row counts: a single-item read must not slow > 2× from 1k to 100k. */
async function growth(ctx: BenchContext) {
  const sizes = ctx.smoke ? [100] : [1000, 10_000, 100_000];
  for (const size of sizes) {
    const url = await freshDatabase(ctx, `bench_growth_${size}`);
    const listDir = mkdtempSync(path.join(tmpdir(), 'bench-growth-'));
    const listFile = path.join(listDir, 'list.json');
    writeFileSync(
      listFile,
      JSON.stringify({
        list: Array.from({ length: size }, (_, i) => ({ id: i + 1, item: `item ${i + 1}` })),
      }),
    );
    let backlot = await startBacklot(launch(ctx), ['employees', 'machines', 'content', 'list'], {
      ...benchEnv,
      DATABASE_URL: url,
      LIST_FILE: listFile,
      LIST_DELAY_MS: '0',
    });
    const bearer = { authorization: `Bearer ${machinesToken}` };
    await fetch(`${backlot.urls.machines}/v2/machines`, {
      method: 'POST',
      headers: { ...bearer, ...json },
      body: JSON.stringify({ name: 'seed', region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64' }),
    });
    await cloneRows(url, 'employees.employees', size - 24, { name: `'Bench ' || g`, age: '20 + g % 40' });
    await cloneRows(url, 'machines.machines', size - 1, {
      name: `'bench-' || g`,
      tags: `CASE WHEN g % 10 = 0 THEN ARRAY['bench'] ELSE ARRAY[]::text[] END`,
    });
    await cloneRows(url, 'content.posts', size - 30, {
      title: `'Bench post ' || g`,
      slug: `'bench-post-' || g`,
      // Dates spread over the years, as a real site's are; every fifth a draft.
      date: `timestamptz '2020-01-01' + g * interval '1 hour'`,
      status: `CASE WHEN g % 5 = 0 THEN 'draft' ELSE 'publish' END`,
    });
    await tagGrownPosts(url);
    await backlot.stop();
    // Restarted so every figure starts from the same warm-up, with statistics on the grown tables.
    backlot = await startBacklot(launch(ctx), ['employees', 'machines', 'content', 'list'], {
      ...benchEnv,
      DATABASE_URL: url,
      LIST_FILE: listFile,
      LIST_DELAY_MS: '0',
    });
    const middle = Math.floor(size / 2);
    const machineId = Number(
      (
        (await (
          await fetch(`${backlot.urls.machines}/v2/machines?per_page=1&page=${middle}`, { headers: bearer })
        ).json()) as {
          machines: { id: number }[];
        }
      ).machines[0]?.id,
    );
    const admin = { authorization: `Basic ${Buffer.from(`admin:${contentAppPassword}`).toString('base64')}` };
    const tags = (await (
      await fetch(`${backlot.urls.content}/wp-json/wp/v2/tags?orderby=id&per_page=1`)
    ).json()) as {
      id: number;
    }[];
    const firstTag = tags[0]?.id ?? 0;
    const at = (id: string, request: { path: string; headers?: Record<string, string> }) => ({
      name: 'backlot',
      server: backlot,
      url: backlot.urls[id],
      request,
    });
    const scenarios: Array<[string, ReturnType<typeof at>]> = [
      ['employees single read', at('employees', { path: `/api/2/employees/${middle}` })],
      ['machines single read', at('machines', { path: `/v2/machines/${machineId}`, headers: bearer })],
      ['content single read', at('content', { path: `/wp-json/wp/v2/posts/${middle}` })],
      ['list single read', at('list', { path: `/list/${middle}` })],
      [
        'machines first page, tag filter',
        at('machines', { path: '/v2/machines?tag_name=bench&page=1&per_page=20', headers: bearer }),
      ],
      ['machines first page', at('machines', { path: '/v2/machines?page=1&per_page=20', headers: bearer })],
      ['content first page', at('content', { path: '/wp-json/wp/v2/posts?per_page=10&page=1' })],
      ['content first page, _embed', at('content', { path: '/wp-json/wp/v2/posts?per_page=10&_embed=1' })],
      ['content first page, author', at('content', { path: '/wp-json/wp/v2/posts?per_page=10&author=1' })],
      [
        'content first page, category',
        at('content', { path: '/wp-json/wp/v2/posts?per_page=10&categories=1' }),
      ],
      [
        'content first page, tag',
        at('content', { path: `/wp-json/wp/v2/posts?per_page=10&tags=${firstTag}` }),
      ],
      [
        'content first page, status=draft',
        at('content', { path: '/wp-json/wp/v2/posts?per_page=10&status=draft', headers: admin }),
      ],
      ['employees full list', at('employees', { path: '/api/2/employees' })],
      ['list first page', at('list', { path: '/list?_page=1&_limit=20' })],
    ];
    // One 5 s run per point: the trend across sizes is what matters here.
    const runs = { repeats: 1, durationSeconds: Math.min(ctx.settings.durationSeconds, 5) };
    for (const [name, target] of scenarios) {
      await measure(ctx, 'growth', `${name} @ ${size} rows`, target, undefined, runs);
    }
    await backlot.stop();
  }
}

export const databaseGroups: Record<string, BenchGroup> = {
  things,
  database: reads,
  growth,
};
