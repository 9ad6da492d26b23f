import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import autocannon from 'autocannon';
import type { Database } from '../src/platform/database.js';
import type { ServiceDefinition } from '../src/platform/service.js';
import { content } from '../src/services/content/index.js';
import { employees } from '../src/services/employees/index.js';
import { list } from '../src/services/list/index.js';
import { machines } from '../src/services/machines/index.js';
import { posts } from '../src/services/posts/index.js';
import { profiles } from '../src/services/profiles/index.js';
import { things } from '../src/services/things/index.js';
import { createTestDatabase } from './db.js';
import { startTestService, type TestService } from './service.js';

// A short soak: every service on a real socket, a mix of valid reads and writes at modest concurrency for a
// few seconds. Every answer must be 2xx. (The 60 s saturation soak per service is bench/'s job.)

const SECONDS = 3;
const CONNECTIONS = 8;

const basic = (name: string, password: string) =>
  `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
const json = { 'content-type': 'application/json' };
const machinesToken = `dop_v1_${'e'.repeat(64)}`;
let counter = 0;
/** A body made fresh for every request, so writes that need unique values get them. */
const fresh = (make: (n: number) => object) => (request: autocannon.Request) => ({
  ...request,
  body: JSON.stringify(make(counter++)),
});

interface Scenario {
  definition: ServiceDefinition<any>;
  env: Record<string, string>;
  /** Requests each connection cycles through; may use the running service (e.g. to log in first). */
  requests: (service: TestService) => Promise<autocannon.Request[]>;
}

const scenarios: Scenario[] = [
  {
    definition: posts,
    env: {},
    requests: async () => [
      { method: 'GET', path: '/posts/1' },
      { method: 'GET', path: '/posts?userId=1&_limit=5' },
      { method: 'GET', path: '/comments?postId=3' },
      {
        method: 'POST',
        path: '/posts',
        headers: json,
        body: JSON.stringify({ title: 't', body: 'b', userId: 1 }),
      },
    ],
  },
  {
    definition: list,
    env: { LIST_DELAY_MS: '0' },
    requests: async () => [
      { method: 'GET', path: '/list' },
      { method: 'POST', path: '/list', headers: json, setupRequest: fresh((n) => ({ item: `item ${n}` })) },
      { method: 'GET', path: '/list/1' },
    ],
  },
  {
    definition: employees,
    env: { EMPLOYEES_USERS: 'ed:ed-pass:editor' },
    requests: async () => [
      { method: 'GET', path: '/api/2/employees' },
      { method: 'GET', path: '/api/2/employees/2' },
      {
        method: 'POST',
        path: '/api/2/create',
        headers: { ...json, authorization: basic('ed', 'ed-pass') },
        setupRequest: fresh((n) => ({ name: `worker ${n}`, age: 20 + (n % 40) })),
      },
    ],
  },
  {
    definition: things,
    env: { THINGS_LOGIN_RATE_LIMIT: '0', THINGS_SIGNUP_RATE_LIMIT: '0' },
    requests: async (service) => {
      const credentials = { username: 'soak', password: 'soak-password' };
      await service.app.inject({ method: 'POST', url: '/signup', payload: credentials });
      const login = await service.app.inject({ method: 'POST', url: '/login', payload: credentials });
      const secret = login.json().secret as string;
      return [
        { method: 'GET', path: '/things', headers: { 'db-user-secret': secret } },
        { method: 'GET', path: '/things', headers: { 'db-user-secret': secret } },
        {
          method: 'POST',
          path: '/signup',
          headers: json,
          setupRequest: fresh((n) => ({ username: `soak${n}`, password: 'soak-password' })),
        },
      ];
    },
  },
  {
    definition: machines,
    env: {
      MACHINES_PROVISION_MS: '0',
      MACHINES_TOKENS: `soak=${machinesToken}`,
      MACHINES_LIMIT: '100000',
      MACHINES_RATE_LIMIT_PER_MINUTE: '1000000',
      MACHINES_RATE_LIMIT_PER_HOUR: '10000000',
    },
    requests: async () => {
      const headers = { authorization: `Bearer ${machinesToken}` };
      return [
        { method: 'GET', path: '/v2/droplets?per_page=5', headers },
        { method: 'GET', path: '/v2/sizes', headers },
        {
          method: 'POST',
          path: '/v2/droplets',
          headers: { ...headers, ...json },
          setupRequest: fresh((n) => ({
            name: `soak-${n}`,
            region: 'nyc3',
            size: 's-1vcpu-1gb',
            image: 'ubuntu-24-04-x64',
          })),
        },
      ];
    },
  },
  {
    definition: content,
    env: {},
    requests: async (service) => {
      const password = /application password "([^"]+)"/.exec(service.banner.join('\n'))?.[1] ?? '';
      return [
        { method: 'GET', path: '/wp-json/wp/v2/posts?per_page=5' },
        { method: 'GET', path: '/wp-json/wp/v2/categories' },
        {
          method: 'POST',
          path: '/wp-json/wp/v2/posts',
          headers: { ...json, authorization: basic('admin', password) },
          setupRequest: fresh((n) => ({ title: `Soak ${n}`, content: 'text', status: 'publish' })),
        },
      ];
    },
  },
  {
    definition: profiles,
    env: {},
    requests: async () => [
      {
        method: 'POST',
        path: '/query',
        headers: json,
        body: JSON.stringify({ query: '{ users { id fullName } }' }),
      },
      {
        method: 'POST',
        path: '/query',
        headers: json,
        setupRequest: fresh((n) => ({
          query: 'mutation ($input: NewUser!) { createUser(input: $input) { id } }',
          variables: { input: { fullName: `Soak ${n}`, email: `soak${n}@example.test` } },
        })),
      },
    ],
  },
];

describe(`soak: every service, ${CONNECTIONS} connections for ${SECONDS} s`, () => {
  // One database for all (each service keeps to its own schema): starting one per service is the slow part.
  let db: Database | undefined;
  after(() => db?.close());

  for (const scenario of scenarios) {
    test(`${scenario.definition.id}: only 2xx, no errors or timeouts`, async (t) => {
      if (scenario.definition.schema) db ??= await createTestDatabase();
      const service = await startTestService(scenario.definition, {
        env: scenario.env,
        listen: true,
        db: scenario.definition.schema ? db : undefined,
      });
      try {
        const requests = await scenario.requests(service);
        const result = await autocannon({
          url: service.url,
          connections: CONNECTIONS,
          duration: SECONDS,
          timeout: 10,
          requests,
        });
        t.diagnostic(
          `${scenario.definition.id}: ${result.requests.total} requests, ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`,
        );
        const statuses = JSON.stringify(result.statusCodeStats);
        assert.equal(result.errors, 0, `connection errors (statuses ${statuses})`);
        assert.equal(result.timeouts, 0, `timeouts (statuses ${statuses})`);
        assert.equal(result.non2xx, 0, `non-2xx answers: ${statuses}`);
        assert.ok(result.requests.total >= 50, `only ${result.requests.total} requests were made`);
        // Still healthy and ready after the run.
        const ready = await fetch(`${service.url}/readyz`);
        assert.equal(ready.status, 200);
      } finally {
        await service.close();
      }
    });
  }
});
