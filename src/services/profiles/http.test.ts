import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { multipart, png, storeEnv, uploadMutation } from '../../../test/profiles.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { profiles } from './index.js';
import type { ProfilesSettings } from './settings.js';

// GraphQL over HTTP details: media types, statuses, methods (docs/profiles.md, "HTTP").
let service: TestService<ProfilesSettings>;
before(async () => {
  service = await startTestService(profiles, { env: storeEnv(), listen: true });
});
after(() => service.close());

async function call(init: RequestInit & { path?: string }) {
  const response = await fetch(`${service.url}${init.path ?? '/query'}`, init);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    allow: response.headers.get('allow'),
    body: (await response.json()) as Json,
  };
}
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;
const post = (body: unknown, headers: Record<string, string> = {}) =>
  call({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const json = 'application/json; charset=utf-8';
const graphqlResponse = 'application/graphql-response+json; charset=utf-8';
const unknownField = (name: string, column: number) => ({
  message: `Cannot query field "${name}" on type "Query".`,
  locations: [{ line: 1, column }],
});

describe('GraphQL over HTTP', () => {
  test('"extensions": null is accepted (no extensions)', async () => {
    assert.deepEqual(await post({ query: '{ users { id } }', extensions: null }), {
      status: 200,
      type: json,
      allow: null,
      body: { data: { users: [] } },
    });
    const batch = await post([{ query: '{ users { id } }', extensions: null }]);
    assert.deepEqual(batch.body, [{ data: { users: [] } }]);
  });

  test('validation errors are 400 whether there is one or several', async () => {
    assert.deepEqual(await post({ query: '{ nope }' }), {
      status: 400,
      type: json,
      allow: null,
      body: { data: null, errors: [unknownField('nope', 3)] },
    });
    assert.deepEqual(await post({ query: '{ nope nada }' }), {
      status: 400,
      type: json,
      allow: null,
      body: { data: null, errors: [unknownField('nope', 3), unknownField('nada', 8)] },
    });
  });

  test('Accept: application/graphql-response+json is answered in that type; application/json stays the default', async () => {
    const cases: [string | undefined, string][] = [
      ['application/graphql-response+json', graphqlResponse],
      ['application/graphql-response+json, application/json;q=0.9', graphqlResponse],
      ['application/json, application/graphql-response+json', json],
      ['application/json;q=0.5, application/graphql-response+json', graphqlResponse],
      ['application/graphql-response+json;q=0, application/json', json],
      ['*/*', json],
      [undefined, json],
    ];
    for (const [accept, type] of cases) {
      const response = await post({ query: '{ users { id } }' }, accept ? { accept } : {});
      assert.equal(response.type, type, accept);
      assert.equal(response.status, 200, accept);
    }
    const accept = { accept: 'application/graphql-response+json' };
    const invalid = await post({ query: '{ nope nada }' }, accept);
    assert.deepEqual([invalid.status, invalid.type], [400, graphqlResponse]);
    // A request error has no data entry in this media type (nothing was executed).
    assert.deepEqual(invalid.body, { errors: [unknownField('nope', 3), unknownField('nada', 8)] });
    const syntax = await post({ query: '{' }, accept);
    assert.deepEqual([syntax.status, syntax.type], [400, graphqlResponse]);
    // An execution error (the resolver's) is still 200 with the error in the body.
    const missingFile = await post(
      { query: uploadMutation, variables: { input: { userId: 'x', file: null } } },
      accept,
    );
    assert.deepEqual([missingFile.status, missingFile.type], [200, graphqlResponse]);
    assert.equal(
      missingFile.body.errors[0].message,
      'error uploading file: no file was sent (input.file is null)',
    );
  });

  test('a mutation over GET is 405 with Allow: POST', async () => {
    const query = encodeURIComponent('mutation { createUser(input: {fullName: "a", email: "b"}) { id } }');
    assert.deepEqual(await call({ path: `/query?query=${query}` }), {
      status: 405,
      type: json,
      allow: 'POST',
      body: { data: null, errors: [{ message: 'Operation cannot be performed via a GET request' }] },
    });
  });

  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    test(`${method} /query is 405 with Allow: GET, POST`, async () => {
      const body = method === 'DELETE' ? undefined : '{"query":"{ users { id } }"}';
      const headers = body ? { 'content-type': 'application/json' } : undefined;
      assert.deepEqual(await call({ method, headers, body }), {
        status: 405,
        type: json,
        allow: 'GET, POST',
        body: { data: null, errors: [{ message: `${method} is not allowed on /query: use GET or POST` }] },
      });
    });
  }

  test('a text/plain POST is 415', async () => {
    const response = await call({
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{ users { id } }',
    });
    assert.deepEqual(response, {
      status: 415,
      type: json,
      allow: null,
      body: {
        data: null,
        errors: [
          { message: 'Unsupported Media Type: text/plain; send application/json or multipart/form-data' },
        ],
      },
    });
  });

  test('an upload mapped where a string belongs is described, not printed as an internal object', async () => {
    const { body, contentType } = multipart([
      {
        name: 'operations',
        value: JSON.stringify({ query: uploadMutation, variables: { input: { userId: null, file: null } } }),
      },
      { name: 'map', value: JSON.stringify({ 0: ['variables.input.userId'] }) },
      { name: '0', value: png, filename: 'a.png', contentType: 'image/png' },
    ]);
    const response = await call({ method: 'POST', headers: { 'content-type': contentType }, body });
    assert.equal(response.status, 400);
    const message = response.body.errors[0].message as string;
    assert.equal(
      message,
      `Variable "$input" got invalid value (the uploaded file '0') at "input.userId"; String cannot represent a non string value: (the uploaded file '0')`,
    );
    assert.doesNotMatch(message, /function|resolve|promise/);
  });

  test('a file part with an empty file name gets a message saying so, whatever its type', async () => {
    // busboy reads a part with filename="" as a field unless it is application/octet-stream.
    for (const type of ['application/octet-stream', 'image/png', 'text/plain']) {
      const { body, contentType } = multipart([
        {
          name: 'operations',
          value: JSON.stringify({ query: uploadMutation, variables: { input: { userId: 'x', file: null } } }),
        },
        { name: 'map', value: JSON.stringify({ 0: ['variables.input.file'] }) },
        { name: '0', value: png, filename: '', contentType: type },
      ]);
      const response = await call({ method: 'POST', headers: { 'content-type': contentType }, body });
      assert.equal(response.status, 200, type);
      assert.equal(
        response.body.errors?.[0].message,
        'error uploading file: the file name is empty (the part\'s filename is "" or only directories and control characters); send the file with its name, e.g. avatar.png',
        type,
      );
    }
  });

  test('a part that is neither operations, map nor a mapped file is still refused', async () => {
    const { body, contentType } = multipart([
      {
        name: 'operations',
        value: JSON.stringify({ query: uploadMutation, variables: { input: { userId: 'x', file: null } } }),
      },
      { name: 'map', value: JSON.stringify({ 0: ['variables.input.file'] }) },
      { name: 'extra', value: 'text' },
      { name: '0', value: png, filename: 'a.png', contentType: 'image/png' },
    ]);
    const response = await call({ method: 'POST', headers: { 'content-type': contentType }, body });
    assert.equal(response.status, 400);
    assert.equal(
      response.body.errors[0].message,
      "error uploading file: only the 'operations' and 'map' parts are allowed",
    );
  });
});
