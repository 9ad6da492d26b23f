import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

// The README's test-suite example, run as written (with `backlot` resolved to these sources): it must pass.

test('the README example runs under node:test and passes', async () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## In a test suite'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  assert.ok(code?.includes("from 'backlot'"), 'the README has the example');
  const dir = path.join(root, '.cache', `readme-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'example.test.mts');
  const source = pathToFileURL(path.join(root, 'src/index.ts')).href;
  writeFileSync(file, code.replace("from 'backlot'", `from '${source}'`));
  try {
    const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
      // Run as its own test process, not as a subtest of this one (node:test marks its children by this variable),
      // with TAP output on every Node version (Node 24 defaults to the spec reporter).
      const { NODE_TEST_CONTEXT: _, ...env } = process.env;
      const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], {
        cwd: root,
        env: { ...env, BACKLOT_HASH_COST: 'low' },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('exit', (exitCode) => resolve({ code: exitCode, out }));
    });
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /^# pass 2$/m);
    assert.match(run.out, /^# fail 0$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the package exports start() from the build, with its declarations', async () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.deepEqual(pkg.exports['.'], { types: './dist/index.d.ts', default: './dist/index.js' });
  // A package may import itself by name: what `import { start } from 'backlot'` gets.
  assert.equal(import.meta.resolve('backlot'), pathToFileURL(path.join(root, 'dist/index.js')).href);
  assert.ok(existsSync(path.join(root, 'dist/index.d.ts')), 'dist/ is built (npm run build)');
  const built = await import(pathToFileURL(path.join(root, 'dist/index.js')).href);
  assert.equal(typeof built.start, 'function');
  assert.match(
    readFileSync(path.join(root, 'dist/index.d.ts'), 'utf8'),
    /export declare function start<Id extends ServiceId = ServiceId>\(options\?: StartOptions<Id>\): Promise<Backlot<Id>>;/,
  );
});
