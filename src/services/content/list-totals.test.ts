import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, type ContentTest, json, published, startContent } from '../../../test/content.js';
import { countingDatabase } from '../../../test/counting-db.js';
import { createTestDatabase } from '../../../test/db.js';
import type { Database } from '../../platform/database.js';

// X-WP-Total stays exact while lists are counted once per state of the posts (platform/list-counts.ts).
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

/** The answer's total and how many counts it took. */
async function listed(url: string) {
  const before = db.statements.length;
  const res = await t.app.inject({ method: 'GET', url });
  const counts = db.statements
    .slice(before)
    .filter((sql) => /count\(\*\)::int AS n FROM content\.posts/.test(sql));
  return { res, total: res.headers['x-wp-total'], counts: counts.length };
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

test('a full first page counts once, then answers from the remembered total until the posts change', async () => {
  const first = await listed(`${api}/posts?per_page=2`);
  assert.equal(first.res.statusCode, 200);
  assert.equal(first.total, String(published));
  assert.equal(first.counts, 1);
  const again = await listed(`${api}/posts?per_page=2`);
  assert.equal(again.total, String(published));
  assert.equal(again.counts, 0);
  assert.deepEqual(
    json(again.res).map((p: { id: number }) => p.id),
    json(first.res).map((p: { id: number }) => p.id),
  );
  const id = await insertElsewhere();
  const grown = await listed(`${api}/posts?per_page=2`);
  assert.equal(grown.total, String(published + 1));
  assert.equal(grown.counts, 1);
  await raw.query('DELETE FROM content.posts WHERE id = $1', [id]);
  const shrunk = await listed(`${api}/posts?per_page=2`);
  assert.equal(shrunk.total, String(published));
  assert.equal(shrunk.res.headers['x-wp-totalpages'], String(Math.ceil(published / 2)));
});

test('a filter keeps its own total, and a term added elsewhere changes it', async () => {
  const category = 1;
  const url = `${api}/posts?per_page=1&categories=${category}`;
  const first = await listed(url);
  const before = Number(first.total);
  assert.ok(before >= 1 && before < published, `${before} of ${published} published posts`);
  assert.equal((await listed(url)).counts, 0);
  const id = await insertElsewhere();
  const unchanged = await listed(url);
  assert.equal(unchanged.total, String(before));
  await raw.query('INSERT INTO content.post_terms VALUES ($1, $2)', [id, category]);
  const tagged = await listed(url);
  assert.equal(tagged.total, String(before + 1));
  assert.equal(tagged.counts, 1);
  await raw.query('DELETE FROM content.posts WHERE id = $1', [id]);
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

test('a page past the end still counts, and answers rest_post_invalid_page_number', async () => {
  const past = await listed(`${api}/posts?per_page=10&page=999`);
  assert.equal(past.res.statusCode, 400);
  assert.equal(json(past.res).code, 'rest_post_invalid_page_number');
  assert.equal(past.counts, 1);
});

test('the listed tables carry the version trigger; a restore-like rewrite changes the token', async () => {
  const token = async () =>
    (await raw.query<{ token: string }>('SELECT token FROM content.list_version')).rows[0]?.token;
  const before = await token();
  await raw.query('UPDATE content.posts SET title = title WHERE false');
  assert.notEqual(await token(), before);
  await raw.query('INSERT INTO content.list_version VALUES (1)');
  const two = await listed(`${api}/posts?per_page=2`);
  assert.equal(two.counts, 1, 'two rows (as after a restore): no token, so a count');
  assert.equal((await listed(`${api}/posts?per_page=2`)).counts, 1);
  const id = await insertElsewhere();
  const { rows } = await raw.query('SELECT token FROM content.list_version');
  assert.equal(rows.length, 1, 'the next write leaves one row');
  const after = await listed(`${api}/posts?per_page=2`);
  assert.equal(after.total, String(published + 1));
  await raw.query('DELETE FROM content.posts WHERE id = $1', [id]);
});

test('term counts are exact, and counted once per state of the posts (embeds list every term of each post)', async () => {
  const termCounts = (sql: string) => /FROM unnest\(\$1::int\[\]\) AS ids/.test(sql);
  const counting = async (url: string) => {
    const before = db.statements.length;
    const res = await t.app.inject({ method: 'GET', url });
    return { body: json(res), counted: db.statements.slice(before).filter(termCounts).length };
  };
  const embed = `${api}/posts?per_page=1&_embed=wp:term`;
  const [category] = (await counting(embed)).body[0]._embedded['wp:term'][0];
  assert.equal((await counting(embed)).counted, 0);
  const listed = async () => (await counting(`${api}/categories?include=${category.id}`)).body[0].count;
  const { rows } = await raw.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM content.post_terms pt JOIN content.posts p ON p.id = pt.post_id
     WHERE pt.term_id = $1 AND p.status = 'publish'`,
    [category.id],
  );
  assert.equal(await listed(), rows[0]?.n);
  const id = await insertElsewhere(category.id);
  assert.equal((await counting(embed)).counted, 1);
  assert.equal(await listed(), (rows[0]?.n ?? 0) + 1);
  await raw.query('DELETE FROM content.posts WHERE id = $1', [id]);
  assert.equal(await listed(), rows[0]?.n);
});
