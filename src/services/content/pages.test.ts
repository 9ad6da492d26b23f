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
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, authorization?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: authorization ? { authorization } : {} });
const idsOf = (res: { json(): Json }) => res.json().map((p: Json) => p.id);

describe('pages', () => {
  test('the seeded published pages, newest first, with page fields and none of a post’s', async () => {
    const res = await get(`${api}/pages`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(idsOf(res), [33, 32, 31]);
    assert.equal(res.headers['x-wp-total'], '3');
    const team = json(res)[1];
    assert.equal(team.type, 'page');
    assert.equal(team.parent, 31);
    assert.equal(team.menu_order, 1);
    assert.equal(team.template, '');
    assert.equal(team.guid.rendered, 'http://localhost:80/?page_id=32');
    assert.equal(team.excerpt.rendered, '<p>The team page. It is seeded on every first start.</p>\n');
    for (const key of ['categories', 'tags', 'sticky', 'format']) assert.equal(key in team, false, key);
    assert.equal(team._links.up[0].href, 'http://localhost:80/wp-json/wp/v2/pages/31');
  });

  test('parameters a post type does not register are ignored (issue 37)', async () => {
    for (const query of [
      'categories=2',
      'tags=6',
      'categories_exclude=2',
      'tags_exclude=6',
      'sticky=true',
      'categories[]=2',
    ]) {
      const res = await get(`${api}/pages?${query}`);
      assert.equal(res.statusCode, 200, query);
      assert.deepEqual(idsOf(res), [33, 32, 31], query);
    }
    const all = idsOf(await get(`${api}/posts?per_page=100`));
    for (const query of ['parent=0', 'parent=1', 'parent_exclude=0', 'menu_order=1', 'parent=1,2']) {
      const res = await get(`${api}/posts?per_page=100&${query}`);
      assert.equal(res.statusCode, 200, query);
      assert.deepEqual(idsOf(res), all, query);
    }
  });

  test('hierarchy filters and menu_order ordering', async () => {
    assert.deepEqual(idsOf(await get(`${api}/pages?parent=31`)), [32]);
    assert.deepEqual(idsOf(await get(`${api}/pages?parent=0`)), [33, 31]);
    assert.deepEqual(idsOf(await get(`${api}/pages?parent_exclude=31`)), [33, 31]);
    assert.deepEqual(idsOf(await get(`${api}/pages?orderby=menu_order&order=asc`)), [31, 32, 33]);
    assert.deepEqual(idsOf(await get(`${api}/pages?menu_order=2`)), [33]);
  });

  test('pages and posts are apart: a page id is not a post and the reverse', async () => {
    assert.equal(json(await get(`${api}/posts/31`)).code, 'rest_post_invalid_id');
    assert.equal((await get(`${api}/pages/1`)).statusCode, 404);
    assert.equal((await get(`${api}/pages/34`)).statusCode, 401);
    assert.equal((await get(`${api}/pages/34`, t.auth.editor)).statusCode, 200);
  });

  test('_embed brings the parent page as `up` and the author', async () => {
    const team = json(await get(`${api}/pages/32?_embed`));
    assert.equal(team._embedded.up[0].id, 31);
    assert.equal(team._embedded.author[0].id, ids.editor);
    assert.equal('wp:term' in team._embedded, false);
  });

  test('editors create pages with parent, menu_order and any template; authors may not', async () => {
    const created = await send('POST', `${api}/pages`, t.auth.editor, {
      title: 'Jobs',
      content: 'Come work with us.',
      status: 'publish',
      parent: 31,
      menu_order: 5,
      template: 'templates/full-width.php',
    });
    assert.equal(created.statusCode, 201);
    const page = json(created);
    assert.equal(created.headers.location, `http://localhost:80/wp-json/wp/v2/pages/${page.id}`);
    assert.deepEqual(
      [page.parent, page.menu_order, page.template, page.status],
      [31, 5, 'templates/full-width.php', 'publish'],
    );
    assert.deepEqual(idsOf(await get(`${api}/pages?parent=31&orderby=menu_order&order=asc`)), [32, page.id]);

    const refused = await send('POST', `${api}/pages`, t.auth.author, { title: 'Mine' });
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(json(refused), {
      code: 'rest_cannot_create',
      message: 'Sorry, you are not allowed to create posts as this user.',
      data: { status: 403 },
    });
    // Core checks only that the parent exists: a post may be a page's parent, an unknown id may not.
    const underPost = await send('POST', `${api}/pages`, t.auth.editor, { title: 'Under a post', parent: 1 });
    assert.equal(underPost.statusCode, 201);
    assert.equal(json(underPost).parent, 1);
    const badParent = await send('POST', `${api}/pages`, t.auth.editor, { title: 'Orphan', parent: 999 });
    assert.equal(badParent.statusCode, 400);
    assert.equal(json(badParent).code, 'rest_post_invalid_id');
    const moved = await send('PUT', `${api}/pages/${page.id}`, t.auth.admin, { parent: 0, menu_order: '3' });
    assert.deepEqual([json(moved).parent, json(moved).menu_order], [0, 3]);
    const trashed = await send('DELETE', `${api}/pages/${page.id}`, t.auth.editor);
    assert.equal(json(trashed).status, 'trash');
  });

  test('page without per_page pages by 10', async () => {
    const res = await get(`${api}/pages?page=1`);
    assert.equal(res.headers['x-wp-totalpages'], '1');
    assert.equal((await get(`${api}/pages?page=2`)).statusCode, 400);
  });
});

describe('embed context and orderings core refuses', () => {
  test('context=embed answers the short form', async () => {
    const [page] = json(await get(`${api}/pages?context=embed&per_page=1`));
    assert.deepEqual(Object.keys(page).sort(), [
      '_links',
      'author',
      'date',
      'excerpt',
      'featured_media',
      'id',
      'link',
      'slug',
      'title',
      'type',
    ]);
    const post = json(await get(`${api}/posts/1?context=embed`));
    assert.equal(post.excerpt.rendered.startsWith('<p>'), true);
    assert.equal('content' in post, false);
  });

  test('orderby=relevance needs search and orderby=include needs include', async () => {
    assert.equal(json(await get(`${api}/posts?orderby=relevance`)).code, 'rest_no_search_term_defined');
    assert.equal(
      json(await get(`${api}/pages?orderby=include`)).code,
      'rest_orderby_include_missing_include',
    );
    assert.equal((await get(`${api}/posts?orderby=relevance&search=part`)).statusCode, 200);
  });

  test('slugs are unique within a type: a post may share a page’s slug', async () => {
    const published = { title: 'About', status: 'publish' };
    const post = json(await send('POST', `${api}/posts`, t.auth.admin, published));
    assert.equal(post.slug, 'about');
    const page = json(await send('POST', `${api}/pages`, t.auth.admin, published));
    assert.equal(page.slug, 'about-2');
  });
});
