import type { ServiceDefinition, ServiceId } from '../../src/platform/service.js';
import { content } from '../../src/services/content/index.js';
import { employees } from '../../src/services/employees/index.js';
import { list } from '../../src/services/list/index.js';
import { machines } from '../../src/services/machines/index.js';
import { posts } from '../../src/services/posts/index.js';
import { profiles } from '../../src/services/profiles/index.js';
import { things } from '../../src/services/things/index.js';
import { startTestService, type TestService, type TestServiceOptions } from '../service.js';

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export const machinesToken = `dop_v1_${'1a'.repeat(32)}`;
export const contentAppPassword = 'abcdEFGHijklMNOPqrstUVWX';
export const editorPassword = 'editor-Secret-42';

/** The credentials each service accepts in these tests, as headers. */
export const credentials: Partial<Record<ServiceId, Record<string, string>>> = {
  employees: { authorization: basic('ed', editorPassword) },
  machines: { authorization: `Bearer ${machinesToken}` },
  content: { authorization: basic('admin', contentAppPassword) },
};

// biome-ignore lint/suspicious/noExplicitAny: one table holds services whose settings types differ
export const definitions: Record<ServiceId, ServiceDefinition<any>> = {
  profiles,
  things,
  list,
  employees,
  posts,
  machines,
  content,
};

const envs: Partial<Record<ServiceId, Record<string, string>>> = {
  list: { LIST_DELAY_MS: '0' },
  employees: { EMPLOYEES_USERS: `ed:${editorPassword}:editor` },
  machines: { MACHINES_TOKENS: `full=${machinesToken}` },
  content: { CONTENT_ADMIN_APP_PASSWORD: contentAppPassword },
};

/** One service as these tests run it: known credentials, list without its delay, `env` on top. */
export function startSecured(id: ServiceId, options: TestServiceOptions = {}): Promise<TestService> {
  return startTestService(definitions[id], { ...options, env: { ...envs[id], ...options.env } });
}

/** Signs a things user up and logs in: the headers that carry their secret. */
export async function thingsCaller(service: TestService, username = 'mallory-target') {
  const payload = { username, password: 'things-Password-123' };
  await service.app.inject({ method: 'POST', url: '/signup', payload });
  const login = await service.app.inject({ method: 'POST', url: '/login', payload });
  return { 'db-user-secret': login.json().secret as string };
}
