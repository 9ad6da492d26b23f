import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  api,
  type ContentTest,
  ids,
  type Json,
  json,
  published,
  publishedPosts,
  startContent,
} from '../../../test/content.js';
import { seededPosts } from './seed.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const get = (url: string, authorization?: string) =>
  t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
const send = (
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  authorization?: string,
  payload?: object,
) => t.app.inject({ method, url, payload, headers: authorization ? { authorization } : {} });

describe('reading posts', () => {
  test('without per_page the full list of published posts comes back, newest first', async () => {
    const res = await get(`${api}/posts`);
    assert.equal(res.statusCode, 200);
    const posts = json(res);
    assert.equal(posts.length, published);
    assert.ok(posts.every((p: Json) => p.status === 'publish'));
    assert.equal(res.headers['x-wp-total'], String(published));
    assert.equal(res.headers['x-wp-totalpages'], '1');
    const dates = posts.map((p: Json) => p.date);
    assert.deepEqual(dates, [...dates].sort().reverse());
    assert.equal(res.headers.link, '<http://localhost:80/wp-json/>; rel="https://api.w.org/"');
  });

  test('per_page and page paginate with totals and prev/next links', async () => {
    const res = await get(`${api}/posts?per_page=5&page=2`);
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).length, 5);
    assert.equal(res.headers['x-wp-total'], String(published));
    assert.equal(res.headers['x-wp-totalpages'], String(Math.ceil(published / 5)));
    assert.equal(
      res.headers.link,
      '<http://localhost:80/wp-json/wp/v2/posts?per_page=5&page=1>; rel="prev", ' +
        '<http://localhost:80/wp-json/wp/v2/posts?per_page=5&page=3>; rel="next"',
    );
    const pages = Math.ceil(published / 5);
    const last = await get(`${api}/posts?per_page=5&page=${pages}`);
    assert.equal(json(last).length, published - (pages - 1) * 5);
    assert.doesNotMatch(String(last.headers.link), /rel="next"/);
  });

  test('a page past the end is a 400 rest_post_invalid_page_number', async () => {
    const res = await get(`${api}/posts?per_page=5&page=9`);
    assert.equal(res.statusCode, 400);
    assert.deepEqual(json(res), {
      code: 'rest_post_invalid_page_number',
      message: 'The page number requested is larger than the number of pages available.',
      data: { status: 400 },
    });
  });

  test('bad parameters are rest_invalid_param naming the parameter', async () => {
    for (const [query, param, message, code, label] of [
      [
        'per_page=0',
        'per_page',
        'per_page must be between 1 (inclusive) and 100 (inclusive)',
        'rest_out_of_bounds',
      ],
      [
        'per_page=101',
        'per_page',
        'per_page must be between 1 (inclusive) and 100 (inclusive)',
        'rest_out_of_bounds',
      ],
      ['page=abc', 'page', 'page is not of type integer.', 'rest_invalid_type'],
      ['order=sideways', 'order', 'order is not one of asc and desc.', 'rest_not_in_enum'],
      ['author=x', 'author', 'author[0] is not of type integer.', 'rest_invalid_type', 'author[0]'],
    ] as const) {
      const res = await get(`${api}/posts?${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.deepEqual(json(res), {
        code: 'rest_invalid_param',
        message: `Invalid parameter(s): ${param}`,
        data: {
          status: 400,
          params: { [param]: message },
          // core's type errors name the parameter; the others have no data
          details: {
            [param]: { code, message, data: code === 'rest_invalid_type' ? { param: label ?? param } : null },
          },
        },
      });
    }
  });

  test('filters: author, categories, tags, search, include, orderby and order', async () => {
    const byAuthor = json(await get(`${api}/posts?author=${ids.editor}`));
    const publishedBy = (...authors: number[]) =>
      publishedPosts.filter((post) => authors.includes(post.author)).length;
    assert.equal(byAuthor.length, publishedBy(ids.editor));
    assert.ok(byAuthor.every((p: Json) => p.author === ids.editor));
    const two = json(await get(`${api}/posts?author[]=${ids.admin}&author[]=${ids.author}`));
    assert.equal(two.length, publishedBy(ids.admin, ids.author));
    const comma = json(await get(`${api}/posts?author=${ids.admin},${ids.author}`));
    assert.equal(comma.length, publishedBy(ids.admin, ids.author));
    const news = json(await get(`${api}/posts?categories=2`));
    assert.ok(news.length > 0 && news.every((p: Json) => p.categories.includes(2)));
    const tagged = json(await get(`${api}/posts?tags=6`));
    assert.ok(tagged.length > 0 && tagged.every((p: Json) => p.tags.includes(6)));
    const found = json(await get(`${api}/posts?search=caching`));
    // Posts 4 and 24 share the topic but are a contributor's drafts.
    assert.deepEqual(
      found.map((p: Json) => p.id),
      [14],
    );
    const byTitle = json(await get(`${api}/posts?orderby=id&order=asc&include=3,1,2`));
    assert.deepEqual(
      byTitle.map((p: Json) => p.id),
      [1, 2, 3],
    );
  });

  test('a single post has WordPress fields and rendered HTML', async () => {
    const res = await get(`${api}/posts/1`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.allow, 'GET');
    const post = json(res);
    assert.deepEqual(Object.keys(post), [
      'id',
      'date',
      'date_gmt',
      'guid',
      'modified',
      'modified_gmt',
      'slug',
      'status',
      'type',
      'link',
      'title',
      'content',
      'excerpt',
      'author',
      'featured_media',
      'comment_status',
      'ping_status',
      'sticky',
      'template',
      'format',
      'meta',
      'categories',
      'tags',
      '_links',
    ]);
    assert.equal(post.id, 1);
    assert.equal(post.date, '2024-01-01T10:01:00');
    assert.equal(post.date_gmt, '2024-01-01T10:01:00');
    assert.deepEqual(post.guid, { rendered: 'http://localhost:80/?p=1' });
    assert.deepEqual(post.title, { rendered: 'Getting started with REST clients, part 1' });
    assert.equal(post.slug, 'getting-started-with-rest-clients-part-1');
    assert.equal(post.type, 'post');
    assert.equal(post.author, ids.admin);
    assert.equal(post.sticky, true);
    assert.equal(post.content.protected, false);
    assert.match(
      post.content.rendered,
      /^<p>This is post number 1: getting started with rest clients\.<\/p>\n<p>/,
    );
    assert.equal(post.content.raw, undefined);
    assert.match(post.excerpt.rendered, /^<p>This is post number 1/);
    assert.deepEqual(post.categories, [2]);
    assert.deepEqual(post._links.self, [{ href: 'http://localhost:80/wp-json/wp/v2/posts/1' }]);
    assert.deepEqual(post._links.author, [
      { embeddable: true, href: 'http://localhost:80/wp-json/wp/v2/users/1' },
    ]);
  });

  test('_fields limits the fields, nested ones too', async () => {
    const res = await get(`${api}/posts/1?_fields=id,title.rendered,slug`);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(json(res), {
      id: 1,
      title: { rendered: 'Getting started with REST clients, part 1' },
      slug: 'getting-started-with-rest-clients-part-1',
    });
  });

  test('_embed adds the author and the terms', async () => {
    const post = json(await get(`${api}/posts/1?_embed`));
    assert.equal(post._embedded.author[0].name, 'Ada Admin');
    assert.equal(post._embedded.author[0].email, undefined);
    assert.deepEqual(
      post._embedded['wp:term'].map((terms: Json[]) => terms.map((term) => term.id)),
      [post.categories, post.tags],
    );
    assert.equal(post._embedded['wp:term'][0][0].slug, 'news');
    const list = json(await get(`${api}/posts?per_page=3&_embed=1`));
    assert.ok(list.every((p: Json) => p._embedded.author[0].id === p.author));
    assert.equal(json(await get(`${api}/posts/1`))._embedded, undefined);
  });

  test('unknown, malformed and huge ids', async () => {
    const missing = await get(`${api}/posts/999`);
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(json(missing), {
      code: 'rest_post_invalid_id',
      message: 'Invalid post ID.',
      data: { status: 404 },
    });
    assert.equal((await get(`${api}/posts/99999999999999999999`)).statusCode, 404);
    const word = await get(`${api}/posts/abc`);
    assert.equal(word.statusCode, 404);
    assert.deepEqual(json(word), {
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method.',
      data: { status: 404 },
    });
  });

  test('drafts are hidden from anonymous callers: 401 when not logged in, 403 for a subscriber', async () => {
    const anonymous = await get(`${api}/posts/7`);
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(json(anonymous), {
      code: 'rest_forbidden',
      message: 'Sorry, you are not allowed to do that.',
      data: { status: 401 },
    });
    const subscriber = await get(`${api}/posts/7`, t.auth.subscriber);
    assert.equal(subscriber.statusCode, 403);
    assert.equal(json(subscriber).code, 'rest_forbidden');
    const owner = await get(`${api}/posts/7`, t.auth.author);
    assert.equal(owner.statusCode, 200);
    assert.equal(json(owner).status, 'draft');
    assert.equal(owner.headers.allow, 'GET, POST, PUT, PATCH, DELETE');
    assert.equal((await get(`${api}/posts/7`, t.auth.editor)).statusCode, 200);
  });

  test('status filters need edit rights (400 as core); contributors see only their own unpublished posts', async () => {
    const anonymous = await get(`${api}/posts?status=draft`);
    assert.equal(anonymous.statusCode, 400);
    assert.deepEqual(json(anonymous), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): status',
      data: {
        status: 400,
        params: { status: 'Status is forbidden.' },
        details: {
          status: { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: 401 } },
        },
      },
    });
    const subscriber = json(await get(`${api}/posts?status=draft`, t.auth.subscriber));
    assert.deepEqual(subscriber.data.details.status.data, { status: 403 });
    const mine = json(await get(`${api}/posts?status=draft,pending`, t.auth.contributor));
    assert.deepEqual(
      mine.map((p: Json) => p.id),
      seededPosts
        .filter((p) => p.author === ids.contributor && p.status !== 'publish')
        .map((p) => p.id)
        .reverse(),
    );
    const all = await get(`${api}/posts?status=any&per_page=100`, t.auth.editor);
    assert.equal(all.headers['x-wp-total'], String(seededPosts.length));
  });

  test('context=edit adds raw fields for editors and is refused to others', async () => {
    const edit = json(await get(`${api}/posts/1?context=edit`, t.auth.editor));
    assert.equal(edit.title.raw, 'Getting started with REST clients, part 1');
    assert.match(edit.content.raw, /^This is post number 1/);
    const anonymous = await get(`${api}/posts/1?context=edit`);
    assert.equal(anonymous.statusCode, 401);
    assert.equal(json(anonymous).code, 'rest_forbidden_context');
    assert.equal((await get(`${api}/posts?context=edit`, t.auth.subscriber)).statusCode, 403);
  });
});

describe('writing posts', () => {
  test('an update changes only the fields sent and answers in edit context', async () => {
    const before = json(await get(`${api}/posts/5?context=edit`, t.auth.admin));
    const res = await send('POST', `${api}/posts/5`, t.auth.admin, { title: 'Renamed', categories: [3, 4] });
    assert.equal(res.statusCode, 200);
    const post = json(res);
    assert.deepEqual(post.title, { raw: 'Renamed', rendered: 'Renamed' });
    // In name order, as WordPress lists a post's terms: Reviews (4), Tutorials (3).
    assert.deepEqual(post.categories, [4, 3]);
    assert.equal(post.content.raw, before.content.raw);
    assert.deepEqual(post.tags, before.tags);
    assert.equal(post.status, 'publish');
    const stored = await t.db.query<{ title: string }>('SELECT title FROM content.posts WHERE id = 5');
    assert.equal(stored.rows[0]?.title, 'Renamed');
  });

  test('PUT and PATCH update too; content may be given as {raw}', async () => {
    const put = await send('PUT', `${api}/posts/9`, t.auth.editor, {
      content: { raw: 'One.\n\nTwo.' },
      slug: 'Hello World!',
    });
    assert.equal(put.statusCode, 200);
    assert.equal(json(put).content.rendered, '<p>One.</p>\n<p>Two.</p>\n');
    assert.equal(json(put).slug, 'hello-world');
    const patch = await send('PATCH', `${api}/posts/9`, t.auth.editor, {
      excerpt: 'Short.',
      status: 'draft',
    });
    assert.equal(json(patch).excerpt.rendered, '<p>Short.</p>\n');
    assert.equal(json(patch).status, 'draft');
    const slugClash = await send('PATCH', `${api}/posts/13`, t.auth.editor, { slug: 'hello-world' });
    assert.equal(json(slugClash).slug, 'hello-world-2');
  });

  test('anonymous writes are 401 rest_cannot_edit; a subscriber gets 403', async () => {
    const anonymous = await send('POST', `${api}/posts/1`, undefined, { title: 'x' });
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(json(anonymous), {
      code: 'rest_cannot_edit',
      message: 'Sorry, you are not allowed to edit this post.',
      data: { status: 401 },
    });
    const subscriber = await send('POST', `${api}/posts/1`, t.auth.subscriber, { title: 'x' });
    assert.equal(subscriber.statusCode, 403);
    assert.equal(json(subscriber).code, 'rest_cannot_edit');
  });

  test('parameters are checked before permissions', async () => {
    const res = await send('POST', `${api}/posts/1`, undefined, { status: 'bogus' });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(json(res).data.params, {
      status: 'status is not one of publish, future, draft, pending, and private.',
    });
  });

  test('authors edit and publish their own posts but not others’', async () => {
    const own = await send('POST', `${api}/posts/19`, t.auth.author, { status: 'publish' });
    assert.equal(own.statusCode, 200);
    assert.equal(json(own).status, 'publish');
    const others = await send('POST', `${api}/posts/2`, t.auth.author, { title: 'mine now' });
    assert.equal(others.statusCode, 403);
    assert.equal(json(others).code, 'rest_cannot_edit');
    const asSomeoneElse = await send('POST', `${api}/posts/19`, t.auth.author, { author: ids.editor });
    assert.equal(asSomeoneElse.statusCode, 403);
    assert.equal(json(asSomeoneElse).code, 'rest_cannot_edit_others');
  });

  test('contributors edit their own drafts but cannot publish', async () => {
    const draft = await send('POST', `${api}/posts/4`, t.auth.contributor, { title: 'Better title' });
    assert.equal(draft.statusCode, 200);
    const publish = await send('POST', `${api}/posts/4`, t.auth.contributor, { status: 'publish' });
    assert.equal(publish.statusCode, 403);
    assert.deepEqual(json(publish), {
      code: 'rest_cannot_publish',
      message: 'Sorry, you are not allowed to publish posts in this post type.',
      data: { status: 403 },
    });
    const stored = await t.db.query<{ status: string }>('SELECT status FROM content.posts WHERE id = 4');
    assert.equal(stored.rows[0]?.status, 'draft');
    assert.equal((await send('POST', `${api}/posts/1`, t.auth.contributor, { title: 'x' })).statusCode, 403);
  });

  test('editors edit anyone’s posts; unknown terms and authors are refused', async () => {
    assert.equal((await send('POST', `${api}/posts/3`, t.auth.editor, { tags: [6, 7] })).statusCode, 200);
    const badTerm = await send('POST', `${api}/posts/3`, t.auth.editor, { categories: [999] });
    assert.equal(badTerm.statusCode, 400);
    assert.deepEqual(json(badTerm), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): categories',
      data: { status: 400, params: { categories: 'Invalid term ID.' } },
    });
    const badAuthor = await send('POST', `${api}/posts/3`, t.auth.admin, { author: 999 });
    assert.equal(badAuthor.statusCode, 400);
    assert.equal(json(badAuthor).code, 'rest_invalid_author');
  });

  test('creating a post: 201 with Location, a draft by default, refused to subscribers', async () => {
    const res = await send('POST', `${api}/posts`, t.auth.contributor, {
      title: 'Hello there',
      content: 'Body',
    });
    assert.equal(res.statusCode, 201);
    const post = json(res);
    assert.equal(res.headers.location, `http://localhost:80/wp-json/wp/v2/posts/${post.id}`);
    assert.equal(post.status, 'draft');
    assert.equal(post.author, ids.contributor);
    // A draft has no slug until it is published; edit context shows the one its title will give.
    assert.equal(post.slug, '');
    assert.equal(post.generated_slug, 'hello-there');
    assert.equal(post.permalink_template, 'http://localhost:80/%postname%/');
    assert.equal(post.link, `http://localhost:80/?p=${post.id}`);
    assert.equal(post.guid.raw, `http://localhost:80/?p=${post.id}`);
    assert.equal(post.content.block_version, 0);
    assert.deepEqual(post.meta, []);
    // What a contributor may do while editing: no publishing, stickies or other authors.
    assert.deepEqual(
      Object.keys(post._links).filter((rel) => rel.startsWith('wp:action-')),
      ['wp:action-assign-categories', 'wp:action-create-tags', 'wp:action-assign-tags'],
    );
    assert.deepEqual(post.categories, [1]);
    assert.equal(post.content.rendered, '<p>Body</p>\n');
    const subscriber = await send('POST', `${api}/posts`, t.auth.subscriber, { title: 'x' });
    assert.equal(subscriber.statusCode, 403);
    assert.deepEqual(json(subscriber), {
      code: 'rest_cannot_create',
      message: 'Sorry, you are not allowed to create posts as this user.',
      data: { status: 403 },
    });
    assert.equal((await send('POST', `${api}/posts`, undefined, { title: 'x' })).statusCode, 401);
    const empty = await send('POST', `${api}/posts`, t.auth.author);
    assert.equal(empty.statusCode, 400);
    assert.equal(json(empty).code, 'empty_content');
    // Core validates no title, content or excerpt: what is neither a string nor {raw} is ignored (issue 37).
    for (const body of [{ title: 42 }, { title: null, content: { rendered: 'x' } }, { excerpt: [1] }]) {
      const ignored = await send('POST', `${api}/posts`, t.auth.author, body);
      assert.equal(ignored.statusCode, 400, JSON.stringify(body));
      assert.equal(json(ignored).code, 'empty_content', JSON.stringify(body));
    }
    const numbered = await send('POST', `${api}/posts`, t.auth.author, { title: 42, content: { raw: 7 } });
    assert.equal(numbered.statusCode, 201);
    assert.deepEqual([json(numbered).title.raw, json(numbered).content.raw], ['', '7']);
    const published = await send('POST', `${api}/posts`, t.auth.contributor, {
      title: 'x',
      status: 'publish',
    });
    assert.equal(json(published).code, 'rest_cannot_publish');
  });

  test('delete moves to the trash; force=true deletes for good', async () => {
    const trash = await send('DELETE', `${api}/posts/17`, t.auth.admin);
    assert.equal(trash.statusCode, 200);
    assert.equal(json(trash).status, 'trash');
    assert.equal(json(trash).id, 17);
    assert.equal((await get(`${api}/posts/17`)).statusCode, 401);
    assert.ok(!json(await get(`${api}/posts`)).some((p: Json) => p.id === 17));
    const again = await send('DELETE', `${api}/posts/17`, t.auth.admin);
    assert.equal(again.statusCode, 410);
    assert.deepEqual(json(again), {
      code: 'rest_already_trashed',
      message: 'The post has already been deleted.',
      data: { status: 410 },
    });
    const restored = await send('POST', `${api}/posts/17`, t.auth.admin, { status: 'publish' });
    assert.equal(json(restored).status, 'publish');
    const forced = await send('DELETE', `${api}/posts/17?force=true`, t.auth.admin);
    assert.equal(forced.statusCode, 200);
    assert.equal(json(forced).deleted, true);
    assert.equal(json(forced).previous.id, 17);
    assert.equal(json(forced).previous.title.raw, 'Pagination done right, part 2');
    assert.equal((await get(`${api}/posts/17`)).statusCode, 404);
    const rows = await t.db.query('SELECT 1 FROM content.posts WHERE id = 17');
    assert.equal(rows.rows.length, 0);
  });

  test('force may come in a JSON body; delete permissions follow the roles', async () => {
    const contributor = await send('DELETE', `${api}/posts/21`, t.auth.contributor);
    assert.equal(contributor.statusCode, 403);
    assert.deepEqual(json(contributor), {
      code: 'rest_cannot_delete',
      message: 'Sorry, you are not allowed to delete this post.',
      data: { status: 403 },
    });
    assert.equal((await send('DELETE', `${api}/posts/21`)).statusCode, 401);
    const own = await send('DELETE', `${api}/posts/12`, t.auth.contributor, { force: true });
    assert.equal(own.statusCode, 200);
    assert.equal(json(own).deleted, true);
  });

  test('X-HTTP-Method-Override on POST runs the overriding method', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/posts/25`,
      headers: { authorization: t.auth.admin, 'x-http-method-override': 'DELETE' },
      payload: {},
    });
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).status, 'trash');
    const put = await t.app.inject({
      method: 'POST',
      url: `${api}/posts/25`,
      headers: { authorization: t.auth.admin, 'x-http-method-override': 'PUT' },
      payload: { status: 'publish', title: 'Back again' },
    });
    assert.equal(put.statusCode, 200);
    assert.equal(json(put).title.raw, 'Back again');
    assert.equal(put.headers.link, '<http://localhost:80/wp-json/>; rel="https://api.w.org/"');
    const noAuth = await t.app.inject({
      method: 'POST',
      url: `${api}/posts/25`,
      headers: { 'x-http-method-override': 'DELETE' },
    });
    assert.equal(noAuth.statusCode, 401);
    assert.equal(json(noAuth).code, 'rest_cannot_delete');
  });
});

describe('hostile input never reaches SQL as a 500', () => {
  test('a 200,000-character run of < is rendered, excerpted and slugged like any text', async () => {
    const run = '<'.repeat(200_000);
    const res = await send('POST', `${api}/posts`, t.auth.admin, { title: `Tag ${run}`, content: run });
    assert.equal(res.statusCode, 201);
    const post = json(res);
    assert.equal(post.generated_slug, 'tag');
    assert.equal(post.content.rendered, `<p>${run}</p>\n`);
    assert.equal(post.excerpt.rendered, `<p>${run}</p>\n`);
    const tagged = await send('POST', `${api}/posts/${post.id}`, t.auth.admin, {
      title: 'Hello <b>World</b>!',
      slug: '<em>Big</em> <news',
      content: 'Hello <b>big</b> world <i',
    });
    assert.equal(json(tagged).slug, 'big-news');
    assert.equal(json(tagged).content.rendered, '<p>Hello <b>big</b> world <i</p>\n');
    assert.equal(json(tagged).excerpt.rendered, '<p>Hello big world <i</p>\n');
  });

  test('out-of-range ids, pages and dates and NUL characters are 4xx', async () => {
    for (const url of [
      `${api}/posts?author=99999999999`,
      `${api}/posts?per_page=10&page=99999999999`,
      `${api}/posts?offset=1e30`,
      `${api}/posts?search=a%00b`,
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 400, url);
      assert.equal(json(res).code, 'rest_invalid_param', url);
    }
    const huge = await get(`${api}/posts?per_page=10&page=2147483647`);
    assert.equal(huge.statusCode, 400);
    assert.equal(json(huge).code, 'rest_post_invalid_page_number');
    const badDate = await send('POST', `${api}/posts/1`, t.auth.admin, { date: '2024-13-45T99:00:00' });
    assert.equal(badDate.statusCode, 400);
    assert.deepEqual(json(badDate).data.params, { date: 'Invalid date.' });
    const nul = await send('POST', `${api}/posts/1`, t.auth.admin, { title: 'a\u0000b' });
    assert.equal(nul.statusCode, 400);
    assert.deepEqual(json(nul).data.params, { title: 'title contains a NUL character.' });
    const date = await send('POST', `${api}/posts/1`, t.auth.admin, { date: '2023-05-06T07:08:09' });
    assert.equal(json(date).date, '2023-05-06T07:08:09');
  });
});
