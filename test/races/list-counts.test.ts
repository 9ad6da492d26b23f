import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  auth as machinesAuth,
  startMachines,
  validCreate,
} from '../../src/services/machines/support.test.js';
import { api, type ContentTest, ids, json, startContent } from '../content.js';
import type { TestService } from '../service.js';

// List totals from the count ledgers (platform/count-ledger.ts) under concurrent writers (issue 42): no writer
// waits on another's count, so none deadlocks (a deadlock answers 500), and every total equals count(*) after.
// Run on PostgreSQL with `npx tsx test/with-services.ts -- node --import tsx --test test/races/list-counts.test.ts`.

let t: ContentTest;
let machines: TestService;
before(async () => {
  t = await startContent({ logLines: [] });
  machines = await startMachines({}, { logLines: [] });
});
after(async () => {
  await t.close();
  await machines.close();
});

let seed = 7;
const random = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};
const statuses = ['publish', 'draft', 'private', 'pending'];

/** Total and count(*) of the lists whose totals the ledger keeps, as the admin sees them. */
async function compareContent() {
  const lists: [string, string][] = [
    ['', `type = 'post' AND status = 'publish'`],
    ['&status=draft', `type = 'post' AND status = 'draft'`],
    ['&status=publish,private,pending', `type = 'post' AND status IN ('publish', 'private', 'pending')`],
    [`&author=${ids.editor}`, `type = 'post' AND status = 'publish' AND author = ${ids.editor}`],
    [
      `&author=${ids.admin},${ids.editor}&status=any`,
      `type = 'post' AND status <> 'trash' AND author IN (${ids.admin}, ${ids.editor})`,
    ],
    ['&status=trash', `type = 'post' AND status = 'trash'`],
  ];
  for (const [query, where] of lists) {
    const res = await t.app.inject({
      url: `${api}/posts?per_page=1${query}`,
      headers: { authorization: t.auth.admin },
    });
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM content.posts WHERE ${where}`,
    );
    assert.equal(res.headers['x-wp-total'], String(rows[0]?.n), `X-WP-Total of ?per_page=1${query}`);
  }
}

test('8 writers creating, changing status and author, trashing and deleting posts while listing: no 500, totals exact', async () => {
  const admin = { authorization: t.auth.admin };
  const answered: number[] = [];
  const writer = async (w: number) => {
    const mine: number[] = [];
    for (let i = 0; i < 16; i++) {
      const op = random(7);
      const id = mine.length ? mine[random(mine.length)] : undefined;
      let res: Awaited<ReturnType<typeof t.app.inject>>;
      if (op <= 1 || id === undefined) {
        res = await t.app.inject({
          method: 'POST',
          url: `${api}/posts`,
          headers: admin,
          payload: {
            title: `Race ${w}.${i}`,
            status: statuses[random(4)],
            author: random(2) ? ids.admin : ids.editor,
          },
        });
        if (res.statusCode === 201) mine.push(json(res).id);
      } else if (op === 2)
        res = await t.app.inject({
          method: 'POST',
          url: `${api}/posts/${id}`,
          headers: admin,
          payload: { status: statuses[random(4)], author: random(2) ? ids.admin : ids.editor },
        });
      else if (op === 3)
        res = await t.app.inject({ method: 'DELETE', url: `${api}/posts/${id}`, headers: admin });
      else if (op === 4) {
        res = await t.app.inject({ method: 'DELETE', url: `${api}/posts/${id}?force=true`, headers: admin });
        mine.splice(mine.indexOf(id), 1);
      } else
        res = await t.app.inject({
          url: `${api}/posts?per_page=2${op === 5 ? '' : '&status=draft,publish'}`,
          headers: admin,
        });
      answered.push(res.statusCode);
      assert.ok(res.statusCode < 500, `${res.statusCode} ${res.body}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
  assert.equal(answered.length, 128);
  await compareContent();
});

test('in one transaction a post written and the list total read together agree with count(*)', async () => {
  await t.db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO content.posts (author, title, status) VALUES (1, 'in a transaction', 'draft')`,
    );
    const { rows } = await tx.query<{ ledger: number; counted: number }>(
      `SELECT (SELECT sum(n)::int FROM content.post_counts WHERE key = 'post/draft') AS ledger,
              (SELECT count(*)::int FROM content.posts WHERE type = 'post' AND status = 'draft') AS counted`,
    );
    assert.equal(rows[0]?.ledger, rows[0]?.counted);
  });
  await compareContent();
});

test('machines created, tagged and destroyed by 8 writers at once: meta.total equals count(*)', async () => {
  const call = (method: string, url: string, payload?: unknown) =>
    machines.app.inject({
      method: method as 'GET',
      url,
      headers: machinesAuth(),
      payload: payload as object,
    });
  const writer = async (w: number) => {
    const mine: number[] = [];
    for (let i = 0; i < 10; i++) {
      const op = random(4);
      let res: Awaited<ReturnType<typeof call>>;
      if (op <= 1 || mine.length === 0) {
        res = await call('POST', '/v2/droplets', {
          ...validCreate,
          name: `race-${w}-${i}`,
          tags: random(2) ? ['race'] : ['race', 'other'],
        });
        if (res.statusCode === 202) mine.push(json(res).droplet.id);
      } else if (op === 2) {
        const id = mine.splice(random(mine.length), 1)[0];
        res = await call('DELETE', `/v2/droplets/${id}`);
      } else res = await call('GET', `/v2/droplets?per_page=1&tag_name=race`);
      assert.ok(res.statusCode < 500, `${res.statusCode} ${res.body}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
  for (const [query, where] of [
    ['', 'true'],
    ['&tag_name=race', `tags @> ARRAY['race']`],
    ['&tag_name=other', `tags @> ARRAY['other']`],
  ]) {
    const res = await call('GET', `/v2/droplets?per_page=1${query}`);
    assert.equal(res.statusCode, 200);
    const { rows } = await machines.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM machines.machines WHERE ${where}`,
    );
    assert.equal(json(res).meta.total, rows[0]?.n, `meta.total of ?per_page=1${query}`);
  }
});
