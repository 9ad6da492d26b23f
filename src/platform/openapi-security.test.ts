import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startTestService, type TestService } from '../../test/service.js';
import { content } from '../services/content/index.js';
import { employees } from '../services/employees/index.js';
import { machines } from '../services/machines/index.js';
import { things } from '../services/things/index.js';
import type { ServiceDefinition } from './service.js';

// Swagger UI's Authorize button and "Try it out" with credentials need the OpenAPI document to say how each
// service authenticates: its securitySchemes, and which operations need them.

interface Operation {
  security?: Record<string, string[]>[];
}
interface Document {
  components?: { securitySchemes?: Record<string, unknown> };
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
}

const started: TestService[] = [];
after(() => Promise.all(started.map((s) => s.close())));

async function openapi(definition: ServiceDefinition<never>): Promise<Document> {
  const svc = await startTestService(definition);
  started.push(svc);
  const res = await svc.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200);
  return res.json() as Document;
}

/** The security that applies to an operation: its own, else the document's. */
const securityOf = (doc: Document, path: string, method: string) => {
  const operation = doc.paths[path]?.[method];
  assert.ok(operation, `${method.toUpperCase()} ${path} is documented`);
  return operation.security ?? doc.security;
};

test('machines declares bearer tokens, required by every operation', async () => {
  const doc = await openapi(machines as ServiceDefinition<never>);
  assert.deepEqual(doc.components?.securitySchemes?.bearer, {
    type: 'http',
    scheme: 'bearer',
    description: 'A token (the banner prints one; `backlot machines token create`)',
  });
  assert.deepEqual(doc.security, [{ bearer: [] }]);
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const method of Object.keys(methods)) {
      assert.deepEqual(securityOf(doc, path, method), [{ bearer: [] }], `${method} ${path}`);
    }
  }
});

test('employees declares HTTP Basic on the routes that need an account', async () => {
  const doc = await openapi(employees as ServiceDefinition<never>);
  assert.equal((doc.components?.securitySchemes?.basic as { scheme?: string } | undefined)?.scheme, 'basic');
  assert.deepEqual(securityOf(doc, '/api/2/employee/{id}', 'get'), [{ basic: [] }]);
  assert.deepEqual(securityOf(doc, '/api/2/create', 'post'), [{ basic: [] }]);
  assert.deepEqual(securityOf(doc, '/api/2/update/{id}', 'put'), [{ basic: [] }]);
  assert.deepEqual(securityOf(doc, '/api/2/delete/{id}', 'delete'), [{ basic: [] }]);
  assert.equal(securityOf(doc, '/api/2/employees', 'get'), undefined, 'the list is public');
});

test('things declares its db-user-secret header on /things and /logout', async () => {
  const doc = await openapi(things as ServiceDefinition<never>);
  assert.deepEqual(doc.components?.securitySchemes?.dbUserSecret, {
    type: 'apiKey',
    in: 'header',
    name: 'db-user-secret',
    description: 'The secret POST /login answers with',
  });
  assert.deepEqual(securityOf(doc, '/things', 'get'), [{ dbUserSecret: [] }]);
  assert.deepEqual(securityOf(doc, '/logout', 'post'), [{ dbUserSecret: [] }]);
  assert.equal(securityOf(doc, '/login', 'post'), undefined);
});

test('content declares application passwords (Basic) and bearer tokens, each optional as in WordPress', async () => {
  const doc = await openapi(content as ServiceDefinition<never>);
  const schemes = doc.components?.securitySchemes as Record<string, { type: string; scheme: string }>;
  assert.equal(schemes.applicationPassword?.scheme, 'basic');
  assert.equal(schemes.bearer?.scheme, 'bearer');
  assert.deepEqual(securityOf(doc, '/wp-json/wp/v2/posts', 'post'), [
    { applicationPassword: [] },
    { bearer: [] },
    {},
  ]);
});
