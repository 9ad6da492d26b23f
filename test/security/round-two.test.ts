import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { TestService } from '../service.js';
import { startSecured } from './fixtures.js';

const blocked = 'Blocked request: this host is not allowed (see ALLOWED_HOSTS)';

describe('profiles answers the DNS-rebinding refusal as a client error', () => {
  test('a foreign Host is 403 in GraphQL shape, on every route, and nothing is logged at error level', async () => {
    const logLines: string[] = [];
    const service = await startSecured('profiles', { env: { HOST: '127.0.0.1' }, logLines });
    try {
      const host = 'evil.example';
      const post = await service.app.inject({
        method: 'POST',
        url: '/query',
        headers: { host, 'content-type': 'application/json' },
        payload: { query: '{ users { id } }' },
      });
      assert.equal(post.statusCode, 403);
      assert.deepEqual(post.json(), { data: null, errors: [{ message: blocked }] });
      const graphqlResponse = await service.app.inject({
        url: '/query?query=%7Busers%7Bid%7D%7D',
        headers: { host, accept: 'application/graphql-response+json' },
      });
      assert.equal(graphqlResponse.statusCode, 403);
      assert.deepEqual(graphqlResponse.json(), { errors: [{ message: blocked }] });
      const page = await service.app.inject({ url: '/', headers: { host, accept: 'text/html' } });
      assert.equal(page.statusCode, 403);
      assert.deepEqual(page.json(), { data: null, errors: [{ message: blocked }] });
      const levels = logLines.map((line) => JSON.parse(line).level as number);
      assert.deepEqual(
        levels.filter((level) => level >= 50),
        [],
      );
    } finally {
      await service.close();
    }
  });
});

/** DigitalOcean's OpenAPI document: the scopes each operation declares. */
const digitalocean = JSON.parse(
  readFileSync(new URL('../oracles/digitalocean-openapi.json', import.meta.url), 'utf8'),
) as { paths: Record<string, Record<string, { security?: Array<{ bearer_auth?: string[] }> }>> };

/** Every operation machines serves, as DigitalOcean names its path, and a URL that reaches it. */
const served: Array<[method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, url: string]> = [
  ['GET', '/v2/droplets', '/v2/droplets'],
  ['POST', '/v2/droplets', '/v2/droplets'],
  ['DELETE', '/v2/droplets', '/v2/droplets?tag_name=t'],
  ['POST', '/v2/droplets/actions', '/v2/droplets/actions?tag_name=t'],
  ['GET', '/v2/droplets/{droplet_id}', '/v2/droplets/1'],
  ['DELETE', '/v2/droplets/{droplet_id}', '/v2/droplets/1'],
  ['GET', '/v2/droplets/{droplet_id}/actions', '/v2/droplets/1/actions'],
  ['POST', '/v2/droplets/{droplet_id}/actions', '/v2/droplets/1/actions'],
  ['GET', '/v2/droplets/{droplet_id}/actions/{action_id}', '/v2/droplets/1/actions/1'],
  ['GET', '/v2/droplets/{droplet_id}/kernels', '/v2/droplets/1/kernels'],
  ['GET', '/v2/droplets/{droplet_id}/snapshots', '/v2/droplets/1/snapshots'],
  ['GET', '/v2/droplets/{droplet_id}/backups', '/v2/droplets/1/backups'],
  ['GET', '/v2/droplets/{droplet_id}/neighbors', '/v2/droplets/1/neighbors'],
  ['GET', '/v2/regions', '/v2/regions'],
  ['GET', '/v2/sizes', '/v2/sizes'],
  ['GET', '/v2/images', '/v2/images'],
  ['GET', '/v2/images/{image_id}', '/v2/images/1'],
  ['GET', '/v2/actions', '/v2/actions'],
  ['GET', '/v2/actions/{action_id}', '/v2/actions/1'],
  ['GET', '/v2/account', '/v2/account'],
  ['GET', '/v2/account/keys', '/v2/account/keys'],
  ['POST', '/v2/account/keys', '/v2/account/keys'],
  ['GET', '/v2/account/keys/{ssh_key_identifier}', '/v2/account/keys/1'],
  ['PUT', '/v2/account/keys/{ssh_key_identifier}', '/v2/account/keys/1'],
  ['DELETE', '/v2/account/keys/{ssh_key_identifier}', '/v2/account/keys/1'],
  ['GET', '/v2/tags', '/v2/tags'],
  ['POST', '/v2/tags', '/v2/tags'],
  ['GET', '/v2/tags/{tag_id}', '/v2/tags/t'],
  ['DELETE', '/v2/tags/{tag_id}', '/v2/tags/t'],
  ['POST', '/v2/tags/{tag_id}/resources', '/v2/tags/t/resources'],
  ['DELETE', '/v2/tags/{tag_id}/resources', '/v2/tags/t/resources'],
  ['GET', '/v2/volumes', '/v2/volumes'],
  ['POST', '/v2/volumes', '/v2/volumes'],
  ['DELETE', '/v2/volumes', '/v2/volumes?name=v&region=nyc1'],
  ['POST', '/v2/volumes/actions', '/v2/volumes/actions'],
  ['GET', '/v2/volumes/{volume_id}', '/v2/volumes/1'],
  ['DELETE', '/v2/volumes/{volume_id}', '/v2/volumes/1'],
  ['GET', '/v2/volumes/{volume_id}/actions', '/v2/volumes/1/actions'],
  ['POST', '/v2/volumes/{volume_id}/actions', '/v2/volumes/1/actions'],
  ['GET', '/v2/volumes/{volume_id}/actions/{action_id}', '/v2/volumes/1/actions/1'],
  ['GET', '/v2/domains', '/v2/domains'],
  ['POST', '/v2/domains', '/v2/domains'],
  ['GET', '/v2/domains/{domain_name}', '/v2/domains/d.com'],
  ['DELETE', '/v2/domains/{domain_name}', '/v2/domains/d.com'],
  ['GET', '/v2/domains/{domain_name}/records', '/v2/domains/d.com/records'],
  ['POST', '/v2/domains/{domain_name}/records', '/v2/domains/d.com/records'],
  ['GET', '/v2/domains/{domain_name}/records/{domain_record_id}', '/v2/domains/d.com/records/1'],
  ['PATCH', '/v2/domains/{domain_name}/records/{domain_record_id}', '/v2/domains/d.com/records/1'],
  ['PUT', '/v2/domains/{domain_name}/records/{domain_record_id}', '/v2/domains/d.com/records/1'],
  ['DELETE', '/v2/domains/{domain_name}/records/{domain_record_id}', '/v2/domains/d.com/records/1'],
  ['GET', '/v2/certificates', '/v2/certificates'],
  ['POST', '/v2/certificates', '/v2/certificates'],
  ['GET', '/v2/certificates/{certificate_id}', '/v2/certificates/00000000-0000-4000-8000-000000000000'],
  ['DELETE', '/v2/certificates/{certificate_id}', '/v2/certificates/00000000-0000-4000-8000-000000000000'],
  ['GET', '/v2/load_balancers', '/v2/load_balancers'],
  ['POST', '/v2/load_balancers', '/v2/load_balancers'],
  ['GET', '/v2/load_balancers/{lb_id}', '/v2/load_balancers/00000000-0000-4000-8000-000000000000'],
  ['PUT', '/v2/load_balancers/{lb_id}', '/v2/load_balancers/00000000-0000-4000-8000-000000000000'],
  ['DELETE', '/v2/load_balancers/{lb_id}', '/v2/load_balancers/00000000-0000-4000-8000-000000000000'],
  [
    'DELETE',
    '/v2/load_balancers/{lb_id}/cache',
    '/v2/load_balancers/00000000-0000-4000-8000-000000000000/cache',
  ],
  [
    'POST',
    '/v2/load_balancers/{lb_id}/droplets',
    '/v2/load_balancers/00000000-0000-4000-8000-000000000000/droplets',
  ],
  [
    'DELETE',
    '/v2/load_balancers/{lb_id}/droplets',
    '/v2/load_balancers/00000000-0000-4000-8000-000000000000/droplets',
  ],
  [
    'POST',
    '/v2/load_balancers/{lb_id}/forwarding_rules',
    '/v2/load_balancers/00000000-0000-4000-8000-000000000000/forwarding_rules',
  ],
  [
    'DELETE',
    '/v2/load_balancers/{lb_id}/forwarding_rules',
    '/v2/load_balancers/00000000-0000-4000-8000-000000000000/forwarding_rules',
  ],
  ['GET', '/v2/cdn/endpoints', '/v2/cdn/endpoints'],
  ['POST', '/v2/cdn/endpoints', '/v2/cdn/endpoints'],
  ['GET', '/v2/cdn/endpoints/{cdn_id}', '/v2/cdn/endpoints/00000000-0000-4000-8000-000000000000'],
  ['PUT', '/v2/cdn/endpoints/{cdn_id}', '/v2/cdn/endpoints/00000000-0000-4000-8000-000000000000'],
  ['DELETE', '/v2/cdn/endpoints/{cdn_id}', '/v2/cdn/endpoints/00000000-0000-4000-8000-000000000000'],
  [
    'DELETE',
    '/v2/cdn/endpoints/{cdn_id}/cache',
    '/v2/cdn/endpoints/00000000-0000-4000-8000-000000000000/cache',
  ],
  ['GET', '/v2/monitoring/alerts', '/v2/monitoring/alerts'],
  ['POST', '/v2/monitoring/alerts', '/v2/monitoring/alerts'],
  ['GET', '/v2/monitoring/alerts/{alert_uuid}', '/v2/monitoring/alerts/00000000-0000-4000-8000-000000000000'],
  ['PUT', '/v2/monitoring/alerts/{alert_uuid}', '/v2/monitoring/alerts/00000000-0000-4000-8000-000000000000'],
  [
    'DELETE',
    '/v2/monitoring/alerts/{alert_uuid}',
    '/v2/monitoring/alerts/00000000-0000-4000-8000-000000000000',
  ],
  ['GET', '/v2/spaces/keys', '/v2/spaces/keys'],
  ['POST', '/v2/spaces/keys', '/v2/spaces/keys'],
  ['GET', '/v2/spaces/keys/{access_key}', '/v2/spaces/keys/DOX'],
  ['PUT', '/v2/spaces/keys/{access_key}', '/v2/spaces/keys/DOX'],
  ['PATCH', '/v2/spaces/keys/{access_key}', '/v2/spaces/keys/DOX'],
  ['DELETE', '/v2/spaces/keys/{access_key}', '/v2/spaces/keys/DOX'],
];

/** The custom scopes an operation accepts; `api:read`/`api:write` are DigitalOcean's legacy full-access tokens. */
function declaredScopes(method: string, path: string): string[] {
  const operation = digitalocean.paths[path]?.[method.toLowerCase()];
  assert.ok(operation, `${method} ${path} is in DigitalOcean's document`);
  // Each entry of `security` is an alternative (adding a domain record takes domain:create or domain:update).
  const scopes = (operation.security ?? []).flatMap((entry) => entry.bearer_auth ?? []);
  return [...new Set(scopes)].filter((scope) => !scope.startsWith('api:'));
}

const tokenOf = (n: number) => `dop_v1_${n.toString(16).padStart(64, '0')}`;

describe('machines: every operation requires the scopes DigitalOcean declares for it', () => {
  test('a create-only token cannot read actions or the account; actions:read and account:read can', async () => {
    const [creator, reader] = [tokenOf(1), tokenOf(2)];
    const get = (service: TestService, url: string, token: string) =>
      service.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
    const createOnly = await startSecured('machines', {
      env: { MACHINES_TOKENS: `creator=${creator}=droplet:create` },
    });
    try {
      for (const url of ['/v2/actions', '/v2/actions/1', '/v2/account']) {
        const refused = await get(createOnly, url, creator);
        assert.equal(refused.statusCode, 403, url);
        const { request_id, ...body } = refused.json() as Record<string, unknown>;
        assert.deepEqual(body, {
          id: 'forbidden',
          message: 'You do not have permission to perform this action.',
        });
        assert.equal(typeof request_id, 'string');
      }
    } finally {
      await createOnly.close();
    }
    const readOnly = await startSecured('machines', {
      env: { MACHINES_TOKENS: `reader=${reader}=actions:read+account:read` },
    });
    try {
      assert.equal((await get(readOnly, '/v2/actions', reader)).statusCode, 200);
      assert.equal((await get(readOnly, '/v2/actions/1', reader)).statusCode, 404);
      assert.equal((await get(readOnly, '/v2/account', reader)).statusCode, 200);
      assert.equal((await get(readOnly, '/v2/droplets', reader)).statusCode, 403);
    } finally {
      await readOnly.close();
    }
  });

  test('each served operation: a token with one declared scope passes, one with every other scope gets 403', async () => {
    const everyScope = [...new Set(served.flatMap(([method, path]) => declaredScopes(method, path)))];
    const presets: string[] = [];
    const only = new Map<string, string>();
    const allBut = new Map<string, string>();
    for (const scope of everyScope) {
      only.set(scope, tokenOf(presets.length + 1));
      presets.push(`only-${presets.length}=${only.get(scope)}=${scope}`);
    }
    for (const [method, path] of served) {
      const key = declaredScopes(method, path).join('+');
      if (allBut.has(key)) continue;
      allBut.set(key, tokenOf(presets.length + 1));
      const others = everyScope.filter((scope) => !key.split('+').includes(scope));
      presets.push(`but-${presets.length}=${allBut.get(key)}=${others.join('+')}`);
    }
    const service = await startSecured('machines', {
      env: { MACHINES_TOKENS: presets.join(',') },
    });
    try {
      for (const [method, path, url] of served) {
        const scopes = declaredScopes(method, path);
        assert.ok(scopes.length > 0, `${method} ${path} declares scopes`);
        for (const prefix of ['/v2/droplets', '/v2/machines']) {
          if (prefix === '/v2/machines' && !url.startsWith('/v2/droplets')) continue;
          const target = url.replace('/v2/droplets', prefix);
          const send = (token: string | undefined) =>
            service.app.inject({ method, url: target, headers: { authorization: `Bearer ${token}` } });
          const refused = await send(allBut.get(scopes.join('+')));
          assert.equal(refused.statusCode, 403, `${method} ${target} without ${scopes.join(' or ')}`);
          for (const scope of scopes) {
            const allowed = await send(only.get(scope));
            assert.ok(
              ![401, 403, 429].includes(allowed.statusCode),
              `${method} ${target} with ${scope}: ${allowed.statusCode} ${allowed.body}`,
            );
          }
        }
      }
    } finally {
      await service.close();
    }
  });
});
