import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testClock } from '../clock.js';
import { api, type ContentTest, ids, json, startContent } from '../content.js';

// Requests that race on one process (issue 41, item 7): each answer is one WordPress gives, never a 500.

let t: ContentTest;
before(async () => {
  t = await startContent({ logLines: [] });
});
after(() => t.close());

test('a post updated while it is deleted: the update is 200 (before) or 404 rest_post_invalid_id (after)', async () => {
  const statuses: number[] = [];
  for (let round = 0; round < 20; round++) {
    const created = await t.app.inject({
      method: 'POST',
      url: `${api}/posts`,
      headers: { authorization: t.auth.admin },
      payload: { title: `race ${round}`, status: 'publish' },
    });
    assert.equal(created.statusCode, 201);
    const { id } = json(created);
    const updates = Array.from({ length: 4 }, (_, i) =>
      t.app.inject({
        method: 'POST',
        url: `${api}/posts/${id}`,
        headers: { authorization: t.auth.admin },
        payload: { title: `race ${round}.${i}`, content: 'changed' },
      }),
    );
    const removed = t.app.inject({
      method: 'DELETE',
      url: `${api}/posts/${id}?force=true`,
      headers: { authorization: t.auth.admin },
    });
    for (const res of await Promise.all(updates)) {
      statuses.push(res.statusCode);
      if (res.statusCode === 404)
        assert.deepEqual(json(res), {
          code: 'rest_post_invalid_id',
          message: 'Invalid post ID.',
          data: { status: 404 },
        });
      else assert.equal(res.statusCode, 200, res.body);
    }
    assert.equal((await removed).statusCode, 200);
    assert.equal((await t.app.inject({ url: `${api}/posts/${id}` })).statusCode, 404);
  }
  assert.ok(statuses.length === 80);
  // An update's revision is written with its post or not at all: none outlives the post it belongs to.
  const { rows } = await t.db.query<{ id: number; parent: number }>(
    `SELECT r.id, r.parent FROM content.posts r WHERE r.type = 'revision'
      AND NOT EXISTS (SELECT 1 FROM content.posts p WHERE p.id = r.parent)`,
  );
  assert.deepEqual(rows, []);
});

test('identical comments sent at once: one is stored, the others are 409 comment_duplicate', async () => {
  const sent = await Promise.all(
    Array.from({ length: 10 }, () =>
      t.app.inject({
        method: 'POST',
        url: `${api}/comments`,
        headers: { authorization: t.auth.admin },
        payload: { post: 1, content: 'Same words, sent ten times at once.' },
      }),
    ),
  );
  const statuses = sent.map((r) => r.statusCode).sort();
  assert.deepEqual(statuses, [201, ...Array(9).fill(409)]);
  for (const res of sent.filter((r) => r.statusCode === 409))
    assert.deepEqual(json(res), {
      code: 'comment_duplicate',
      message: 'Duplicate comment detected; it looks as though you’ve already said that!',
      data: { status: 409 },
    });
  const { rows } = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM content.comments WHERE content = 'Same words, sent ten times at once.'`,
  );
  assert.equal(rows[0].n, 1);
});

test('different comments from one author sent at once to two processes: one is stored, the others are 400 comment_flood', async () => {
  // Two processes on one database, reading one test clock: the flood window is the clock's, not the database's.
  const clock = testClock();
  const processes = [await startContent({ db: t.db, clock }), await startContent({ db: t.db, clock })];
  try {
    const sent = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        processes[i % 2].app.inject({
          method: 'POST',
          url: `${api}/comments`,
          headers: { authorization: processes[i % 2].auth.author },
          payload: { post: 1 + (i % 3), content: `Flood ${i}: a different comment each time.` },
        }),
      ),
    );
    const statuses = sent.map((r) => r.statusCode).sort();
    assert.deepEqual(statuses, [201, ...Array(9).fill(400)]);
    for (const res of sent.filter((r) => r.statusCode === 400))
      assert.deepEqual(json(res), {
        code: 'comment_flood',
        message: 'You are posting comments too quickly. Slow down.',
        data: { status: 400 },
      });
    const stored = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM content.comments WHERE author = $1 AND content LIKE 'Flood %'`,
      [ids.author],
    );
    assert.equal(stored.rows[0].n, 1);
    // 14 s on the clock is still a flood; at 15 s the author may comment again.
    const next = (process: ContentTest, content: string) =>
      process.app.inject({
        method: 'POST',
        url: `${api}/comments`,
        headers: { authorization: process.auth.author },
        payload: { post: 1, content },
      });
    clock.advance(14_000);
    assert.equal((await next(processes[1], 'Flood, 14 s later')).statusCode, 400);
    clock.advance(1_000);
    assert.equal((await next(processes[1], 'Flood, 15 s later')).statusCode, 201);
  } finally {
    await t.db.query(`DELETE FROM content.comments WHERE content LIKE 'Flood%'`);
    for (const process of processes) await process.close();
  }
});
