import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { startTestService, type TestService } from '../../test/service.js';
import { defineService } from './service.js';

/** A tiny service that exercises what the app factory gives every real one. */
const demo = defineService({
  id: 'posts',
  title: 'demo',
  ports: { alone: 0, together: 0 },
  schema: 'demo',
  migrations: [],
  openapi: true,
  docsPath: '/docs',
  exposeHeaders: ['x-total-count'],
  settings: () => ({}),
  errorBody: ({ status, message }) => ({ problem: message, status }),
  start: async () => ({
    routes: async (app) => {
      app.post(
        '/echo',
        {
          schema: {
            body: Type.Object({ name: Type.String() }),
            response: { 200: Type.Object({ name: Type.String() }) },
          },
        },
        async (request) => request.body as { name: string },
      );
      app.get('/crash', async () => {
        throw new Error('secret internal detail at /srv/app.ts:12');
      });
    },
  }),
});

describe('app factory', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService(demo);
  });
  after(() => svc.close());

  test('health and readiness', async () => {
    const health = await svc.app.inject({ url: '/healthz' });
    assert.equal(health.statusCode, 200);
    assert.deepEqual(health.json(), { status: 'ok' });
    const ready = await svc.app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ready' });
  });

  test('readiness reports a database that cannot answer', async () => {
    const other = await startTestService(demo);
    await other.db.close();
    const ready = await other.app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().status, 'unavailable');
    await other.app.close();
  });

  test('every response carries a request id; a sane incoming one is kept', async () => {
    const given = await svc.app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    assert.equal(given.headers['x-request-id'], 'abc-123');
    const made = await svc.app.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(String(made.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  test('CORS echoes the Origin, allows credentials and exposes the service headers', async () => {
    const res = await svc.app.inject({ url: '/healthz', headers: { origin: 'https://app.example' } });
    assert.equal(res.headers['access-control-allow-origin'], 'https://app.example');
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.equal(res.headers['access-control-expose-headers'], 'x-request-id, x-total-count');
    const preflight = await svc.app.inject({
      method: 'OPTIONS',
      url: '/echo',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
  });

  test('errors use the service shape: validation 400, unknown route 404, bad JSON 400, too large 413', async () => {
    const invalid = await svc.app.inject({ method: 'POST', url: '/echo', payload: { name: 5 } });
    assert.equal(invalid.statusCode, 400);
    assert.deepEqual(invalid.json(), { problem: 'body/name must be string', status: 400 });
    const missing = await svc.app.inject({ url: '/nowhere' });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { problem: 'No route for GET /nowhere', status: 404 });
    const badJson = await svc.app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    assert.equal(badJson.statusCode, 400);
    assert.equal(badJson.json().status, 400);
    const huge = await svc.app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    assert.equal(huge.statusCode, 413);
    assert.equal(huge.json().status, 413);
  });

  test('a crash answers 500 with the request id and no internals', async () => {
    const res = await svc.app.inject({ url: '/crash', headers: { 'x-request-id': 'req-9' } });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { problem: 'Internal server error (request id req-9)', status: 500 });
    assert.doesNotMatch(res.body, /secret internal detail|\.ts:/);
  });

  test('OpenAPI document and the interactive reference are served locally', async () => {
    const spec = await svc.app.inject({ url: '/openapi.json' });
    assert.equal(spec.statusCode, 200);
    assert.equal(spec.json().openapi, '3.0.3');
    assert.ok(spec.json().paths['/echo'].post);
    const page = await svc.app.inject({ url: '/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    // Every script and stylesheet the page names is served by the service itself (works offline).
    const assets = [...page.body.matchAll(/(?:src|href)="\.?\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    assert.ok(assets.length >= 2, `expected local assets in ${page.body}`);
    for (const asset of assets) {
      assert.doesNotMatch(asset, /^https?:/);
      const res = await svc.app.inject({ url: `/docs/${asset.replace(/^docs\//, '')}` });
      assert.equal(res.statusCode, 200, asset);
    }
  });
});
