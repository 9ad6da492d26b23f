/**
 * The layers of backlot, checked by `npm run layers` and in `npm test` (test/layers.test.ts):
 * config and platform at the bottom, each service on top of them, the harness above the services it wraps,
 * the composition (server, cli, index) on top. Imports only point down; type-only imports count too; tests
 * (*.test.ts) may import upwards, never in a cycle.
 */
const service = '^src/services/([^/]+)/';
// Tests may drive a layer through the ones above it (a platform test through a real service).
const tests = '\\.test\\.ts$';
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle ties its files into one: none, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-points-down',
      severity: 'error',
      comment:
        'platform/ and config.ts know nothing of the harness, the services or the composition above them.',
      from: { path: '^src/(platform/|config\\.ts)', pathNot: tests },
      to: { path: '^src/(harness|services|server\\.ts|cli\\.ts|index\\.ts)' },
    },
    {
      name: 'service-stays-in-its-folder',
      severity: 'error',
      comment: 'A service never imports another service, the registry, the harness or the composition.',
      from: { path: service, pathNot: tests },
      to: {
        path: '^src/(services/|harness/|server\\.ts|cli\\.ts|index\\.ts)',
        pathNot: '^src/services/$1/',
      },
    },
    {
      name: 'harness-below-composition',
      severity: 'error',
      from: { path: '^src/harness/', pathNot: tests },
      to: { path: '^src/(server\\.ts|cli\\.ts|index\\.ts)' },
    },
    {
      name: 'src-not-tests',
      severity: 'error',
      comment: 'The program never imports its tests, their helpers or the bench.',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(test|bench|support)/' },
    },
    {
      name: 'bench-not-tests',
      severity: 'error',
      comment: 'What the bench and the tests share lives in support/.',
      from: { path: '^bench/' },
      to: { path: '^test/' },
    },
    {
      name: 'support-stands-alone',
      severity: 'error',
      from: { path: '^support/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
