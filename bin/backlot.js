#!/usr/bin/env -S node --max-semi-space-size=32
// A larger young generation (see docs/architecture.md); V8 takes it only on the command line.
// Runs the compiled output in dist/, which `npm ci` builds (the `prepare` script); `npm run dev` runs the sources.
try {
  await import('../dist/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli.js')) throw error;
  process.stderr.write('backlot: dist/ is missing; build it with `npm run build` (npm ci does)\n');
  process.exit(1);
}
