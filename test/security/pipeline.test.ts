import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

// Every HTTP surface goes through the one pipeline (createApp): its error handler, Host and Origin checks, body
// limit, timeouts and route-level guards. A Fastify instance built anywhere else would skip all of them, as the
// admin's own did (its token guard tested the raw URL: `/%61pi/reset` went through).

const root = path.resolve(import.meta.dirname, '../../src');
const factory = path.join('platform', 'http.ts');
// In code (comments stripped): a call of Fastify's factory, or a value import of the package (type-only imports
// are fine).
const builds =
  /\bfastify\s*\(|\bimport\s*\(\s*['"]fastify['"]\s*\)|^import\s+(?!type\b)[^;]*?\bfrom\s+['"]fastify['"]/ims;

const code = (file: string) =>
  readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`])\/\/.*$/gm, '$1');

test('no Fastify instance is built outside createApp (src/platform/http.ts)', () => {
  const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
  );
  assert.ok(sources.includes(factory), 'the scan sees the factory itself');
  assert.match(code(path.join(root, factory)), builds, 'the pattern finds the factory');
  const outside = sources.filter((file) => file !== factory && builds.test(code(path.join(root, file))));
  assert.deepEqual(outside, []);
});
