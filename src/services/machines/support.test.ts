// Shared by the tests beside it (it has none of its own); named *.test.ts so the build leaves it out.
import { startTestService, type TestService, type TestServiceOptions } from '../../../test/service.js';
import type { Env } from '../../config.js';
import { machines } from './index.js';
import type { MachinesSettings } from './settings.js';

/** Tokens preset through MACHINES_TOKENS in tests: one with every scope, and one per single scope. */
export const tokens = {
  full: `dop_v1_${'a'.repeat(64)}`,
  read: `dop_v1_${'b'.repeat(64)}`,
  create: `dop_v1_${'c'.repeat(64)}`,
  remove: `dop_v1_${'d'.repeat(64)}`,
};

export const presetEnv =
  `full=${tokens.full},reader=${tokens.read}=machine:read,creator=${tokens.create}=machine:create,` +
  `deleter=${tokens.remove}=droplet:delete`;

export function startMachines(
  env: Env = {},
  options: TestServiceOptions = {},
): Promise<TestService<MachinesSettings>> {
  return startTestService(machines, {
    ...options,
    env: { MACHINES_PROVISION_MS: '0', MACHINES_TOKENS: presetEnv, ...env },
  });
}

export const auth = (token: string = tokens.full) => ({ authorization: `Bearer ${token}` });

export const validCreate = { name: 'web-1', region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64' };
