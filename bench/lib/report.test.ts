import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Report, replaceSection, sectionMarkers } from './report.js';

const result = {
  requestsPerSecond: 1234.4,
  p50: 1,
  p99: 3,
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  bytesPerSecond: 1,
};
const page = [
  '# Benchmarks',
  '',
  '### posts',
  '',
  sectionMarkers('posts').begin,
  'old posts figures',
  sectionMarkers('posts').end,
  '',
  '### list',
  '',
  sectionMarkers('list').begin,
  'old list figures',
  sectionMarkers('list').end,
  '',
  '## Known limits',
  '',
].join('\n');

test("a run replaces only its groups' sections of the page and leaves the rest", () => {
  const report = new Report({ connections: 50, durationSeconds: 10, pipelining: 1, repeats: 3 });
  report.note('posts: pinned', 'posts');
  report.add({
    group: 'posts',
    scenario: 'GET /posts/1',
    server: 'backlot',
    result,
    ratio: '12.00× json-server',
  });
  const doc = report.updateDoc(page, '2026-12-01 10:00 UTC');
  assert.ok(!doc.includes('old posts figures'));
  assert.ok(doc.includes('old list figures'), 'a group that did not run keeps its figures');
  assert.ok(doc.includes('Measured 2026-12-01 10:00 UTC:'));
  assert.ok(doc.includes('| GET /posts/1 | backlot | 1234 | 1 | 3 | 0 | 0 |  | 12.00× json-server |  |'));
  assert.ok(doc.includes('posts: pinned'));
  assert.ok(doc.endsWith('## Known limits\n'), 'what follows the sections stays');
  // Run again: the same section is replaced, not appended to.
  const again = report.updateDoc(doc, '2026-12-01 11:00 UTC');
  assert.equal(again.split('| GET /posts/1 | backlot |').length, 2);
  assert.equal(again.split(sectionMarkers('posts').begin).length, 2);
  assert.ok(again.includes('Measured 2026-12-01 11:00 UTC:') && !again.includes('10:00 UTC'));
});

test('a group without a section gets one at the end', () => {
  const doc = replaceSection(page, 'soak', 'soak figures');
  assert.ok(doc.startsWith(page.trimEnd()));
  assert.ok(
    doc.endsWith(
      `### soak\n\n${sectionMarkers('soak').begin}\nsoak figures\n\n${sectionMarkers('soak').end}\n`,
    ),
  );
});
