import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fuzzService } from '../../../test/fuzz.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { content } from './index.js';

const appPassword = 'fuzzFUZZfuzzFUZZfuzzFUZZ';

/**
 * Documented shapes: WordPress's {"code", "message", "data": {"status", "params"?}} with data.status equal to
 * the HTTP status; the WordPress.com settings endpoints use {"error", "message"}.
 */
const isErrorShape = (status: number, body: unknown) => {
  const b = body as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object') return false;
  // WordPress adds `additional_data` when an error carries more than one datum (an offline plugin install's).
  const keys = Object.keys(b)
    .filter((key) => key !== 'additional_data' || !Array.isArray(b[key]))
    .sort()
    .join();
  if (keys === 'error,message') return typeof b.error === 'string' && typeof b.message === 'string';
  if (keys !== 'code,data,message') return false;
  const data = b.data as Record<string, unknown> | null;
  return (
    typeof b.code === 'string' &&
    b.code.length > 0 &&
    typeof b.message === 'string' &&
    !!data &&
    data.status === status &&
    Object.keys(data).every((key) => ['status', 'params', 'details', 'term_id'].includes(key))
  );
};

let service: TestService;
before(async () => {
  service = await startTestService(content, { env: { CONTENT_ADMIN_APP_PASSWORD: appPassword } });
});
after(() => service.close());

test('generated and mutated requests from /openapi.json: no 5xx, bounded time, documented errors', async () => {
  const result = await fuzzService({
    app: service.app,
    authHeaders: { authorization: `Basic ${Buffer.from(`admin:${appPassword}`).toString('base64')}` },
    casesPerOperation: 100,
    seed: 11,
    isErrorShape,
    // Deleting users could remove the administrator whose password the other cases send.
    skip: (op) => op.method === 'DELETE' && op.path.includes('/users/'),
    // Terms have no trash: a delete without force=true is core's 501.
    deliberate5xx: (status, body) => {
      const code = (body as { code?: string }).code;
      return (
        (status === 501 && code === 'rest_trash_not_supported') ||
        (status === 500 && code === 'plugins_api_failed')
      );
    },
  });
  assert.ok(result.count >= 2000, `ran ${result.count} cases`);
  assert.ok((result.statuses[200] ?? 0) + (result.statuses[201] ?? 0) > 50, JSON.stringify(result.statuses));
});
