import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, ids, type Json, json, startContent } from '../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const get = (url: string, authorization?: string) =>
  t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
const update = (url: string, authorization: string, payload: object) =>
  t.app.inject({ method: 'POST', url, payload, headers: { authorization } });

describe('revisions', () => {
  test('each update that changes title, content or excerpt saves one; others do not', async () => {
    assert.deepEqual(json(await get(`${api}/posts/2/revisions`, t.auth.editor)), []);
    await update(`${api}/posts/2`, t.auth.editor, { title: 'Second title' });
    await update(`${api}/posts/2`, t.auth.editor, { comment_status: 'closed' });
    await update(`${api}/posts/2`, t.auth.admin, { content: 'New body' });
    const res = await get(`${api}/posts/2/revisions`, t.auth.editor);
    assert.equal(res.statusCode, 200);
    const revisions = json(res);
    assert.equal(revisions.length, 2);
    const [latest, first] = revisions;
    assert.deepEqual(
      [first.title.rendered, first.author, first.parent, first.slug],
      ['Second title', ids.editor, 2, '2-revision-v1'],
    );
    assert.deepEqual([latest.content.rendered, latest.author], ['<p>New body</p>\n', ids.admin]);
    assert.ok(latest.id > first.id);
    assert.equal(latest._links.parent[0].href, 'http://localhost:80/wp-json/wp/v2/posts/2');
    const post = json(await get(`${api}/posts/2`));
    assert.deepEqual(post._links['version-history'][0], {
      count: 2,
      href: 'http://localhost:80/wp-json/wp/v2/posts/2/revisions',
    });
    assert.equal(post._links['predecessor-version'][0].id, latest.id);
    const one = json(await get(`${api}/posts/2/revisions/${first.id}?context=edit`, t.auth.editor));
    assert.equal(one.title.raw, 'Second title');
    // Revisions are not posts of their own.
    assert.equal((await get(`${api}/posts/${first.id}`, t.auth.admin)).statusCode, 404);
    assert.deepEqual(
      json(await get(`${api}/posts/2/revisions?per_page=1&page=2`, t.auth.editor)).map((r: Json) => r.id),
      [first.id],
    );
  });

  test('only those who may edit the post read them; deleting needs force', async () => {
    await update(`${api}/posts/3`, t.auth.author, { title: 'Mine, revised' });
    const anonymous = await get(`${api}/posts/3/revisions`);
    assert.equal(anonymous.statusCode, 401);
    assert.equal(json(anonymous).code, 'rest_cannot_read');
    assert.equal((await get(`${api}/posts/3/revisions`, t.auth.contributor)).statusCode, 403);
    const [revision] = json(await get(`${api}/posts/3/revisions`, t.auth.author));
    assert.equal(
      json(await get(`${api}/posts/999/revisions`, t.auth.admin)).code,
      'rest_post_invalid_parent',
    );
    assert.equal(json(await get(`${api}/posts/3/revisions/999`, t.auth.admin)).code, 'rest_post_invalid_id');
    // WordPress 6.1 never deletes a revision through the route (issue 37), with force or without.
    for (const query of ['', '?force=true'])
      for (const [who, status] of [
        [t.auth.admin, 403],
        [t.auth.author, 403],
        [t.auth.contributor, 403],
      ] as const) {
        const refused = await t.app.inject({
          method: 'DELETE',
          url: `${api}/posts/3/revisions/${revision.id}${query}`,
          headers: { authorization: who },
        });
        assert.equal(refused.statusCode, status, query);
        assert.equal(json(refused).code, 'rest_cannot_delete');
      }
    const still = await get(`${api}/posts/3/revisions/${revision.id}`, t.auth.admin);
    assert.equal(still.statusCode, 200);
    assert.equal(still.headers.allow, 'GET');
    // One revision keeps its parent link under _fields, as core's revisions controller adds it regardless.
    const picked = json(await get(`${api}/posts/3/revisions/${revision.id}?_fields=id`, t.auth.admin));
    assert.deepEqual(Object.keys(picked), ['id', '_links']);
  });

  test('pages keep revisions too, and deleting a post deletes its revisions', async () => {
    await update(`${api}/pages/31`, t.auth.editor, { content: 'About us, rewritten' });
    const [revision] = json(await get(`${api}/pages/31/revisions`, t.auth.editor));
    assert.equal(revision.parent, 31);
    assert.equal(revision._links.parent[0].href, 'http://localhost:80/wp-json/wp/v2/pages/31');
    await update(`${api}/posts/5`, t.auth.admin, { title: 'To be deleted' });
    await t.app.inject({
      method: 'DELETE',
      url: `${api}/posts/5?force=true`,
      headers: { authorization: t.auth.admin },
    });
    const left = await t.db.query(`SELECT 1 FROM content.posts WHERE type = 'revision' AND parent = 5`);
    assert.equal(left.rows.length, 0);
  });
});

describe('revisions list arguments, as WordPress 6.1', () => {
  const list = (query: string) => get(`${api}/posts/4/revisions${query}`, t.auth.admin);
  const listed = async (query: string) => {
    const res = await list(query);
    assert.equal(res.statusCode, 200, res.body);
    return json(res).map((r: Json) => r.id) as number[];
  };
  let revs: number[] = [];
  before(async () => {
    await update(`${api}/posts/4`, t.auth.admin, { title: 'Alpha title' });
    await update(`${api}/posts/4`, t.auth.admin, { content: 'Words about zebras' });
    await update(`${api}/posts/4`, t.auth.admin, { title: 'Beta title', excerpt: 'Short' });
    revs = json(await list('')).map((r: Json) => r.id);
  });

  test('no per_page: every revision, newest first, one page; offset then moves nothing', async () => {
    assert.equal(revs.length, 3);
    assert.deepEqual(
      revs,
      [...revs].sort((a, b) => b - a),
    );
    const res = await list('');
    assert.deepEqual([res.headers['x-wp-total'], res.headers['x-wp-totalpages']], ['3', '1']);
    assert.deepEqual(await listed('?offset=1'), revs);
    assert.deepEqual(await listed('?order=asc'), [...revs].reverse());
  });

  test('per_page, page and offset page through; out of range is 400 with core’s codes', async () => {
    const second = await list('?per_page=2&page=2');
    assert.deepEqual(
      json(second).map((r: Json) => r.id),
      [revs[2]],
    );
    assert.deepEqual([second.headers['x-wp-total'], second.headers['x-wp-totalpages']], ['3', '2']);
    assert.match(String(second.headers.link), /page=1>; rel="prev"/);
    assert.deepEqual(await listed('?per_page=1&offset=1'), [revs[1]]);
    // An offset takes the place of page.
    assert.deepEqual(await listed('?per_page=1&page=3&offset=0'), [revs[0]]);
    const offset = await list('?offset=3');
    assert.equal(offset.statusCode, 400);
    assert.deepEqual(json(offset), {
      code: 'rest_revision_invalid_offset_number',
      message: 'The offset number requested is larger than or equal to the number of available revisions.',
      data: { status: 400 },
    });
    for (const query of ['?page=2', '?per_page=1&page=4']) {
      const page = await list(query);
      assert.equal(page.statusCode, 400, query);
      assert.equal(json(page).code, 'rest_revision_invalid_page_number');
    }
  });

  test('search, include, exclude and orderby filter and sort', async () => {
    const [beta, caching, alpha] = revs;
    assert.deepEqual(await listed('?search=zebras'), [beta, caching]);
    assert.deepEqual(await listed('?search=title%20-beta'), [caching, alpha]);
    assert.deepEqual(await listed(`?include=${alpha},${beta}`), [beta, alpha]);
    assert.deepEqual(await listed(`?exclude=${caching}`), [beta, alpha]);
    assert.deepEqual(await listed(`?include=${caching},${alpha},${beta}&orderby=include`), [
      caching,
      alpha,
      beta,
    ]);
    assert.deepEqual(await listed('?orderby=id&order=asc'), [alpha, caching, beta]);
    assert.deepEqual(await listed(`?orderby=title&order=asc&exclude=${caching}`), [alpha, beta]);
    assert.deepEqual(await listed('?search=beta&orderby=relevance'), [beta]);
  });

  test('bad combinations and values are 400', async () => {
    assert.equal(json(await list('?orderby=include')).code, 'rest_orderby_include_missing_include');
    assert.equal(json(await list('?orderby=relevance')).code, 'rest_no_search_term_defined');
    const bad = await list('?orderby=nope');
    assert.equal(bad.statusCode, 400);
    assert.equal(json(bad).code, 'rest_invalid_param');
    assert.ok(json(bad).data.params.orderby);
    assert.equal(json(await list('?include=abc')).data.params.include !== undefined, true);
  });
});
