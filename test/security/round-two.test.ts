import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
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
