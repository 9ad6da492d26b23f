import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, type ContentTest, json, published, startContent } from '../../../test/content.js';
import { countingDatabase } from '../../../test/counting-db.js';
import { createTestDatabase } from '../../../test/db.js';
import type { Database } from '../../platform/database.js';

// X-WP-Total stays exact; a page that is not full needs no count, a full one reads the post counts' ledger when
// its filter has keys there (platform/list-counts.ts, platform/count-ledger.ts) and counts the rows otherwise.
let t: ContentTest;
let raw: Database;
let db: ReturnType<typeof countingDatabase>;
before(async () => {
  raw = await createTestDatabase();
  db = countingDatabase(raw);
  t = await startContent({ db });
});
after(async () => {
  await t.close();
  await raw.close();
});

/** The answer's total, how many counts of posts it took and how many reads of the ledger. */
async function listed(url: string) {
  const before = db.statements.length;
  const res = await t.app.inject({ method: 'GET', url });
  const sent = db.statements.slice(before);
  const counts = sent.filter((sql) => /count\(\*\)::int AS n FROM content\.posts/.test(sql)).length;
  const ledger = sent.filter((sql) => /AS entries FROM content\.post_counts/.test(sql)).length;
  return { res, total: res.headers['x-wp-total'], counts, ledger };
}

/** A published post written as another process would: straight into the database. */
async function insertElsewhere(category?: number) {
  const { rows } = await raw.query<{ id: number }>(
    `INSERT INTO content.posts (author, title, slug, status) VALUES (1, 'elsewhere', 'elsewhere', 'publish') RETURNING id`,
  );
  const id = (rows[0] as { id: number }).id;
  if (category) await raw.query('INSERT INTO content.post_terms VALUES ($1, $2)', [id, category]);
  return id;
}

test('a full first page reads its total from the ledger, which follows posts written by another process', async () => {
  const first = await listed(`${api}/posts?per_page=2`);
  assert.equal(first.res.statusCode, 200);
  assert.equal(first.total, String(published));
  assert.deepEqual([first.counts, first.ledger], [0, 1]);
  const id = await insertElsewhere();
  const grown = await listed(`${api}/posts?per_page=2`);
  assert.equal(grown.total, String(published + 1));
  await raw.query('DELETE FROM content.posts WHERE id = $1', [id]);
  const shrunk = await listed(`${api}/posts?per_page=2`);
  assert.equal(shrunk.total, String(published));
  assert.equal(shrunk.res.headers['x-wp-totalpages'], String(Math.ceil(published / 2)));
});

test('a filter the ledger has no keys for counts its rows; a term added elsewhere changes it', async () => {
  const category = 1;
  const url = `${api}/posts?per_page=1&categories=${category}`;
  const first = await listed(url);
  assert.deepEqual([first.counts, first.ledger], [1, 0]);
  const before = Number(first.total);
  assert.ok(before >= 1 && before < published, `${before} of ${published} published posts`);
  const id = await insertElsewhere();
  assert.equal((await listed(url)).total, String(before));
  await raw.query('INSERT INTO content.post_terms VALUES ($1, $2)', [id, category]);
  assert.equal((await listed(url)).total, String(before + 1));
  await raw.query('DELETE FROM content.posts WHERE id = $1', [id]);
});

test('posts created at once by 8 writers are all created (no writer waits on another for a total)', async () => {
  const auth = { authorization: t.auth.admin, 'content-type': 'application/json' };
  const writer = async (w: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${api}/posts`,
        headers: auth,
        payload: { title: `Writer ${w} post ${i}`, content: 'text', status: 'publish' },
      });
      statuses.push(res.statusCode);
    }
    return statuses;
  };
  const statuses = (await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)))).flat();
  assert.deepEqual([...new Set(statuses)], [201]);
  const made = await raw.query<{ id: number }>("SELECT id FROM content.posts WHERE title LIKE 'Writer %'");
  assert.equal(made.rows.length, 80);
  await raw.query("DELETE FROM content.posts WHERE title LIKE 'Writer %'");
});

test('a page that is not full ends the list: its total needs no count', async () => {
  const whole = await listed(`${api}/posts?per_page=100`);
  assert.equal(whole.total, String(published));
  assert.equal(json(whole.res).length, published);
  assert.equal(whole.counts, 0);
  const last = await listed(`${api}/posts?per_page=${published - 1}&page=2`);
  assert.equal(last.total, String(published));
  assert.equal(json(last.res).length, 1);
  assert.equal(last.counts, 0);
  const none = await listed(`${api}/posts?per_page=5&search=no-such-words-anywhere`);
  assert.equal(none.total, '0');
  assert.equal(none.counts, 0);
});

test('a page past the end still reads its total, and answers rest_post_invalid_page_number', async () => {
  const past = await listed(`${api}/posts?per_page=10&page=999`);
  assert.equal(past.res.statusCode, 400);
  assert.equal(json(past.res).code, 'rest_post_invalid_page_number');
  assert.deepEqual([past.counts, past.ledger], [0, 1]);
});

test('author and status filters read the ledger; another condition counts the rows', async () => {
  const { rows } = await raw.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM content.posts WHERE type = 'post' AND status IN ('draft', 'publish') AND author IN (1, 2)`,
  );
  const authed = await t.app.inject({
    url: `${api}/posts?per_page=1&status=draft,publish&author=1,2`,
    headers: { authorization: t.auth.admin },
  });
  assert.equal(authed.headers['x-wp-total'], String(rows[0]?.n));
  assert.ok((rows[0]?.n ?? 0) > 1);
  const searched = await listed(`${api}/posts?per_page=1&author=1&search=e`);
  assert.deepEqual([searched.counts, searched.ledger], [1, 0]);
});

test('term counts are exact and follow posts written by another process', async () => {
  const embed = `${api}/posts?per_page=1&_embed=wp:term`;
  const [category] = json(await t.app.inject({ method: 'GET', url: embed }))[0]._embedded['wp:term'][0];
  const listedCount = async () =>
    json(await t.app.inject({ method: 'GET', url: `${api}/categories?include=${category.id}` }))[0].count;
  const { rows } = await raw.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM content.post_terms pt JOIN content.posts p ON p.id = pt.post_id
     WHERE pt.term_id = $1 AND p.status = 'publish'`,
    [category.id],
  );
  assert.equal(await listedCount(), rows[0]?.n);
  const id = await insertElsewhere(category.id);
  assert.equal(await listedCount(), (rows[0]?.n ?? 0) + 1);
  await raw.query('DELETE FROM content.posts WHERE id = $1', [id]);
  assert.equal(await listedCount(), rows[0]?.n);
});
