import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { startTestService, type TestService } from '../../test/service.js';
import { HttpError } from './errors.js';
import { strictValidatorCompiler } from './http.js';
import { defineService, type ErrorInfo } from './service.js';

const seen: ErrorInfo[] = [];

/** A service with no database whose errorBody shows what it was given. */
const demo = defineService({
  id: 'posts',
  title: 'errors demo',
  ports: { alone: 0, together: 0 },
  migrations: [],
  openapi: false,
  docsPath: '/',
  settings: () => ({}),
  errorBody: (info) => {
    seen.push(info);
    if (info.validationContext === 'params') return new HttpError(404, { gone: true }, { 'x-why': 'params' });
    return { problem: info.message };
  },
  start: async () => ({
    routes: async (app) => {
      const Name = Type.Object({ name: Type.String({ maxLength: 4 }), n: Type.Optional(Type.Integer()) });
      app.post('/loose', { schema: { body: Name } }, async () => ({ ok: true }));
      app.post(
        '/strict',
        { schema: { body: Name }, validatorCompiler: strictValidatorCompiler },
        async () => ({
          ok: true,
        }),
      );
      app.get('/items/:id', { schema: { params: Type.Object({ id: Type.Integer() }) } }, async () => ({}));
      app.get('/decided', async () => {
        throw new HttpError(418, { tea: 'no' }, { 'x-kind': 'decided' });
      });
    },
  }),
});

describe('one error path', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService(demo);
  });
  after(() => svc.close());

  const post = (url: string, payload: string) =>
    svc.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });

  test('an HttpError is sent as is, with its headers', async () => {
    const res = await svc.app.inject({ url: '/decided' });
    assert.equal(res.statusCode, 418);
    assert.deepEqual(res.json(), { tea: 'no' });
    assert.equal(res.headers['x-kind'], 'decided');
  });

  test('errorBody gets the validation failures and the route, and may answer with another status', async () => {
    seen.length = 0;
    const invalid = await post('/loose', '{"name": 5}');
    assert.equal(invalid.statusCode, 400);
    const info = seen.at(-1);
    assert.equal(info?.validationContext, 'body');
    assert.equal(info?.validation?.[0]?.instancePath, '/name');
    assert.equal(info?.route?.url, '/loose');
    assert.equal(info?.route?.method, 'POST');
    assert.ok((info?.route?.schema as { body?: unknown } | undefined)?.body);
    const gone = await svc.app.inject({ url: '/items/abc' });
    assert.equal(gone.statusCode, 404);
    assert.deepEqual(gone.json(), { gone: true });
    assert.equal(gone.headers['x-why'], 'params');
  });

  test('the strict validator counts UTF-16 code units and refuses 1e400; the default one does not', async () => {
    const emoji = JSON.stringify({ name: '😀😀😀' });
    assert.equal((await post('/loose', emoji)).statusCode, 200);
    assert.equal((await post('/strict', emoji)).statusCode, 400);
    assert.equal((await post('/loose', '{"name":"a","n":1e400}')).statusCode, 200);
    assert.equal((await post('/strict', '{"name":"a","n":1e400}')).statusCode, 400);
    assert.equal((await post('/strict', '{"name":"😀😀"}')).statusCode, 200);
  });
});
