// `prepare` (npm ci, npm install, and `npx backlot` in a clone, which installs the clone) builds dist/ only when
// what it is built from changed since the last build: a full build takes half a minute on a small machine.
//   node scripts/build-if-stale.mjs          build unless dist/ is current
//   node scripts/build-if-stale.mjs --stamp  record that dist/ is current (the end of `npm run build`)
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const stampFile = path.join('dist', '.build-inputs');

/** A digest of every file the build reads: the sources, the build scripts and configs, the installed versions. */
function inputsDigest() {
  const hash = createHash('sha256');
  const add = (file) => hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else add(file);
    }
  };
  walk('src');
  walk('scripts');
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']) add(file);
  return hash.digest('hex');
}

if (process.argv.includes('--stamp')) {
  writeFileSync(stampFile, `${inputsDigest()}\n`);
} else if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8').trim() !== inputsDigest()) {
  execSync('npm run build', { stdio: 'inherit' });
}
