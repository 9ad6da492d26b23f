import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServiceId } from '../../src/platform/service.js';
import type { TestService } from '../service.js';
import { startSecured } from './fixtures.js';

/**
 * Every spelling of a protected path that a router may take for the same route: each letter percent-encoded (one
 * at a time, both hex cases), doubled and trailing slashes, `/./`, and upper case. None may answer 2xx without
 * credentials, and none may answer 5xx.
 */
export function spellings(path: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < path.length; i++) {
    const c = path[i] as string;
    if (!/[A-Za-z0-9]/.test(c)) continue;
    const hex = c.charCodeAt(0).toString(16);
    out.add(`${path.slice(0, i)}%${hex.toUpperCase()}${path.slice(i + 1)}`);
    out.add(`${path.slice(0, i)}%${hex.toLowerCase()}${path.slice(i + 1)}`);
  }
  out.add(`/${path}`);
  out.add(`${path}/`);
  out.add(path.replace(/\//g, '//'));
  out.add(path.replace(/^\/([^/]+)\//, '/$1/./'));
  out.add(path.replace(/^\/([^/]+)\//, '/$1/x/../'));
  out.add(path.toUpperCase());
  out.add(path.replace(/^\/(\w)/, (_m, c: string) => `/${c.toUpperCase()}`));
  out.add(`${path}%2F`);
  out.add(`${path};`);
  out.add(`${path}%00`);
  out.delete(path);
  return [...out];
}

interface Protected {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  payload?: unknown;
  /** The status and body check of the canonical request without credentials. */
  refused: number;
}

const batch = Array.from({ length: 12 }, () => ({ query: '{ users { id } }' }));

const matrix: Partial<Record<ServiceId, Protected[]>> = {
  machines: [
    { method: 'GET', path: '/v2/machines', refused: 401 },
    {
      method: 'POST',
      path: '/v2/machines',
      payload: { name: 'x', region: 'nyc1', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64' },
      refused: 401,
    },
    { method: 'GET', path: '/v2/machines/1', refused: 401 },
    { method: 'DELETE', path: '/v2/machines/1', refused: 401 },
    { method: 'GET', path: '/v2/droplets', refused: 401 },
    { method: 'DELETE', path: '/v2/droplets/1', refused: 401 },
    { method: 'GET', path: '/v2/regions', refused: 401 },
    { method: 'GET', path: '/v2/sizes', refused: 401 },
    { method: 'GET', path: '/v2/images', refused: 401 },
    { method: 'GET', path: '/v2/actions/1', refused: 401 },
  ],
  employees: [
    { method: 'POST', path: '/api/2/create', payload: { name: 'Eve', age: 30 }, refused: 401 },
    { method: 'PUT', path: '/api/2/update/1', payload: { name: 'Eve', age: 30, image: null }, refused: 401 },
    { method: 'DELETE', path: '/api/2/delete/1', refused: 401 },
  ],
  content: [
    {
      method: 'POST',
      path: '/wp-json/wp/v2/posts',
      payload: { title: 'x', status: 'publish' },
      refused: 401,
    },
    { method: 'DELETE', path: '/wp-json/wp/v2/posts/1', refused: 401 },
    { method: 'GET', path: '/wp-json/wp/v2/users/me', refused: 401 },
    { method: 'DELETE', path: '/wp-json/wp/v2/users/2', refused: 401 },
  ],
  things: [{ method: 'GET', path: '/things', refused: 401 }],
  // No credentials here, but a limit: more than 10 operations in a batch.
  profiles: [{ method: 'POST', path: '/query', payload: batch, refused: 400 }],
};

for (const [id, requests] of Object.entries(matrix) as [ServiceId, Protected[]][]) {
  describe(`${id}: no spelling of a protected path gets past its guard`, () => {
    let service: TestService;
    before(async () => {
      service = await startSecured(id);
    });
    after(() => service.close());

    for (const { method, path, payload, refused } of requests) {
      test(`${method} ${path}`, async () => {
        const send = (url: string) => service.app.inject({ method, url, payload: payload as object });
        const canonical = await send(path);
        assert.equal(canonical.statusCode, refused, `${method} ${path} without credentials`);
        const failures: string[] = [];
        for (const url of spellings(path)) {
          const res = await send(url);
          if (res.statusCode < 300 || res.statusCode >= 500)
            failures.push(`${method} ${url} → ${res.statusCode}`);
        }
        assert.deepEqual(failures, []);
        const health = await service.app.inject({ url: '/healthz' });
        assert.equal(health.statusCode, 200);
      });
    }
  });
}
