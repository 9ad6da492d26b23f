import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import Ajv from 'ajv';
import Fastify, { type FastifySchemaCompiler } from 'fastify';
import { startTestService } from '../../test/service.js';
import { services } from '../services/index.js';
import { compilePendingSchemas, lazyCompilers, lazyValidatorCompiler } from './lazy-schemas.js';

const ajv = new Ajv.default({ coerceTypes: 'array', useDefaults: true });

/** A Fastify app with the lazy compilers, counting how often the validator compiler runs. */
function app() {
  const compiled: string[] = [];
  const counting: FastifySchemaCompiler<unknown> = ({ schema, url, httpPart }) => {
    compiled.push(`${url} ${httpPart}`);
    return ajv.compile(schema as object);
  };
  const fastify = Fastify({
    schemaController: lazyCompilers,
  });
  fastify.setValidatorCompiler(lazyValidatorCompiler(counting));
  fastify.get(
    '/items/:id',
    {
      schema: {
        params: Type.Object({ id: Type.Integer() }),
        querystring: Type.Object({ tags: Type.Array(Type.String()), limit: Type.Integer({ default: 10 }) }),
        response: {
          200: Type.Object({ id: Type.Integer(), tags: Type.Array(Type.String()), limit: Type.Integer() }),
        },
      },
    },
    async (request) => ({
      ...(request.params as object),
      ...(request.query as object),
      secret: 'not in schema',
    }),
  );
  // A plugin with shared schemas gets Fastify's default validators (its own Ajv), lazy too.
  fastify.register(async (shared) => {
    shared.addSchema({ $id: 'tag', type: 'string', minLength: 2 });
    shared.get(
      '/tagged',
      { schema: { querystring: Type.Object({ tag: Type.Ref('tag') }) } },
      async (r) => r.query,
    );
  });
  fastify.post('/never', { schema: { body: Type.Object({ name: Type.String() }) } }, async () => ({}));
  return { fastify, compiled };
}

test('a route is validated and serialized as Fastify would, compiled on its first request only', async () => {
  const { fastify, compiled } = app();
  await fastify.ready();
  assert.deepEqual(compiled, [], 'nothing is compiled while the app starts');

  // Coercion (id and limit to numbers, one tag to an array), defaults, and the response schema's filtering.
  const ok = await fastify.inject({ url: '/items/7?tags=a' });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(ok.json(), { id: 7, tags: ['a'], limit: 10 });
  assert.deepEqual(compiled.sort(), ['/items/:id params', '/items/:id querystring']);

  const bad = await fastify.inject({ url: '/items/seven?tags=a' });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().message, 'params/id must be integer');
  const again = await fastify.inject({ url: '/items/8?tags=b&tags=c&limit=2' });
  assert.deepEqual(again.json(), { id: 8, tags: ['b', 'c'], limit: 2 });
  assert.equal(compiled.length, 2, 'each schema is compiled once');

  assert.deepEqual((await fastify.inject({ url: '/tagged?tag=ab' })).json(), { tag: 'ab' });
  const short = await fastify.inject({ url: '/tagged?tag=a' });
  assert.equal(short.statusCode, 400);
  assert.equal(short.json().message, 'querystring/tag must NOT have fewer than 2 characters');
  await fastify.close();
});

test('a route never called is never compiled, and compilePendingSchemas compiles what is left', async () => {
  const { fastify, compiled } = app();
  await fastify.ready();
  await fastify.inject({ url: '/items/1?tags=a' });
  assert.ok(!compiled.includes('/never body'));
  assert.ok(compilePendingSchemas() > 0);
  assert.ok(compiled.includes('/never body'));
  assert.equal(compilePendingSchemas(), 0);
  await fastify.close();
});

test("every route schema of the seven services compiles with backlot's compilers", async () => {
  for (const entry of services) {
    const service = await startTestService(await entry.load());
    try {
      assert.ok(compilePendingSchemas() > 0, `${entry.id} has route schemas`);
    } finally {
      await service.close();
    }
  }
  assert.equal(compilePendingSchemas(), 0);
});

// Last: its schema stays pending, as it never compiles.
test("a schema its compiler refuses fails the route's requests with a 500, not the start", async () => {
  const fastify = Fastify();
  fastify.setValidatorCompiler(
    lazyValidatorCompiler(() => {
      throw new Error('unknown format "nope"');
    }),
  );
  fastify.get('/broken', { schema: { querystring: Type.Object({ q: Type.String() }) } }, async () => ({}));
  await fastify.ready();
  assert.equal((await fastify.inject({ url: '/broken?q=1' })).statusCode, 500);
  assert.throws(() => compilePendingSchemas(), /unknown format "nope"/);
  await fastify.close();
});
