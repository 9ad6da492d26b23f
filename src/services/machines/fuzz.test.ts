import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fuzzService } from '../../../test/fuzz.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { machines } from './index.js';

const token = `dop_v1_${'ab'.repeat(32)}`;

// Documented shape: {"id", "message", "request_id"}, request_id equal to the x-request-id header; an invalid tag
// name also carries the `error`, `messages` and `root_causes` that DigitalOcean's document gives that answer.
const keysOf = (b: Record<string, unknown>) => Object.keys(b).sort().join();
const isErrorShape = (_status: number, body: unknown) => {
  const b = body as Record<string, unknown> | undefined;
  return (
    !!b &&
    (keysOf(b) === 'id,message,request_id' ||
      keysOf(b) === 'error,id,message,messages,request_id,root_causes') &&
    typeof b.id === 'string' &&
    b.id.length > 0 &&
    typeof b.message === 'string' &&
    typeof b.request_id === 'string' &&
    b.request_id.length > 0
  );
};

let service: TestService;
before(async () => {
  service = await startTestService(machines, {
    env: {
      MACHINES_TOKENS: `fuzz=${token}`,
      MACHINES_RATE_LIMIT_PER_MINUTE: '1000000',
      MACHINES_RATE_LIMIT_PER_HOUR: '1000000',
      MACHINES_LIMIT: '100000',
    },
  });
});
after(() => service.close());

test('generated and mutated requests from /openapi.json: no 5xx, bounded time, documented errors', async () => {
  const result = await fuzzService({
    app: service.app,
    authHeaders: { authorization: `Bearer ${token}` },
    casesPerOperation: 250,
    seed: 11,
    isErrorShape,
  });
  assert.ok(result.count >= 2000, `ran ${result.count} cases`);
  assert.ok((result.statuses[200] ?? 0) + (result.statuses[202] ?? 0) > 50, JSON.stringify(result.statuses));
});
