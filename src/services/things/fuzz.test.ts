import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fuzzService } from '../../../test/fuzz.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { things } from './index.js';

// Documented shape: {"code": string, "description": string}, nothing else.
const isErrorShape = (_status: number, body: unknown) => {
  const b = body as Record<string, unknown> | undefined;
  return (
    !!b &&
    Object.keys(b).sort().join() === 'code,description' &&
    typeof b.code === 'string' &&
    b.code.length > 0 &&
    typeof b.description === 'string'
  );
};

let service: TestService;
let secret: string;
before(async () => {
  service = await startTestService(things, {
    env: { THINGS_LOGIN_RATE_LIMIT: '100000', THINGS_SIGNUP_RATE_LIMIT: '100000' },
  });
  const credentials = { username: 'fuzz', password: 'fuzz-password' };
  assert.equal(
    (await service.app.inject({ method: 'POST', url: '/signup', payload: credentials })).statusCode,
    200,
  );
  secret = (await service.app.inject({ method: 'POST', url: '/login', payload: credentials })).json().secret;
});
after(() => service.close());

test('generated and mutated requests from /openapi.json: no 5xx, bounded time, documented errors', async () => {
  const result = await fuzzService({
    app: service.app,
    authHeaders: { 'db-user-secret': secret },
    casesPerOperation: 700,
    seed: 11,
    isErrorShape,
    // Logging out would revoke the secret the other cases use; it is fuzzed last, below.
    skip: (op) => op.path === '/logout',
  });
  assert.ok(result.count >= 2000, `ran ${result.count} cases`);
  assert.ok((result.statuses[200] ?? 0) > 50, JSON.stringify(result.statuses));
  const logout = await fuzzService({
    app: service.app,
    authHeaders: { 'db-user-secret': secret },
    casesPerOperation: 200,
    seed: 12,
    isErrorShape,
    skip: (op) => op.path !== '/logout',
  });
  assert.ok(logout.count === 200);
});
