import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, basic, type ContentTest, type Json, json, startContent } from '../../../test/content.js';

// What route-discovery clients (wpapi, code generators) read from the index and OPTIONS: WordPress 6.1's own
// argument and schema shapes, with backlot's sentences.

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const site = 'http://localhost:80';
const send = (method: 'GET' | 'OPTIONS', url: string, authorization?: string) =>
  t.app.inject({ method, url, headers: authorization ? { authorization } : {} });
/** An argument or schema without its sentences: the part that is WordPress's own. */
const shape = (value: Json): Json =>
  Array.isArray(value)
    ? value.map(shape)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([key, v]) => !(key === 'description' && typeof v === 'string'))
            .map(([key, v]) => [key, shape(v)]),
        )
      : value;
const endpoint = (route: Json, method: string) =>
  route.endpoints.find((e: { methods: string[] }) => e.methods.includes(method));

describe('route descriptions in the index', () => {
  test('a post list takes WordPress’s arguments with their types, enums, defaults and formats', async () => {
    const index = json(await send('GET', '/wp-json/'));
    const list = endpoint(index.routes['/wp/v2/posts'], 'GET');
    assert.deepEqual(list.allow_batch, { v1: true });
    const { args } = list;
    // _fields, _embed, _envelope are global parameters in WordPress: no route lists them.
    assert.equal(args._fields, undefined);
    assert.equal(args._embed, undefined);
    assert.equal(args.status.description, 'Only items in these statuses.');
    assert.deepEqual(shape(args.status), {
      default: 'publish',
      type: 'array',
      items: {
        enum: [
          'publish',
          'future',
          'draft',
          'pending',
          'private',
          'trash',
          'auto-draft',
          'inherit',
          'request-pending',
          'request-confirmed',
          'request-failed',
          'request-completed',
          'any',
        ],
        type: 'string',
      },
      required: false,
    });
    assert.deepEqual(args.categories.type, ['object', 'array']);
    assert.deepEqual(args.categories.oneOf[0].type, 'array');
    assert.deepEqual(args.categories.oneOf[1].properties.include_children, {
      type: 'boolean',
      default: false,
    });
    assert.equal(args.after.format, 'date-time');
    assert.deepEqual(args.page, {
      description: 'Which page of results to answer, counting from 1.',
      type: 'integer',
      default: 1,
      minimum: 1,
      required: false,
    });
    assert.deepEqual(args.author.items, { type: 'integer' });
    assert.deepEqual(args.author.default, []);
    // The seed's rule: without per_page the whole list, so no default of 10 here (comments do page by 10).
    assert.deepEqual(args.per_page, {
      description: 'Absent: the full list.',
      type: 'integer',
      minimum: 1,
      maximum: 100,
      required: false,
    });
    assert.equal(endpoint(index.routes['/wp/v2/comments'], 'GET').args.per_page.default, 10);
    const create = endpoint(index.routes['/wp/v2/posts'], 'POST').args;
    assert.deepEqual(create.title.type, 'object');
    assert.deepEqual(Object.keys(create.title.properties), ['raw', 'rendered']);
    assert.deepEqual(create.date.type, ['string', 'null']);
    assert.equal(create.date.format, 'date-time');
    assert.deepEqual(create.meta.type, 'object');
  });

  test('every argument of every route has a sentence (backlot’s own)', async () => {
    const index = json(await send('GET', '/wp-json/'));
    for (const [route, description] of Object.entries(index.routes) as [string, Json][])
      for (const { methods, args } of description.endpoints)
        for (const [name, arg] of Object.entries(Array.isArray(args) ? {} : args) as [string, Json][])
          assert.equal(typeof arg.description, 'string', `${methods} ${route} ${name}`);
  });

  test('routes without arguments list `[]`, as WordPress’s empty PHP array', async () => {
    const index = json(await send('GET', '/wp-json/'));
    assert.deepEqual(endpoint(index.routes['/wp/v2/settings'], 'GET').args, []);
    assert.equal(endpoint(index.routes['/wp/v2/settings'], 'POST').args.title.type, 'string');
  });

  test('the index’s own routes describe `context` as WordPress does', async () => {
    const index = json(await send('GET', '/wp-json/'));
    // Backlot adds its own sentence; WordPress lists no type or enum for these two.
    assert.deepEqual(shape(index.routes['/'].endpoints), [
      { methods: ['GET'], args: { context: { default: 'view', required: false } } },
    ]);
    assert.equal(index.routes['/'].namespace, '');
    assert.deepEqual(shape(index.routes['/wp/v2'].endpoints[0].args.namespace), {
      default: 'wp/v2',
      required: false,
    });
  });

  test('methods are the ones backlot serves: every listed one is answered, none is rest_no_route', async () => {
    const index = json(await send('GET', '/wp-json/'));
    const sample = (route: string) =>
      route
        .replace(/\(\?P<user_id>\(\?:\[\\d\]\+\|me\)\)/, 'me')
        .replace(/\(\?P<(id|parent)>\[\\d\]\+\)/g, '1')
        .replace(/\(\?P<\w+>[^)]*\)/g, 'post');
    for (const [route, description] of Object.entries(index.routes) as [string, Json][]) {
      for (const method of description.methods as string[]) {
        const res = await t.app.inject({ method, url: `/wp-json${sample(route)}`, payload: {} });
        assert.notEqual(json(res)?.code, 'rest_no_route', `${method} ${route}`);
      }
    }
    // A backlot-only route keeps backlot's own description.
    assert.deepEqual(index.routes['/wp/v2/users/(?P<id>[\\d]+)/restore'].methods, ['POST']);
  });
});

describe('OPTIONS', () => {
  test('answers the route with its schema and, for a route without parameters, a self link', async () => {
    const res = await send('OPTIONS', `${api}/posts`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.allow, 'GET');
    const body = json(res);
    assert.deepEqual(Object.keys(body), ['namespace', 'methods', 'endpoints', 'schema', '_links']);
    assert.deepEqual(body._links, { self: [{ href: `${site}/wp-json/wp/v2/posts` }] });
    const { properties } = body.schema;
    assert.equal(properties.date.description, 'When the item was published, in the site’s time zone.');
    assert.equal(properties.title.properties.rendered.description, 'The title as HTML.');
    assert.deepEqual(properties.date.type, ['string', 'null']);
    assert.equal(properties.date.format, 'date-time');
    assert.deepEqual(properties.date.context, ['view', 'edit', 'embed']);
    assert.equal(properties.id.readonly, true);
    assert.deepEqual(properties.guid.properties.raw.context, ['edit']);
    assert.deepEqual(properties.status.enum, ['publish', 'future', 'draft', 'pending', 'private']);
    assert.equal(properties._links, undefined);
    assert.deepEqual(Object.keys(properties).slice(-3), ['template', 'categories', 'tags']);
    const item = json(await send('OPTIONS', `${api}/posts/1`));
    assert.equal(item._links, undefined);
  });

  test('the schema’s action links point at this site, with backlot’s titles', async () => {
    const { schema } = json(await send('OPTIONS', `${api}/posts`, t.auth.admin));
    const publish = schema.links.find((l: Json) => l.rel === 'https://api.w.org/action-publish');
    assert.deepEqual(publish, {
      rel: 'https://api.w.org/action-publish',
      title: 'Present when the caller may publish the post.',
      href: `${site}/wp-json/wp/v2/posts/{id}`,
      targetSchema: {
        type: 'object',
        properties: { status: { type: 'string', enum: ['publish', 'future'] } },
      },
    });
  });

  test('the namespace index has only its routes, and no site fields', async () => {
    const body = json(await send('GET', api));
    assert.deepEqual(Object.keys(body), ['namespace', 'routes', '_links']);
    assert.deepEqual(body._links, { up: [{ href: `${site}/wp-json/` }] });
  });
});

describe('DELETE /users/me, which the index lists as WordPress does', () => {
  const remove = (query: string, authorization?: string) =>
    t.app.inject({
      method: 'DELETE',
      url: `${api}/users/me${query}`,
      headers: authorization ? { authorization } : {},
    });

  test('needs a login and the right to delete users; force needs reassign', async () => {
    // Anonymous callers are user 0, which core's get_user refuses as an unknown user.
    const anonymous = await remove('?force=true&reassign=1');
    assert.equal(anonymous.statusCode, 404);
    assert.equal(json(anonymous).code, 'rest_user_invalid_id');
    const subscriber = await remove('?force=true&reassign=1', t.auth.subscriber);
    assert.equal(subscriber.statusCode, 403);
    assert.equal(json(subscriber).code, 'rest_user_cannot_delete');
    const noReassign = await remove('?force=true', t.auth.admin);
    assert.equal(noReassign.statusCode, 400);
    assert.equal(json(noReassign).code, 'rest_missing_callback_param');
    const allow = (authorization: string) =>
      t.app.inject({ url: `${api}/users/me`, headers: { authorization } }).then((r) => r.headers.allow);
    assert.equal(await allow(t.auth.admin), 'GET, POST, PUT, PATCH, DELETE');
    assert.equal(await allow(t.auth.subscriber), 'GET, POST, PUT, PATCH');
  });

  test('an administrator deletes themselves, their posts going to reassign', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `${api}/users`,
      headers: { authorization: t.auth.admin },
      payload: {
        username: 'leaving',
        email: 'leaving@example.com',
        password: 'secret-123',
        roles: ['administrator'],
      },
    });
    assert.equal(created.statusCode, 201);
    const { id } = json(created);
    const app = await t.app.inject({
      method: 'POST',
      url: `${api}/users/${id}/application-passwords`,
      headers: { authorization: t.auth.admin },
      payload: { name: 'last day' },
    });
    const leaving = basic('leaving', json(app).password);
    const res = await remove('?force=true&reassign=1', leaving);
    assert.equal(res.statusCode, 200);
    const body = json(res);
    assert.equal(body.deleted, true);
    assert.equal(body.previous.id, id);
    assert.equal(body.previous.username, 'leaving');
    const gone = await t.app.inject({ url: `${api}/users/${id}`, headers: { authorization: t.auth.admin } });
    assert.equal(gone.statusCode, 404);
    assert.equal(json(gone).code, 'rest_user_invalid_id');
  });
});
