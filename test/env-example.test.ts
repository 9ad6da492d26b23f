import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
  });
}

test('.env.example names every setting the code reads', () => {
  const example = readFileSync('.env.example', 'utf8');
  const read = new Set<string>();
  for (const file of sources('src')) {
    for (const match of readFileSync(file, 'utf8').matchAll(
      /env(?:String|Int|Bool|Enum|Port)\(env, '([A-Z0-9_]+)'/g,
    )) {
      read.add(match[1]);
    }
  }
  assert.ok(read.size > 30, `found the settings (${read.size})`);
  const missing = [...read].filter((name) => !new RegExp(`\\b${name}=`).test(example));
  assert.deepEqual(missing, []);
});
