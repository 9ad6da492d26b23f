import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fuzzService } from '../../../test/fuzz.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { posts } from './index.js';

// Documented: every error body is exactly {}.
const isErrorShape = (_status: number, body: unknown) =>
  !!body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;

let service: TestService;
before(async () => {
  service = await startTestService(posts);
});
after(() => service.close());

test('generated and mutated requests from /openapi.json: no 5xx, bounded time, documented errors', async () => {
  const result = await fuzzService({ app: service.app, casesPerOperation: 250, seed: 11, isErrorShape });
  assert.ok(result.count >= 2000, `ran ${result.count} cases`);
  assert.ok((result.statuses[200] ?? 0) + (result.statuses[201] ?? 0) > 50, JSON.stringify(result.statuses));
});
