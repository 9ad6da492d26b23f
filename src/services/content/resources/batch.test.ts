import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, type Json, json, startContent } from '../../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent({ listen: true, env: { BACKLOT_FAULT_HEADERS: '1', LOG_LEVEL: 'warn' } });
});
after(() => t.close());

const batch = (payload: unknown, auth: string | undefined = t.auth.admin) =>
  t.app.inject({
    method: 'POST',
    url: '/wp-json/batch/v1',
    payload: payload as object,
    headers: auth ? { authorization: auth } : {},
  });
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: t.auth.admin } });

// The types describe api-fetch's CommonJS build (default one level down); Node loads the ES one.
type ApiFetch = typeof import('@wordpress/api-fetch').default;
const apiFetch = (await import('@wordpress/api-fetch')).default as unknown as ApiFetch;

/**
 * @wordpress/core-data's createBatch default processor (not a dependency here), call for call: it reads maxItems
 * from the route's OPTIONS, then sends the requests with `require-all-validate`.
 */
async function editorBatch(requests: { path: string; method: string; data?: unknown }[]) {
  const preflight = await apiFetch<Json>({ path: '/batch/v1', method: 'OPTIONS' });
  const maxItems = preflight.endpoints[0].args.requests.maxItems;
  assert.equal(maxItems, 25);
  const answer = await apiFetch<Json>({
    path: '/batch/v1',
    method: 'POST',
    data: {
      validation: 'require-all-validate',
      requests: requests.map((r) => ({ path: r.path, body: r.data, method: r.method, headers: undefined })),
    },
  });
  if (answer.failed) return answer.responses.map((r: Json) => ({ error: r?.body }));
  return answer.responses.map((r: Json) =>
    r.status >= 200 && r.status < 300 ? { output: r.body } : { error: r.body },
  );
}

describe('/batch/v1 (WordPress 6.1)', () => {
  test('the block editor’s batch (api-fetch, require-all-validate) creates and updates, each stored', async () => {
    apiFetch.setFetchHandler(async (options: Json) => {
      const response = await fetch(`${t.url}/wp-json${options.path}`, {
        method: options.method ?? 'GET',
        headers: {
          authorization: t.auth.admin,
          ...(options.data !== undefined && { 'content-type': 'application/json' }),
        },
        body: options.data !== undefined ? JSON.stringify(options.data) : undefined,
      });
      const body = await response.json();
      if (!response.ok) throw body;
      return body;
    });
    const results = await editorBatch([
      { path: '/wp/v2/tags', method: 'POST', data: { name: 'From a batch' } },
      { path: '/wp/v2/posts/1', method: 'PUT', data: { title: 'Batched title' } },
      { path: '/wp/v2/categories/2', method: 'POST', data: { description: 'Batched' } },
    ]);
    assert.equal(results.length, 3);
    const tag = results[0].output;
    assert.equal(tag.name, 'From a batch');
    assert.deepEqual(results[1].output.title, { raw: 'Batched title', rendered: 'Batched title' });
    assert.equal(results[2].output.description, 'Batched');
    assert.equal(json(await get(`${api}/tags/${tag.id}`)).slug, 'from-a-batch');
    assert.equal(json(await get(`${api}/posts/1`)).title.rendered, 'Batched title');
  });

  test('require-all-validate: one invalid request and none runs; the failures, null for the others', async () => {
    const res = await batch({
      validation: 'require-all-validate',
      requests: [
        { path: '/wp/v2/tags', body: { name: 'Never made' } },
        { path: '/wp/v2/posts/1', method: 'PATCH', body: { status: 'nope' } },
        { path: '/wp/v2/media/1' },
        { path: 'wp/v2/tags' },
      ],
    });
    assert.equal(res.statusCode, 207);
    const message = 'status is not one of publish, future, draft, pending, and private.';
    assert.deepEqual(json(res), {
      failed: 'validation',
      responses: [
        null,
        {
          body: {
            code: 'rest_invalid_param',
            message: 'Invalid parameter(s): status',
            data: {
              status: 400,
              params: { status: message },
              details: { status: { code: 'rest_not_in_enum', message, data: null } },
            },
          },
          status: 400,
          headers: [],
        },
        {
          body: {
            code: 'rest_batch_not_allowed',
            message: 'The requested route does not support batch requests.',
            data: { status: 400 },
          },
          status: 400,
          headers: [],
        },
        {
          body: {
            code: 'rest_no_route',
            message: 'No route was found matching the URL and request method.',
            data: { status: 404 },
          },
          status: 404,
          headers: [],
        },
      ],
    });
    assert.deepEqual(json(await get(`${api}/tags?slug=never-made`)), []);
  });

  test('normal: each request answered as if alone, with its status and REST headers', async () => {
    const res = await batch({
      requests: [
        { path: '/wp/v2/Tags?_embed=1', body: { name: 'Normal one' } },
        { path: '/wp/v2/users', body: { username: 'nobody' } },
        { path: '/wp/v2/tags/999?force=true', method: 'DELETE' },
        { path: '/wp/v2/posts', method: 'PUT' },
      ],
    });
    assert.equal(res.statusCode, 207);
    assert.equal(res.headers.allow, 'POST');
    const [created, notAllowed, missing, noRoute] = json(res).responses;
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'Normal one');
    assert.equal(created.body._embedded, undefined);
    assert.deepEqual(created.headers, {
      Allow: 'GET, POST',
      Location: `${t.url}/wp-json/wp/v2/tags/${created.body.id}`.replace(
        t.url,
        created.body.link.split('/tag/')[0],
      ),
    });
    assert.deepEqual(notAllowed, {
      body: {
        code: 'rest_batch_not_allowed',
        message: 'The requested route does not support batch requests.',
        data: { status: 400 },
      },
      status: 400,
      headers: { Allow: 'GET, POST' },
    });
    assert.deepEqual([missing.status, missing.body.code, missing.headers], [404, 'rest_term_invalid', []]);
    assert.deepEqual([noRoute.status, noRoute.body.code, noRoute.headers], [404, 'rest_no_route', []]);
  });

  test('sub-requests act as the batch’s caller: anonymous ones are refused as anonymous', async () => {
    const res = await batch({ requests: [{ path: '/wp/v2/tags', body: { name: 'Anon' } }] }, '');
    assert.equal(res.statusCode, 207);
    assert.deepEqual(json(res).responses, [
      {
        body: {
          code: 'rest_cannot_create',
          message: 'Sorry, you are not allowed to create terms in this taxonomy.',
          data: { status: 401 },
        },
        status: 401,
        headers: { Allow: 'GET' },
      },
    ]);
    // A forged inner-request mark is just a header: the caller is still anonymous.
    const forged = await t.app.inject({
      method: 'POST',
      url: `${api}/tags`,
      payload: { name: 'Forged' },
      headers: { 'x-backlot-inner': 'guess', 'x-backlot-batch': 'guess' },
    });
    assert.equal(forged.statusCode, 401);
  });

  test('the batch’s own arguments are checked as core checks them', async () => {
    const invalid = (name: string, code: string, message: string) => ({
      code: 'rest_invalid_param',
      message: `Invalid parameter(s): ${name}`,
      data: { status: 400, params: { [name]: message }, details: { [name]: { code, message, data: null } } },
    });
    const cases: [unknown, Json][] = [
      [
        {},
        {
          code: 'rest_missing_callback_param',
          message: 'Missing parameter(s): requests',
          data: { status: 400, params: ['requests'] },
        },
      ],
      [
        { requests: [{ method: 'GET', path: '/wp/v2/posts' }] },
        invalid(
          'requests',
          'rest_not_in_enum',
          'requests[0][method] is not one of POST, PUT, PATCH, and DELETE.',
        ),
      ],
      [
        { requests: [{}] },
        invalid('requests', 'rest_property_required', 'path is a required property of requests[0].'),
      ],
      [
        { requests: Array.from({ length: 26 }, () => ({ path: '/x' })) },
        invalid('requests', 'rest_too_many_items', 'requests must contain at most 25 items.'),
      ],
      [
        { validation: 'require-all-valid', requests: [] },
        invalid(
          'validation',
          'rest_not_in_enum',
          'validation is not one of require-all-validate and normal.',
        ),
      ],
    ];
    for (const [payload, body] of cases) {
      const res = await batch(payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.deepEqual(json(res), body);
    }
    const empty = await batch({ requests: [] });
    assert.deepEqual([empty.statusCode, json(empty)], [207, { responses: [] }]);
    const get = await t.app.inject({ method: 'GET', url: '/wp-json/batch/v1' });
    assert.deepEqual([get.statusCode, json(get).code], [404, 'rest_no_route']);
  });

  test('the harness sees the batch once: one journal entry, one delay', async () => {
    const payload = JSON.stringify({
      requests: [
        { path: '/wp/v2/tags', body: { name: 'Journalled' } },
        { path: '/wp/v2/tags', body: { name: 'Journalled too' } },
      ],
    });
    const headers = { authorization: t.auth.admin, 'content-type': 'application/json' };
    const before = t.harness.journal.list().length;
    const began = performance.now();
    const res = await fetch(`${t.url}/wp-json/batch/v1`, {
      method: 'POST',
      headers: { ...headers, 'x-backlot-delay': '300' },
      body: payload,
    });
    const body = (await res.json()) as Json;
    const ms = performance.now() - began;
    assert.equal(res.status, 207);
    assert.deepEqual(
      body.responses.map((r: Json) => r.status),
      [201, 201],
    );
    assert.ok(ms >= 300 && ms < 900, `answered after ${ms} ms`);
    const added = t.harness.journal.list().slice(before);
    assert.deepEqual(
      added.map((entry) => [entry.method, entry.path, entry.status, entry.fault]),
      [['POST', '/wp-json/batch/v1', 207, 'delay 300 ms (header)']],
    );
  });
});
