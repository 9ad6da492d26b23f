import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groups } from './registry.js';
import { runBench } from './run.js';

// A smoke run of every benchmark group (1 s per scenario, small data) so the harness cannot rot unnoticed.
test('every benchmark group runs end to end and its servers answer without errors', async () => {
  const report = await runBench({ groups: [], smoke: true, fromSource: true });
  const seen = new Set(report.rows.map((r) => r.group));
  for (const group of [
    'posts',
    'list',
    'profiles',
    'things',
    'database',
    'growth',
    'startup',
    'soak',
    'checkpoint',
    'posts-queries',
    'mixed',
  ]) {
    assert.ok(seen.has(group), `group ${group} produced figures`);
  }
  assert.ok(Object.keys(groups).length >= 11);
  for (const row of report.rows.filter((r) => r.result)) {
    // A peer may finish no request of a heavy scenario (json-server's gzipped /photos) within a 1 s smoke window
    // on a loaded machine; backlot must always answer.
    if (row.server.startsWith('backlot'))
      assert.ok(row.result!.requestsPerSecond > 0, `${row.scenario} on ${row.server} answered`);
    assert.equal(row.result!.non2xx, 0, `${row.scenario} on ${row.server}: non-2xx responses`);
  }
});
