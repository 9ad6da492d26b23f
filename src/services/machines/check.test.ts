// Shared by the resource tests (it has none of its own): one request, its status, and its body checked against
// DigitalOcean's OpenAPI document for the operation named.
import assert from 'node:assert/strict';
import { assertMatchesOracle } from '../../../test/oracles/digitalocean.js';
import type { TestService } from '../../../test/service.js';
import { auth } from './support.test.js';

// biome-ignore lint/suspicious/noExplicitAny: each caller reads its own response shape
type Body = any;

/** `op` is the document's "METHOD /path/{template}"; `url` the path actually requested. */
export async function documented(
  service: TestService<unknown>,
  op: string,
  url: string,
  status: number,
  payload?: unknown,
  token?: string,
): Promise<Body> {
  const [method, path] = op.split(' ') as [string, string];
  const response = await service.app.inject({
    method: method as 'GET',
    url,
    headers: { ...auth(token), 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  assert.equal(response.statusCode, status, `${method} ${url}: ${response.body}`);
  const body = response.body === '' ? '' : response.json();
  assertMatchesOracle(method, path, status, body);
  if (status >= 400) assert.equal(body.request_id, response.headers['x-request-id']);
  return body;
}
