import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ServiceId } from '../../src/platform/service.js';
import { basic, credentials, definitions, startSecured } from './fixtures.js';

const urls: Record<ServiceId, string> = {
  profiles: '/query?query=%7Busers%7Bid%7D%7D',
  things: '/docs/json',
  list: '/list',
  employees: '/api/2/employees',
  posts: '/posts',
  machines: '/v2/regions',
  content: '/wp-json/wp/v2/posts',
};
const credentialed = new Set<ServiceId>(['things', 'employees', 'machines', 'content']);

describe('CORS: any page for services without credentials, an allowlist for the others', () => {
  for (const [id, url] of Object.entries(urls) as [ServiceId, string][]) {
    test(id, async () => {
      const service = await startSecured(id, { env: { CORS_ORIGINS: 'https://app.example.com' } });
      const { app } = service;
      const headers = credentials[id] ?? {};
      try {
        const expectCors = async (origin: string, allowed: boolean) => {
          const res = await app.inject({ url, headers: { ...headers, origin } });
          // Basic credentials from a refused page are not used at all (see the next test).
          const refused = !allowed && headers.authorization?.startsWith('Basic');
          assert.equal(res.statusCode, refused ? 403 : 200, `${origin}: ${res.body.slice(0, 200)}`);
          assert.equal(res.headers['access-control-allow-origin'], allowed ? origin : undefined, origin);
          assert.equal(res.headers['access-control-allow-credentials'], allowed ? 'true' : undefined, origin);
          assert.match(String(res.headers.vary), /origin/i);
          if (allowed) {
            const exposed = String(res.headers['access-control-expose-headers'])
              .toLowerCase()
              .split(/\s*,\s*/);
            for (const name of definitions[id].exposeHeaders ?? [])
              assert.ok(exposed.includes(name.toLowerCase()), name);
          }
          const preflight = await app.inject({
            method: 'OPTIONS',
            url,
            headers: {
              origin,
              'access-control-request-method': 'POST',
              'access-control-request-headers': 'content-type',
            },
          });
          // WordPress answers every OPTIONS, preflights included, 200 with the route's description.
          assert.equal(preflight.statusCode, id === 'content' ? 200 : 204);
          assert.equal(preflight.headers['access-control-allow-origin'], allowed ? origin : undefined);
          const allowHeaders = preflight.headers['access-control-allow-headers'];
          // content sends core's fixed list (…, Content-Type) on every REST answer; without an allowed origin the
          // browser still refuses, which the allow-origin check above proves.
          if (id !== 'content') assert.equal(allowHeaders, allowed ? 'content-type' : undefined);
          else if (allowed) assert.match(String(allowHeaders), /content-type/i);
        };
        await expectCors('http://localhost:5173', true);
        await expectCors('http://127.0.0.1:3000', true);
        await expectCors('https://app.example.com', true);
        await expectCors('https://evil.example', !credentialed.has(id));
      } finally {
        await service.close();
      }
    });
  }

  test('a page on another site cannot ride on Basic credentials the browser remembered', async () => {
    for (const id of ['employees', 'content'] as const) {
      const service = await startSecured(id);
      try {
        const url = id === 'employees' ? '/api/2/delete/1' : '/wp-json/wp/v2/posts/1?force=true';
        // A form post from a foreign page is a "simple" request: the browser sends it without a preflight.
        const res = await service.app.inject({
          method: 'DELETE',
          url,
          headers: { ...credentials[id], origin: 'https://evil.example' },
        });
        assert.equal(res.statusCode, 403);
        const body = res.json();
        if (id === 'employees') assert.equal(body.status, 'error');
        else assert.equal(body.data.status, 403);
        const fromLocal = await service.app.inject({
          method: 'DELETE',
          url,
          headers: { ...credentials[id], origin: 'http://localhost:5173' },
        });
        assert.equal(fromLocal.statusCode, 200, fromLocal.body);
      } finally {
        await service.close();
      }
    }
  });
});

describe('DNS rebinding: the Host check', () => {
  test('on by default when listening on loopback: foreign names refused, loopback names and IPs answered', async () => {
    const service = await startSecured('employees', { env: { HOST: '127.0.0.1' } });
    try {
      const get = (host: string) =>
        service.app.inject({ url: '/api/2/employees', headers: { host, authorization: basic('ed', 'x') } });
      for (const host of ['rebind.attacker.example', 'rebind.attacker.example:8082']) {
        const res = await get(host);
        assert.equal(res.statusCode, 403, host);
        assert.deepEqual(res.json(), {
          status: 'error',
          data: null,
          message: 'Blocked request: this host is not allowed (see ALLOWED_HOSTS)',
        });
      }
      for (const host of ['localhost:8082', '127.0.0.1:8082', '[::1]:8082', 'app.localhost', '10.0.0.5:8082'])
        assert.notEqual((await get(host)).statusCode, 403, host);
    } finally {
      await service.close();
    }
  });

  test('ALLOWED_HOSTS admits the names a deployment uses; off when listening on all interfaces', async () => {
    const deployed = await startSecured('posts', {
      env: { HOST: '0.0.0.0', ALLOWED_HOSTS: 'api.team.dev,.preview.dev' },
    });
    const open = await startSecured('posts', { env: { HOST: '0.0.0.0' } });
    try {
      const status = async (app: typeof open.app, host: string) =>
        (await app.inject({ url: '/posts/1', headers: { host } })).statusCode;
      assert.equal(await status(deployed.app, 'api.team.dev'), 200);
      assert.equal(await status(deployed.app, 'pr-7.preview.dev'), 200);
      assert.equal(await status(deployed.app, 'rebind.attacker.example'), 403);
      assert.equal(await status(open.app, 'rebind.attacker.example'), 200);
    } finally {
      await deployed.close();
      await open.close();
    }
  });
});
