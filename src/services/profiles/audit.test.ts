import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { storeEnv } from '../../../test/profiles.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { profiles } from './index.js';
import type { ProfilesSettings } from './settings.js';

interface AuditResult {
  name: string;
  status: 'ok' | 'warn' | 'error';
  reason?: string;
}
type AuditServer = (options: { url: string }) => Promise<AuditResult[]>;

// graphql-http (a devDependency) ships CommonJS; required so NODE_PATH can supply it too. Until `npm install`
// has fetched it, the audit is reported as skipped rather than failing the suite for a missing package.
let auditServer: AuditServer | undefined;
try {
  auditServer = (createRequire(import.meta.url)('graphql-http') as { auditServer: AuditServer }).auditServer;
} catch {}

// The SHOULDs /query does not follow on purpose, each explained in docs/profiles.md ("GraphQL over HTTP").
const knownDeviations = [
  'SHOULD use 200 status code on document parsing failure when accepting application/json',
  'SHOULD use 200 status code on document validation failure when accepting application/json',
  'SHOULD use a status code of 200 on variable coercion failure when accepting application/json',
];

let service: TestService<ProfilesSettings>;
before(async () => {
  service = await startTestService(profiles, { env: storeEnv(), listen: true });
});
after(() => service.close());

test("graphql-http's audit: every MUST passes, and the only failed SHOULDs are the documented ones", {
  skip: auditServer ? false : 'graphql-http is not installed: run npm install',
}, async () => {
  const results = await (auditServer as AuditServer)({ url: `${service.url}/query` });
  assert.ok(results.length > 50, `${results.length} audits`);
  const failed = results.filter((result) => result.status === 'error');
  assert.deepEqual(
    failed.map((result) => `${result.name}: ${result.reason}`),
    [],
  );
  assert.deepEqual(
    results.filter((result) => result.status === 'warn').map((result) => result.name),
    knownDeviations,
  );
});
