/**
 * The plans of content's and machines' first pages at a given size (docs/benchmarks.md, "First pages as data
 * grows"): an in-memory PGlite with both schemas, grown as the growth group grows them, fresh statistics, then
 * each list through the services' own store code with every SELECT shown by EXPLAIN ANALYZE before it runs.
 *
 *   npx tsx bench/plans.ts [ROWS]     # default 100000
 */
import { openEmbedded, type Queryable } from '../src/platform/database.js';
import { migrate } from '../src/platform/migrations.js';
import { migrations as contentMigrations } from '../src/services/content/migrations.js';
import { ContentStore, type PostFilter } from '../src/services/content/store.js';
import { migrations as machinesMigrations } from '../src/services/machines/migrations.js';
import { listMachines } from '../src/services/machines/resources/droplets/store.js';

const rows = Number(process.argv[2] ?? 100_000);
const db = await openEmbedded();
await migrate(db, 'content', contentMigrations);
await migrate(db, 'machines', machinesMigrations);
await db.exec(`
  INSERT INTO content.posts (author, title, content, slug, status, date, modified)
    SELECT 1, 'Bench post ' || g, 'text', 'bench-post-' || g, CASE WHEN g % 5 = 0 THEN 'draft' ELSE 'publish' END,
      timestamptz '2020-01-01' + g * interval '1 hour', now()
    FROM generate_series(1, ${rows - 30}) g;
  INSERT INTO content.post_terms SELECT p.id, t.id FROM content.posts p,
    (SELECT min(id) AS id FROM content.terms WHERE taxonomy = 'category') t WHERE p.id > 30 AND p.id % 3 = 0;
  INSERT INTO content.post_terms SELECT p.id, t.id FROM content.posts p,
    (SELECT min(id) AS id FROM content.terms WHERE taxonomy = 'post_tag') t WHERE p.id > 30 AND p.id % 10 = 0;
  INSERT INTO machines.machines (name, region, size, image_id, tags, features, ipv6, vpc_uuid, created_at)
    SELECT 'bench-' || g, 'nyc3', 's-1vcpu-1gb', 1, CASE WHEN g % 10 = 0 THEN ARRAY['bench'] ELSE '{}' END, '{}',
      false, gen_random_uuid()::text, now()
    FROM generate_series(1, ${rows}) g;
  ANALYZE;`);
const { rows: terms } = await db.query<{ taxonomy: string; id: number }>(
  'SELECT taxonomy, min(id) AS id FROM content.terms GROUP BY taxonomy',
);
const term = (taxonomy: string) => terms.find((t) => t.taxonomy === taxonomy)?.id ?? 0;

/** Runs each statement, after printing its plan when it reads. */
const explaining: Queryable = {
  async query(sql, params) {
    if (/^\s*(SELECT|WITH)/i.test(sql)) {
      const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, params);
      const lines = plan.rows.map((r) => r['QUERY PLAN']);
      console.log(lines.filter((l) => !/^\s+(Sort Key|Output|Buffers):/.test(l)).join('\n'));
      console.log();
    }
    return db.query(sql, params);
  },
  exec: (sql) => db.exec(sql),
};

const base: PostFilter = {
  type: 'post',
  statuses: ['publish'],
  orderby: 'date',
  order: 'desc',
  limit: 10,
  offset: 0,
};
const cases: [string, PostFilter][] = [
  ['first page', base],
  ['author=1', { ...base, authors: [1] }],
  ['categories', { ...base, categories: [term('category')] }],
  ['tags', { ...base, tags: [term('post_tag')] }],
  ['status=draft', { ...base, statuses: ['draft'] }],
];
const store = new ContentStore(Object.assign(Object.create(db), explaining));
for (const [name, filter] of cases) {
  for (const pass of ['first request', 'again']) {
    console.log(`### content ${name} @ ${rows} rows, ${pass}\n`);
    const { total } = await store.listPosts(filter);
    console.log(`total ${total}\n`);
  }
}
for (const tag of [undefined, 'bench', 'bench']) {
  console.log(`### machines ${tag ? 'tag_name=bench' : 'first page'} @ ${rows} rows\n`);
  const { total } = await listMachines(explaining, { tag, limit: 20, offset: 0 });
  console.log(`total ${total}\n`);
}
await db.close();
