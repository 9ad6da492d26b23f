import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

/**
 * V8's own account (%DebugPrint) of the caches of process.nextTick's object-literal stores, after ticks, a full GC
 * while none is queued, and ticks again: the states of its DefineKeyedOwnPropertyInLiteral feedback slots.
 */
function literalCachesAfterIdleGc(keep: boolean) {
  const script = `
    ${keep ? "(await import('./src/platform/tick-objects.ts')).keepTickObjectClasses();" : ''}
    const ticks = (n) => new Promise((done) => {
      for (let i = 0; i < n; i++) process.nextTick(() => {});
      setImmediate(done);
    });
    for (let i = 0; i < 20; i++) await ticks(100);
    globalThis.gc();
    await ticks(10);
    new Function('f', '%DebugPrint(f)')(process.nextTick);
  `;
  // Into a file: V8 prints straight to the descriptor, and a non-blocking pipe would drop what does not fit.
  const dir = mkdtempSync(path.join(tmpdir(), 'tick-objects-'));
  const file = path.join(dir, 'printed.txt');
  const out = openSync(file, 'w');
  let printed: string;
  try {
    execFileSync(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: new URL('../..', import.meta.url).pathname, stdio: ['ignore', out, 'inherit'] },
    );
    printed = readFileSync(file, 'utf8');
  } finally {
    closeSync(out);
    rmSync(dir, { recursive: true, force: true });
  }
  const states = printed
    .split('\n')
    .filter((line) => line.includes('DefineKeyedOwnPropertyInLiteral'))
    .map((line) => /(UNINITIALIZED|MONOMORPHIC|POLYMORPHIC|MEGAMORPHIC)/.exec(line)?.[1]);
  assert.ok(states.length >= 3, `no literal feedback slots in V8's print:\n${printed.slice(0, 2000)}`);
  return states;
}

test('with one tick entry kept, nextTick keeps its cached stores through a full GC while idle', () => {
  assert.deepEqual(
    literalCachesAfterIdleGc(true).filter((state) => state !== 'MONOMORPHIC'),
    [],
  );
});

// The fault being fixed is Node 20's (V8 11.3); Node 24 does not have it.
test('without it, the same GC leaves them megamorphic on Node 20', {
  skip: !process.versions.node.startsWith('20.') && 'Node 20 only',
}, () => {
  assert.ok(literalCachesAfterIdleGc(false).includes('MEGAMORPHIC'));
});
