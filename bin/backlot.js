#!/usr/bin/env -S node --max-semi-space-size=32
// A larger young generation (see docs/architecture.md); V8 takes it only on the command line.
// Runs the TypeScript sources directly (tsx), so `npx backlot` works in the repo with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
