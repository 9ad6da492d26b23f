import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fuzzService } from '../../../test/fuzz.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { list } from './index.js';

// Documented: 404 is exactly {} (json-server); every other error is {"error": "<what is wrong>"}.
const isErrorShape = (status: number, body: unknown) => {
  const b = body as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return false;
  if (status === 404) return Object.keys(b).length === 0;
  return Object.keys(b).join() === 'error' && typeof b.error === 'string' && b.error.length > 0;
};

let service: TestService;
before(async () => {
  service = await startTestService(list, { env: { LIST_DELAY_MS: '0' } });
});
after(() => service.close());

test('generated and mutated requests from /openapi.json: no 5xx, bounded time, documented errors', async () => {
  const result = await fuzzService({ app: service.app, casesPerOperation: 300, seed: 11, isErrorShape });
  assert.ok(result.count >= 2000, `ran ${result.count} cases`);
  assert.ok((result.statuses[200] ?? 0) + (result.statuses[201] ?? 0) > 50, JSON.stringify(result.statuses));
});
