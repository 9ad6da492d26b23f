import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

type Method = 'GET' | 'HEAD' | 'POST' | 'OPTIONS' | 'DELETE';
const send = (method: Method, url: string, headers: Record<string, string> = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });
const index = '<http://localhost:80/wp-json/>; rel="https://api.w.org/"';

describe('REST transport headers', () => {
  test('every answer carries core’s headers; logged-in callers also get the no-cache ones', async () => {
    const anonymous = await send('GET', `${api}/categories`);
    assert.equal(anonymous.headers['x-robots-tag'], 'noindex');
    assert.equal(anonymous.headers['x-content-type-options'], 'nosniff');
    assert.equal(
      anonymous.headers['access-control-allow-headers'],
      'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
    );
    assert.equal(anonymous.headers['cache-control'], undefined);
    const loggedIn = await send('GET', `${api}/categories`, { authorization: t.auth.editor });
    assert.equal(loggedIn.headers['cache-control'], 'no-cache, must-revalidate, max-age=0');
    assert.equal(loggedIn.headers.expires, 'Wed, 11 Jan 1984 05:00:00 GMT');
    const cors = await send('GET', `${api}/categories`, { origin: 'http://localhost:3000' });
    assert.equal(cors.headers['access-control-allow-methods'], 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
  });

  test('Allow lists the methods the caller may use on the matched route', async () => {
    assert.equal((await send('GET', `${api}/categories/2`)).headers.allow, 'GET');
    const editor = await send('GET', `${api}/categories/2`, { authorization: t.auth.editor });
    assert.equal(editor.headers.allow, 'GET, POST, PUT, PATCH, DELETE');
    assert.equal(
      (await send('GET', `${api}/tags`, { authorization: t.auth.contributor })).headers.allow,
      'GET, POST',
    );
    assert.equal((await send('GET', `${api}/users`)).headers.allow, 'GET');
    assert.equal(
      (await send('GET', `${api}/users`, { authorization: t.auth.admin })).headers.allow,
      'GET, POST',
    );
    const self = await send('GET', `${api}/users/3`, { authorization: t.auth.author });
    assert.equal(self.headers.allow, 'GET, POST, PUT, PATCH');
    // None on answers refused by a permission check or for a missing item, as core.
    assert.equal((await send('GET', `${api}/posts?context=edit`)).headers.allow, undefined);
    assert.equal((await send('GET', `${api}/users/999`)).headers.allow, undefined);
    assert.equal((await send('GET', `${api}/categories/999`)).headers.allow, undefined);
  });
});

describe('pages, media, comments and revisions in the transport', () => {
  const allow = async (path: string, who?: keyof ContentTest['auth']) =>
    (await send('GET', `${api}${path}`, who ? { authorization: t.auth[who] } : {})).headers.allow;

  test('Allow follows core’s permissions on each of them', async () => {
    const all = 'GET, POST, PUT, PATCH, DELETE';
    assert.equal(await allow('/pages'), 'GET');
    assert.equal(await allow('/pages', 'author'), 'GET'); // edit_pages: editors and administrators
    assert.equal(await allow('/pages', 'editor'), 'GET, POST');
    assert.equal(await allow('/pages/31', 'author'), 'GET');
    assert.equal(await allow('/pages/31', 'editor'), all);
    assert.equal(await allow('/media', 'contributor'), 'GET'); // upload_files: authors and up
    assert.equal(await allow('/media', 'author'), 'GET, POST');
    assert.equal(await allow('/comments'), 'GET'); // anonymous comments are off
    // A list's default status=approve refuses POST to anyone who may not moderate comments, as core.
    assert.equal(await allow('/comments', 'subscriber'), 'GET');
    assert.equal(await allow('/comments/1', 'subscriber'), 'GET');
    assert.equal(await allow('/comments/1', 'editor'), all);
    assert.equal(await allow('/posts/1/revisions'), undefined);
    assert.equal(await allow('/posts/1/revisions', 'editor'), 'GET');
    assert.equal(await allow('/pages/31/revisions', 'author'), undefined);
  });

  test('the index lists their routes, and OPTIONS describes each with its schema', async () => {
    const routes = json(await send('GET', '/wp-json/')).routes;
    for (const route of [
      '/wp/v2/pages',
      '/wp/v2/pages/(?P<id>[\\d]+)',
      '/wp/v2/media',
      '/wp/v2/media/(?P<id>[\\d]+)',
      '/wp/v2/comments',
      '/wp/v2/comments/(?P<id>[\\d]+)',
      '/wp/v2/posts/(?P<parent>[\\d]+)/revisions',
      '/wp/v2/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)',
    ])
      assert.ok(routes[route], route);
    assert.deepEqual(routes['/wp/v2/pages'].methods, ['GET', 'POST']);
    assert.ok(routes['/wp/v2/pages'].endpoints[0].args.parent);
    assert.ok(routes['/wp/v2/posts'].endpoints[0].args.tax_relation);
    assert.ok(routes['/wp/v2/media'].endpoints[0].args.media_type);
    const titles: Record<string, string> = {
      '/pages/31': 'page',
      '/media': 'attachment',
      '/comments/1': 'comment',
      '/posts/1/revisions': 'post-revision',
      '/pages/31/revisions/1': 'page-revision',
    };
    for (const [path, title] of Object.entries(titles)) {
      const res = await send('OPTIONS', `${api}${path}`, { authorization: t.auth.editor });
      assert.equal(res.statusCode, 200, path);
      assert.equal(json(res).schema.title, title, path);
    }
    const page = json(await send('OPTIONS', `${api}/pages`));
    assert.equal(page.schema.properties.menu_order.type, 'integer');
    assert.equal(json(await send('OPTIONS', `${api}/media`)).schema.properties.source_url.type, 'string');
  });
});

describe('OPTIONS', () => {
  test('answers 200 with the route’s namespace, methods, endpoints and schema, and Allow', async () => {
    const res = await send('OPTIONS', `${api}/categories/2`, { authorization: t.auth.editor });
    assert.equal(res.statusCode, 200);
    const body = json(res);
    assert.equal(body.namespace, 'wp/v2');
    assert.deepEqual(body.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    assert.equal(body.endpoints.length, 3);
    assert.equal(body.schema.title, 'category');
    assert.equal(body.schema.$schema, 'http://json-schema.org/draft-04/schema#');
    assert.equal(body.schema.properties.parent.type, 'integer');
    assert.equal(res.headers.allow, 'GET, POST, PUT, PATCH, DELETE');
    const anonymous = await send('OPTIONS', `${api}/users`);
    assert.equal(anonymous.headers.allow, 'GET');
    assert.equal(json(anonymous).schema.title, 'user');
    const preflight = await send('OPTIONS', `${api}/posts`, {
      origin: 'http://localhost:3000',
      'access-control-request-method': 'POST',
    });
    assert.equal(preflight.statusCode, 200);
    assert.equal(preflight.headers['access-control-allow-origin'], 'http://localhost:3000');
    assert.equal(json(preflight).schema.title, 'post');
    const unknown = await send('OPTIONS', '/wp-json/wp/v2/nothing');
    assert.equal(unknown.statusCode, 200);
    assert.deepEqual(json(unknown), []);
  });
});

describe('routing', () => {
  test('routes match case-insensitively, as core’s regexes use the i flag', async () => {
    const res = await send('GET', '/wp-json/WP/V2/Categories/2?_fields=id');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res), { id: 2 });
    assert.equal((await send('GET', '/wp-json/wp/v2/nothing')).statusCode, 404);
  });

  test('?rest_route= on / and /index.php is served like the pretty path', async () => {
    const pretty = await send('GET', `${api}/posts?per_page=2`);
    const plain = await send('GET', '/?rest_route=/wp/v2/posts&per_page=2');
    assert.equal(plain.statusCode, 200);
    assert.deepEqual(json(plain), json(pretty));
    assert.equal(plain.headers['x-wp-total'], pretty.headers['x-wp-total']);
    const indexPhp = await send('GET', '/index.php?rest_route=/wp/v2/categories/2');
    assert.equal(json(indexPhp).slug, 'news');
    const write = await send(
      'POST',
      '/?rest_route=/wp/v2/tags',
      { authorization: t.auth.editor },
      { name: 'Plain' },
    );
    assert.equal(write.statusCode, 201);
    assert.equal(json(write).slug, 'plain');
    assert.equal((await send('GET', '/?rest_route=/wp/v2/nothing')).statusCode, 404);
  });

  test('HEAD / and GET / carry the api.w.org Link', async () => {
    const head = await send('HEAD', '/');
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers.link, index);
    const home = await send('GET', '/');
    assert.match(String(home.headers['content-type']), /^text\/html/);
    assert.match(home.body, /Backlot Sample Site/);
  });
});

describe('rewrites happen before routing, once', () => {
  test('_method and X-HTTP-Method-Override turn a POST into that method, _method first', async () => {
    const viaQuery = await send(
      'POST',
      `${api}/tags/6?_method=PUT`,
      { authorization: t.auth.editor },
      {
        description: 'By _method',
      },
    );
    assert.equal(viaQuery.statusCode, 200);
    assert.equal(json(viaQuery).description, 'By _method');
    // As core: _method wins over the header.
    const both = await send(
      'POST',
      `${api}/tags/6?_method=GET&_fields=description`,
      { authorization: t.auth.editor, 'x-http-method-override': 'DELETE' },
      {},
    );
    assert.equal(both.statusCode, 200);
    assert.deepEqual(json(both), { description: 'By _method' });
    // A GET is never re-methoded: a link must not delete.
    const get = await send('GET', `${api}/tags/6?_method=DELETE&_fields=id`, {
      authorization: t.auth.editor,
    });
    assert.deepEqual(json(get), { id: 6 });
  });

  test('a 300 ms X-Backlot-Delay on a cased path, ?rest_route= or an override is waited and journalled once', async () => {
    const service = await startContent({
      listen: true,
      env: { BACKLOT_FAULT_HEADERS: '1', LOG_LEVEL: 'warn' },
    });
    try {
      const cases: [string, string, Record<string, string>, number][] = [
        ['GET', '/wp-json/WP/V2/Categories/2?_fields=id', {}, 200],
        ['GET', '/?rest_route=/wp/v2/categories/2&_fields=id', {}, 200],
        ['POST', '/wp-json/wp/v2/categories/2?_fields=id', { 'x-http-method-override': 'GET' }, 200],
        ['POST', '/wp-json/wp/v2/posts/2?_method=DELETE', { authorization: service.auth.admin }, 200],
      ];
      for (const [method, path, headers, status] of cases) {
        // Warmed up first: a route's schemas compile on its first request.
        await (await fetch(service.url + path.replace('posts/2', 'posts/3'), { method, headers })).text();
        const before = service.harness.journal.list().length;
        const began = performance.now();
        const response = await fetch(service.url + path, {
          method,
          headers: { ...headers, 'x-backlot-delay': '300' },
        });
        await response.text();
        const ms = performance.now() - began;
        assert.equal(response.status, status, path);
        assert.ok(ms >= 300 && ms < 450, `${path}: answered after ${ms} ms`);
        const added = service.harness.journal.list().slice(before);
        assert.deepEqual(
          added.map((entry) => [entry.status, entry.fault]),
          [[status, 'delay 300 ms (header)']],
          path,
        );
      }
    } finally {
      await service.close();
    }
  });
});

describe('_envelope and _jsonp', () => {
  test('_envelope wraps body, status and the REST headers, answered with 200', async () => {
    const res = await send('GET', `${api}/categories/999?_envelope`);
    assert.equal(res.statusCode, 200);
    const body = json(res);
    assert.equal(body.status, 404);
    assert.equal(body.body.code, 'rest_term_invalid');
    const list = await send('GET', `${api}/tags?per_page=2&include=6,7,8&_envelope=1`);
    const wrapped = json(list);
    assert.equal(wrapped.status, 200);
    assert.equal(wrapped.body.length, 2);
    // Numbers, as core sets them; a bare parameter stays bare in the links (add_query_arg).
    assert.equal(wrapped.headers['X-WP-Total'], 3);
    assert.equal(wrapped.headers['X-WP-TotalPages'], 2);
    assert.equal(
      wrapped.headers.Link,
      '<http://localhost:80/wp-json/wp/v2/tags?per_page=2&include=6%2C7%2C8&_envelope=1&page=2>; rel="next"',
    );
    assert.equal(list.headers['x-wp-total'], undefined);
    assert.equal(list.headers.link, index);
  });

  test('_jsonp is recognised and refused on every route, before credentials, as core with JSONP disabled', async () => {
    const disabled = {
      code: 'rest_callback_disabled',
      message: 'JSONP support is disabled on this site.',
      data: { status: 400 },
    };
    for (const [url, headers] of [
      [`${api}/categories/2?_jsonp=handle.it`, {}],
      [`${api}/users/me?_jsonp=cb`, { authorization: t.auth.admin }],
      [`${api}/posts?_jsonp=alert(1)`, {}],
      [`${api}/posts?_jsonp`, {}],
      [`${api}/posts?_jsonp=cb&_envelope`, {}],
      [`${api}/nothing/here?_jsonp=cb`, {}],
      [`${api}/posts?_jsonp=cb`, { authorization: 'Basic d3Jvbmc6d3Jvbmc=' }],
      ['/?rest_route=/wp/v2/posts&_jsonp=cb', {}],
    ] as const) {
      const res = await send('GET', url, headers);
      assert.equal(res.statusCode, 400, url);
      assert.match(String(res.headers['content-type']), /^application\/json/, url);
      assert.deepEqual(json(res), disabled, url);
    }
    // _envelope alone still works, and other areas ignore the parameter.
    const envelope = await send('GET', `${api}/categories/2?_envelope`);
    assert.equal(json(envelope).status, 200);
    assert.equal(json(envelope).body.id, 2);
  });
});
