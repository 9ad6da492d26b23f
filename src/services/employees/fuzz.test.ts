import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fuzzService } from '../../../test/fuzz.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { employees } from './index.js';

// Documented envelope: {"status":"error","data":null,"message":"<non-empty>"}, for every error status.
const isErrorShape = (_status: number, body: unknown) => {
  const b = body as Record<string, unknown> | undefined;
  return (
    !!b &&
    Object.keys(b).sort().join() === 'data,message,status' &&
    b.status === 'error' &&
    b.data === null &&
    typeof b.message === 'string' &&
    b.message.length > 0
  );
};

let service: TestService;
before(async () => {
  service = await startTestService(employees, { env: { EMPLOYEES_USERS: 'fuzz:fuzz-password:editor' } });
});
after(() => service.close());

test('generated and mutated requests from /openapi.json: no 5xx, bounded time, documented errors', async () => {
  const result = await fuzzService({
    app: service.app,
    authHeaders: { authorization: `Basic ${Buffer.from('fuzz:fuzz-password').toString('base64')}` },
    casesPerOperation: 400,
    seed: 11,
    isErrorShape,
  });
  assert.ok(result.count >= 2000, `ran ${result.count} cases`);
  assert.ok((result.statuses[200] ?? 0) + (result.statuses[201] ?? 0) > 50, JSON.stringify(result.statuses));
});
