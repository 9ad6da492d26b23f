import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  api,
  type ContentTest,
  ids,
  type Json,
  json,
  published,
  startContent,
} from '../../../test/content.js';
import { createTestDatabase } from '../../../test/db.js';
import { startTestService } from '../../../test/service.js';
import { content } from './index.js';

// wpapi ships CommonJS without types.
const WPAPI = createRequire(import.meta.url)('wpapi');

let t: ContentTest;
before(async () => {
  t = await startContent({ listen: true });
});
after(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('discovery', () => {
  test('GET /wp-json/ describes the site, its namespaces, authentication and routes', async () => {
    const res = await get('/wp-json/');
    assert.equal(res.statusCode, 200);
    const index = json(res);
    assert.equal(index.name, 'Backlot Sample Site');
    assert.equal(index.description, 'Just another backlot site');
    assert.equal(index.url, 'http://localhost:80');
    assert.equal(index.home, 'http://localhost:80');
    assert.equal(index.gmt_offset, 0);
    assert.equal(index.timezone_string, 'UTC');
    assert.deepEqual(index.namespaces, ['wp/v2']);
    assert.ok('application-passwords' in index.authentication);
    assert.deepEqual(index.routes['/wp/v2/posts/(?P<id>[\\d]+)'].methods, [
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
    ]);
    assert.deepEqual(index.routes['/wp/v2/posts']._links, {
      self: [{ href: 'http://localhost:80/wp-json/wp/v2/posts' }],
    });
    const listArgs = index.routes['/wp/v2/posts'].endpoints[0].args;
    assert.deepEqual(listArgs.per_page, {
      description: 'Absent: the full list.',
      type: 'integer',
      minimum: 1,
      maximum: 100,
      required: false,
    });
    assert.deepEqual(listArgs.order, {
      description: 'Sort ascending (asc) or descending (desc).',
      type: 'string',
      default: 'desc',
      enum: ['asc', 'desc'],
      required: false,
    });
    assert.deepEqual(index.routes['/wp/v2/users/(?P<id>[\\d]+)'].endpoints[2].args.reassign.type, 'integer');
    assert.equal(res.headers.link, '<http://localhost:80/wp-json/>; rel="https://api.w.org/"');
  });

  test('GET /wp-json/wp/v2 is the namespace index: its routes, no site metadata (as WordPress)', async () => {
    const index = json(await get('/wp-json/wp/v2'));
    assert.deepEqual(Object.keys(index), ['namespace', 'routes', '_links']);
    assert.equal(index.namespace, 'wp/v2');
    assert.ok(index.routes['/wp/v2/categories']);
    assert.equal(index.routes['/'], undefined);
  });

  test('unknown routes and methods are 404 rest_no_route', async () => {
    for (const [method, url] of [
      ['GET', '/wp-json/wp/v2/no-such-things'],
      ['PUT', `${api}/posts`],
      ['PATCH', `${api}/tags`],
      ['DELETE', `${api}/categories`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { authorization: t.auth.admin } });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.deepEqual(json(res), {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    }
  });

  test('broken JSON, unsupported bodies and oversized bodies get WordPress-shaped 4xx', async () => {
    const headers = { authorization: t.auth.admin, 'content-type': 'application/json' };
    const broken = await t.app.inject({
      method: 'POST',
      url: `${api}/posts/1`,
      headers,
      payload: '{"title":',
    });
    assert.equal(broken.statusCode, 400);
    assert.deepEqual(json(broken), {
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400 },
    });
    const xml = await t.app.inject({
      method: 'POST',
      url: `${api}/posts/1`,
      headers: { ...headers, 'content-type': 'application/xml' },
      payload: '<title/>',
    });
    assert.equal(xml.statusCode, 415);
    assert.equal(json(xml).code, 'rest_unsupported_media_type');
    const huge = await t.app.inject({
      method: 'POST',
      url: `${api}/posts/1`,
      headers,
      payload: JSON.stringify({ content: 'x'.repeat(2 * 1024 * 1024) }),
    });
    assert.equal(huge.statusCode, 413);
    assert.equal(json(huge).code, 'rest_request_too_large');
  });

  test('form-encoded writes work like JSON ones', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/posts/2`,
      headers: { authorization: t.auth.admin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'title=From+a+form',
    });
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).title.raw, 'From a form');
  });

  test('browsers may read the paging headers (CORS)', async () => {
    const res = await get(`${api}/posts?per_page=2`, { origin: 'http://localhost:5173' });
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.match(
      String(res.headers['access-control-expose-headers']),
      /x-wp-total, x-wp-totalpages, link, allow/,
    );
  });

  test('the OpenAPI document lists the routes', async () => {
    const doc = json(await get('/openapi.json'));
    assert.ok(doc.paths['/wp-json/wp/v2/posts']);
    assert.ok(doc.paths['/me/settings']);
  });
});

describe('categories and tags', () => {
  test('categories list with published counts and WordPress fields', async () => {
    const res = await get(`${api}/categories`);
    assert.equal(res.statusCode, 200);
    const categories = json(res);
    assert.deepEqual(
      categories.map((c: Json) => c.slug),
      ['announcements', 'news', 'reviews', 'tutorials', 'uncategorized'],
    );
    assert.equal(res.headers['x-wp-total'], '5');
    const news = categories.find((c: Json) => c.slug === 'news');
    assert.deepEqual(Object.keys(news), [
      'id',
      'count',
      'description',
      'link',
      'name',
      'slug',
      'taxonomy',
      'parent',
      'meta',
      '_links',
    ]);
    assert.equal(news.taxonomy, 'category');
    const counted = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM content.post_terms pt JOIN content.posts p ON p.id = pt.post_id
       WHERE pt.term_id = $1 AND p.status = 'publish'`,
      [news.id],
    );
    assert.equal(news.count, counted.rows[0]?.n);
  });

  test('creating terms: editors may, authors may not, a name is required and must be new', async () => {
    const post = (url: string, authorization: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: { authorization }, payload });
    const missing = await post(`${api}/categories`, t.auth.editor, { description: 'no name' });
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(json(missing), {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): name',
      data: { status: 400, params: ['name'] },
    });
    const author = await post(`${api}/categories`, t.auth.author, { name: 'Opinions' });
    assert.equal(author.statusCode, 403);
    assert.deepEqual(json(author), {
      code: 'rest_cannot_create',
      message: 'Sorry, you are not allowed to create terms in this taxonomy.',
      data: { status: 403 },
    });
    const created = await post(`${api}/categories`, t.auth.editor, { name: 'Opinions', parent: 2 });
    assert.equal(created.statusCode, 201);
    assert.equal(json(created).slug, 'opinions');
    assert.equal(json(created).parent, 2);
    assert.equal(json(created).count, 0);
    assert.equal(
      created.headers.location,
      `http://localhost:80/wp-json/wp/v2/categories/${json(created).id}`,
    );
    const tag = await post(`${api}/tags`, t.auth.admin, { name: 'Node.js' });
    assert.equal(json(tag).slug, 'node-js');
    const duplicate = await post(`${api}/categories`, t.auth.editor, { name: 'opinions', parent: 2 });
    assert.equal(duplicate.statusCode, 400);
    assert.equal(json(duplicate).code, 'term_exists');
    assert.equal(json(duplicate).data.term_id, json(created).id);
    await t.db.query('DELETE FROM content.terms WHERE slug IN ($1, $2)', ['opinions', 'node-js']);
  });

  test('tags paginate, filter by post and read one by id', async () => {
    const page = await get(`${api}/tags?per_page=3&page=2&orderby=id`);
    assert.deepEqual(
      json(page).map((tag: Json) => tag.slug),
      ['testing', 'performance', 'security'],
    );
    assert.equal(page.headers['x-wp-totalpages'], '3');
    const post = json(await get(`${api}/posts/1`));
    const forPost = json(await get(`${api}/tags?post=1`));
    assert.deepEqual(forPost.map((tag: Json) => tag.id).sort(), [...post.tags].sort());
    const one = await get(`${api}/tags/6`);
    assert.equal(json(one).slug, 'javascript');
    assert.equal(json(one).parent, undefined);
    const missing = await get(`${api}/categories/6`);
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(json(missing), {
      code: 'rest_term_invalid',
      message: 'Term does not exist.',
      data: { status: 404 },
    });
  });
});

describe('the wpapi client', () => {
  const client = () =>
    new WPAPI({ endpoint: `${t.url}/wp-json`, username: 'admin', password: t.adminPassword });

  test('reads posts with perPage and follows the paging links', async () => {
    const posts = await client().posts().perPage(5).get();
    assert.equal(posts.length, 5);
    assert.equal(posts._paging.total, published);
    assert.equal(posts._paging.totalPages, Math.ceil(published / 5));
    const next = await posts._paging.next.get();
    assert.equal(next.length, 5);
    assert.notEqual(next[0].id, posts[0].id);
  });

  test('updates a post (PUT)', async () => {
    const updated = await client().posts().id(5).update({ title: 'Updated by wpapi' });
    assert.equal(updated.title.raw, 'Updated by wpapi');
    assert.equal(json(await get(`${api}/posts/5`)).title.rendered, 'Updated by wpapi');
  });

  test('creates and updates users and terms, and deletes a tag', async () => {
    const wp = client();
    const user = await wp
      .users()
      .create({ username: 'viawpapi', email: 'viawpapi@example.com', password: 'pw' });
    assert.equal(user.username, 'viawpapi');
    const updated = await wp.users().id(user.id).update({ first_name: 'Via' });
    assert.equal(updated.first_name, 'Via');
    const tag = await wp.tags().create({ name: 'wpapi-made' });
    assert.equal(
      (await wp.tags().id(tag.id).update({ description: 'From wpapi' })).description,
      'From wpapi',
    );
    assert.equal((await wp.tags().id(tag.id).delete({ force: true })).deleted, true);
    assert.equal((await get(`${api}/tags/${tag.id}`)).statusCode, 404);
  });

  test('deletes a user with force and reassign (a JSON body)', async () => {
    const result = await client().users().id(ids.author).delete({ force: true, reassign: ids.admin });
    assert.equal(result.deleted, true);
    assert.equal(result.previous.username, 'author');
    const moved = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM content.posts WHERE author = $1 AND type = 'post'`,
      [ids.admin],
    );
    assert.equal(moved.rows[0]?.n, 8 + 7);
  });

  test('errors come back in the WordPress shape', async () => {
    await assert.rejects(client().posts().id(999).get(), (error: Json) => {
      assert.equal(error.code, 'rest_post_invalid_id');
      assert.equal(error.data.status, 404);
      return true;
    });
  });
});

describe('first start and restarts', () => {
  test('a restart shows the same admin password; a configured one is used instead of generating', async () => {
    const db = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-content-'));
    try {
      const first = await startTestService(content, { db, dataDir });
      await first.close();
      const second = await startTestService(content, { db, dataDir });
      await second.close();
      assert.equal(second.banner.length, 1);
      assert.deepEqual(second.banner, first.banner);
      const rows = await db.query(`SELECT 1 FROM content.credentials WHERE kind = 'app_password'`);
      assert.equal(rows.rows.length, 1);
      const configured = await startTestService(content, {
        db,
        env: { CONTENT_ADMIN_APP_PASSWORD: 'abcd EFGH ijkl MNOP qrst UVWX', CONTENT_SITE_NAME: 'My Site' },
      });
      try {
        assert.deepEqual(configured.banner, [
          'user "admin" signs in with the application password from CONTENT_ADMIN_APP_PASSWORD',
        ]);
        const me = await configured.app.inject({
          method: 'GET',
          url: `${api}/users/me`,
          headers: {
            authorization: `Basic ${Buffer.from('admin:abcdEFGHijklMNOPqrstUVWX').toString('base64')}`,
          },
        });
        assert.equal(me.statusCode, 200);
        assert.equal(json(await configured.app.inject({ method: 'GET', url: '/wp-json' })).name, 'My Site');
      } finally {
        await configured.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await db.close();
    }
  });

  test('a malformed CONTENT_ADMIN_APP_PASSWORD is a configuration error naming the variable', () => {
    assert.throws(
      () => content.settings({ CONTENT_ADMIN_APP_PASSWORD: 'short' }),
      /CONTENT_ADMIN_APP_PASSWORD: must be 24 letters or digits/,
    );
  });
});
