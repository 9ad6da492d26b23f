#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so `npx backlot` works in the repo with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
