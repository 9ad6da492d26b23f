import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documented } from '../../check.test.js';
import { startMachines, tokens } from '../../support.test.js';

test('the 1-Click list answers as the document says, to a token of any scope', async () => {
  const service = await startMachines();
  try {
    const all = await documented(service, 'GET /v2/1-clicks', '/v2/1-clicks', 200, undefined, tokens.remove);
    assert.equal(all['1_clicks'].length, 12);
    const k8s = await documented(service, 'GET /v2/1-clicks', '/v2/1-clicks?type=kubernetes', 200);
    assert.deepEqual(
      k8s['1_clicks'].map((a: { slug: string }) => a.slug),
      ['monitoring', 'ingress-nginx', 'cert-manager', 'loki'],
    );
    await documented(service, 'GET /v2/1-clicks', '/v2/1-clicks', 401, undefined, `dop_v1_${'e'.repeat(64)}`);
    await documented(service, 'GET /v2/1-clicks', '/v2/1-clicks?type=app', 400);
  } finally {
    await service.close();
  }
});
