// Where the suite's time goes: runs each test file alone, one after another, and prints the slowest with their
// wall and CPU seconds (CPU, user + system of the file's process and its children, is what a loaded machine does
// not distort).
//   node scripts/test-times.mjs                       every *.test.ts under src, test and bench; the 15 slowest
//   node scripts/test-times.mjs --top 40 test/a.test.ts src/b.test.ts
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt === -1 ? 15 : Number(args.splice(topAt, 2)[1]);
const files = args.length
  ? args
  : execFileSync('find', ['src', 'test', 'bench', '-name', '*.test.ts'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .sort();

const work = mkdtempSync(path.join(tmpdir(), 'backlot-test-times-'));
const timeFile = path.join(work, 'time');
const rows = [];
for (const [i, file] of files.entries()) {
  // As `npm test` runs each file (one process per file), with GNU time around it.
  const child = spawn(
    '/usr/bin/time',
    [
      '-o',
      timeFile,
      '-f',
      '%e %U %S',
      process.execPath,
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-timeout=600000',
      file,
    ],
    { env: { ...process.env, BACKLOT_HASH_COST: 'low' }, stdio: 'ignore' },
  );
  const code = await new Promise((resolve) => child.on('exit', resolve));
  const [wall, user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  rows.push({ file, wall, cpu: user + sys, ok: code === 0 });
  process.stderr.write(`${i + 1}/${files.length} ${file} ${wall}s wall ${(user + sys).toFixed(1)}s CPU\n`);
}
rmSync(work, { recursive: true, force: true });

const total = (key) => rows.reduce((sum, r) => sum + r[key], 0).toFixed(0);
console.log(`${rows.length} files, ${total('wall')} s wall, ${total('cpu')} s CPU in all (one at a time)\n`);
console.log('| file | wall s | CPU s |\n|---|---:|---:|');
for (const r of rows.toSorted((a, b) => b.cpu - a.cpu).slice(0, top)) {
  console.log(`| ${r.file}${r.ok ? '' : ' (failed)'} | ${r.wall.toFixed(1)} | ${r.cpu.toFixed(1)} |`);
}
