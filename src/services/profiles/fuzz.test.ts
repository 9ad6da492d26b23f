import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { getIntrospectionQuery } from 'graphql';
import { nastyValues, prng } from '../../../test/fuzz.js';
import { multipart, type Part, png, storeEnv, uploadMutation, uploadParts } from '../../../test/profiles.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { profiles } from './index.js';
import { queryLimits } from './limits.js';
import type { ProfilesSettings } from './settings.js';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

let service: TestService<ProfilesSettings>;
before(async () => {
  service = await startTestService(profiles, {
    listen: true,
    env: { ...storeEnv(), PROFILES_MAX_FILE_BYTES: '4096' },
  });
});
after(() => service.close());

async function post(payload: unknown, headers: Record<string, string> = {}) {
  const res = await service.app.inject({
    method: 'POST',
    url: '/query',
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: res.statusCode, body: res.json() as Json };
}

async function upload(parts: Part[]) {
  const { body, contentType } = multipart(parts);
  const res = await service.app.inject({
    method: 'POST',
    url: '/query',
    headers: { 'content-type': contentType },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() as Json };
}

async function userCount() {
  const { rows } = await service.db.query<{ n: string }>('SELECT count(*) AS n FROM profiles.users');
  return Number(rows[0]?.n);
}

async function newUserId() {
  const { body } = await post({
    query: 'mutation ($input: NewUser!) { createUser(input: $input) { id } }',
    variables: { input: { fullName: 'Fuzz', email: 'fuzz@example.com' } },
  });
  return body.data.createUser.id as string;
}

/** The documented error shape: data null (or partial data) and a non-empty errors array with messages. */
function assertGraphqlError(body: Json, context: string) {
  assert.ok(Array.isArray(body?.errors) && body.errors.length > 0, `errors array (${context})`);
  for (const error of body.errors) assert.equal(typeof error.message, 'string', context);
}

describe('query limits', () => {
  test('a query nested deeper than the limit is refused with 400 before it runs', async () => {
    let selection = 'name';
    for (let i = 0; i < 20; i++) selection = `ofType { ${selection} }`;
    const { status, body } = await post({
      query: `{ __schema { types { fields { type { ${selection} } } } } }`,
    });
    assert.equal(status, 400);
    assert.equal(body.data, null);
    assert.match(body.errors[0].message, /query depth \(\d+\) exceeds the query depth limit of 15/);
  });

  test('many aliases of one field are refused with 400 and a message naming the limit', async () => {
    const aliases = Array.from({ length: 1000 }, (_, i) => `a${i}: id`).join(' ');
    const { status, body } = await post({ query: `{ users { ${aliases} } }` });
    assert.equal(status, 400);
    assert.equal(body.data, null);
    assert.equal(body.errors[0].message, 'query selects more than 500 fields (aliases included)');
  });

  test('more than 10 top-level fields (aliases of users) are refused; 10 are answered', async () => {
    const query = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: users { id }`).join(' ')} }`;
    const refused = await post({ query: query(11) });
    assert.equal(refused.status, 400);
    assert.equal(
      refused.body.errors[0].message,
      'an operation may select at most 10 top-level fields (aliases included)',
    );
    const answered = await post({ query: query(10) });
    assert.equal(answered.status, 200);
    assert.ok(Array.isArray(answered.body.data.a9));
  });

  test('fragments are counted each time they are spread', async () => {
    const fields = Array.from({ length: 60 }, (_, i) => `f${i}: fullName`).join(' ');
    const spreads = Array.from({ length: 10 }, (_, i) => `u${i}: users { ...F }`).join(' ');
    const { status, body } = await post({ query: `{ ${spreads} } fragment F on User { ${fields} }` });
    assert.equal(status, 400);
    assert.equal(body.errors[0].message, 'query selects more than 500 fields (aliases included)');
  });

  test('a batch of more than 10 operations is refused with 400; 10 are answered in order', async () => {
    const one = { query: '{ users { id } }' };
    const tooMany = await post(Array.from({ length: queryLimits.maxBatch + 1 }, () => one));
    assert.equal(tooMany.status, 400);
    assert.deepEqual(tooMany.body, {
      data: null,
      errors: [{ message: 'a batch may hold at most 10 operations; this one has 11' }],
    });
    const allowed = await post(Array.from({ length: queryLimits.maxBatch }, () => one));
    assert.equal(allowed.status, 200);
    assert.equal(allowed.body.length, 10);
    for (const answer of allowed.body) assert.ok(Array.isArray(answer.data.users));
  });

  test("GraphiQL's full introspection query still fits the limits", async () => {
    const { status, body } = await post({ query: getIntrospectionQuery({ descriptions: true }) });
    assert.equal(status, 200);
    assert.equal(body.errors, undefined);
    assert.ok(body.data.__schema.types.some((t: Json) => t.name === 'Upload'));
  });
});

/** Generated documents: valid operations, then mutated ones. */
function makeRequest(seed: number): unknown {
  const rnd = prng(seed);
  const nasty = () => rnd.pick(nastyValues);
  const valid = [
    { query: '{ users { id fullName email img_uri DateCreated } }' },
    {
      query: 'mutation ($input: NewUser!) { createUser(input: $input) { id email } }',
      variables: { input: { fullName: `n${rnd.int(1e6)}`, email: `u${rnd.int(1e6)}@example.com` } },
    },
    { query: uploadMutation, variables: { input: { userId: 'x', file: null } } },
  ];
  const base = structuredClone(rnd.pick(valid)) as { query: string; variables?: Record<string, Json> };
  switch (rnd.int(14)) {
    case 0:
      return base;
    case 1: // wrong types in variables
      return {
        ...base,
        variables: { input: { fullName: nasty(), email: nasty(), userId: nasty(), file: nasty() } },
      };
    case 2: // missing variables
      return { query: base.query };
    case 3: // extra variables and unknown fields
      return {
        ...base,
        variables: { ...base.variables, extra: nasty(), input: { ...base.variables?.input, x: 1 } },
      };
    case 4: // variables not an object
      return { ...base, variables: nasty() };
    case 5: // query not a string
      return { query: nasty(), variables: base.variables };
    case 6: // truncated or corrupted document
      return {
        query:
          base.query.slice(0, rnd.int(base.query.length)) + rnd.pick(['{', '}', '(', '$', '"', '\u0000']),
      };
    case 7: // huge string arguments
      return {
        query: 'mutation ($input: NewUser!) { createUser(input: $input) { id } }',
        variables: { input: { fullName: 'x'.repeat(50_000), email: `${'y'.repeat(1000)}@example.com` } },
      };
    case 8: {
      // deep nesting of selections
      const depth = 5 + rnd.int(200);
      return { query: `{ ${'users { '.repeat(depth)}id${' }'.repeat(depth)} }` };
    }
    case 9: {
      // many aliases
      const n = 1 + rnd.int(2000);
      return { query: `{ ${Array.from({ length: n }, (_, i) => `a${i}: users { id }`).join(' ')} }` };
    }
    case 10: // batched arrays, some too long, some holding garbage
      return Array.from({ length: rnd.int(15) }, () => (rnd.chance(0.8) ? base : nasty()));
    case 11: // unknown operation name, several operations
      return {
        query: `query A { users { id } } query B { users { id } }`,
        operationName: rnd.pick(['A', 'C', nasty()]),
      };
    case 12: // unicode and control characters in literal arguments
      return {
        query: `mutation { createUser(input: {fullName: ${JSON.stringify(String(nasty()))}, email: "\\u0000@x"}) { id } }`,
      };
    default:
      return nasty();
  }
}

test('generated and mutated GraphQL requests: no 5xx, bounded time, GraphQL errors, still ready', async () => {
  const statuses = new Map<number, number>();
  const cases = 1000;
  for (let seed = 0; seed < cases; seed++) {
    const request = makeRequest(seed);
    const useGet =
      seed % 7 === 0 && !Array.isArray(request) && typeof request === 'object' && request !== null;
    const started = performance.now();
    const res = useGet
      ? await service.app.inject({
          url: `/query?${new URLSearchParams({ query: String((request as Json).query ?? '') })}`,
        })
      : await service.app.inject({
          method: 'POST',
          url: '/query',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(request) ?? '',
        });
    const ms = performance.now() - started;
    const replay = `replay: seed ${seed} ${res.body.slice(0, 300)}`;
    assert.ok(res.statusCode < 500, `${res.statusCode} (${replay})`);
    assert.ok(ms < 5000, `took ${Math.round(ms)} ms (${replay})`);
    if (res.statusCode >= 400) assertGraphqlError(res.json(), replay);
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  }
  assert.ok((statuses.get(200) ?? 0) > 100, JSON.stringify(Object.fromEntries(statuses)));
  assert.ok((statuses.get(400) ?? 0) > 100, JSON.stringify(Object.fromEntries(statuses)));
  assert.equal((await service.app.inject({ url: '/readyz' })).statusCode, 200);
});

describe('upload edge cases', () => {
  const usingS3 = Boolean(process.env.BACKLOT_TEST_S3_ENDPOINT);
  // The stored files and the uploads being written (`.uploading/…`), which a failed upload must not leave behind.
  const objectFiles = () => {
    if (usingS3) return [];
    const root = path.join(service.dataDir, 'objects');
    const staging = readdirSync(path.join(root, '.uploading')).map((name) => `.uploading/${name}`);
    return [...readdirSync(root), ...staging].sort();
  };
  async function imgUriOf(id: string) {
    const { rows } = await service.db.query<{ img_uri: string }>(
      'SELECT img_uri FROM profiles.users WHERE id = $1',
      [id],
    );
    return rows[0]?.img_uri;
  }

  test('two files mapped to one path: the last one is the upload', async () => {
    const id = await newUserId();
    const [operations, , file] = uploadParts(id, png) as [Part, Part, Part];
    const { status, body } = await upload([
      operations,
      { name: 'map', value: JSON.stringify({ 0: ['variables.input.file'], 1: ['variables.input.file'] }) },
      file,
      { ...file, name: '1', filename: 'other.png' },
    ]);
    assert.equal(status, 200);
    assert.deepEqual(body, { data: { uploadProfileImage: true } });
    assert.match(await imgUriOf(id), new RegExp(`${id}-other\\.png$`));
  });

  test('a 0-byte file is an upload error and the user keeps the placeholder image', async () => {
    const id = await newUserId();
    const before = await imgUriOf(id);
    const { status, body } = await upload(uploadParts(id, Buffer.alloc(0), 'empty.png'));
    assert.equal(status, 200);
    assert.equal(body.data, null);
    assert.equal(
      body.errors[0].message,
      'error uploading file: unsupported file type an empty file; accepted: image/png, image/jpeg, image/gif, image/webp, image/avif',
    );
    assert.deepEqual(body.errors[0].path, ['uploadProfileImage']);
    assert.equal(await imgUriOf(id), before);
  });

  test('a PNG signature in front of a script is not taken for an image', async () => {
    const id = await newUserId();
    const before = await imgUriOf(id);
    const fake = Buffer.concat([png.subarray(0, 8), Buffer.from('#!/bin/sh\nrm -rf /\n')]);
    const { status, body } = await upload(uploadParts(id, fake, 'fake.png'));
    assert.equal(status, 200);
    assert.match(
      body.errors[0].message,
      /^error uploading file: unsupported file type an unrecognised format;/,
    );
    assert.equal(await imgUriOf(id), before);
  });

  test('a file named ../../etc/passwd is stored under its base name only', async () => {
    const id = await newUserId();
    const { body } = await upload(uploadParts(id, png, '../../etc/passwd'));
    assert.deepEqual(body, { data: { uploadProfileImage: true } });
    assert.match(await imgUriOf(id), new RegExp(`${id}-passwd$`));
    if (!usingS3) assert.ok(objectFiles().includes(`${id}-passwd`));
  });

  test('a file one byte over the limit is 413 and nothing is stored', async () => {
    const id = await newUserId();
    const before = objectFiles();
    const big = Buffer.concat([png, Buffer.alloc(4097 - png.length, 7)]);
    const { status, body } = await upload(uploadParts(id, big, 'big.png'));
    assert.equal(status, 413);
    assert.equal(body.errors[0].message, 'error uploading file: the file is larger than 4096 bytes');
    assert.doesNotMatch(await imgUriOf(id), /big\.png$/);
    assert.deepEqual(objectFiles(), before);
  });

  test('a connection closed mid-upload leaves the user unchanged and no partial file', async () => {
    const id = await newUserId();
    const before = await imgUriOf(id);
    const files = objectFiles();
    const users = await userCount();
    const { body, contentType } = multipart(
      uploadParts(id, Buffer.concat([png, Buffer.alloc(3000, 7)]), 'cut.png'),
    );
    const { port } = new URL(service.url);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        // Everything up to the middle of the file, then the client goes away.
        socket.write(body.subarray(0, body.length - 1500), () => setTimeout(() => socket.destroy(), 100));
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // The server notices the closed connection asynchronously; give it a moment, then check it is still serving.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await service.app.inject({ url: '/readyz' })).statusCode, 200);
    assert.equal(await imgUriOf(id), before);
    assert.equal(await userCount(), users);
    assert.deepEqual(objectFiles(), files);
    if (!usingS3) assert.ok(!objectFiles().some((name) => name.endsWith('.partial')));
  });
});
