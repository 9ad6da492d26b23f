import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  multipart,
  type Part,
  png,
  pngOfSize,
  storeEnv,
  uploadMutation,
  uploadParts,
} from '../../../test/profiles.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { profiles } from './index.js';
import type { ProfilesSettings } from './settings.js';
import { formatDateCreated } from './store.js';
import { safeFileName } from './upload.js';

const usingS3 = Boolean(process.env.BACKLOT_TEST_S3_ENDPOINT);
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const createUser = `mutation ($input: NewUser!) {
  createUser(input: $input) { id fullName email img_uri DateCreated }
}`;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

let service: TestService<ProfilesSettings>;

async function graphql(query: string, variables?: unknown) {
  const response = await fetch(`${service.url}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function upload(parts: Part[]) {
  const { body, contentType } = multipart(parts);
  const response = await fetch(`${service.url}/query`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function newUser(fullName = 'Ada Lovelace', email = 'ada@example.com') {
  const { body } = await graphql(createUser, { input: { fullName, email } });
  return body.data.createUser as { id: string; img_uri: string };
}

/** Where a stored object can be fetched: /files on the service, or the bucket path on the S3 server. */
function objectUrl(key: string) {
  const encoded = encodeURIComponent(key);
  const env = storeEnv();
  return usingS3
    ? `${env.STORAGE_ENDPOINT}/${env.STORAGE_BUCKET}/${encoded}`
    : `${service.url}/files/${encoded}`;
}

async function imgUriOf(id: string) {
  const { rows } = await service.db.query<{ img_uri: string }>(
    'SELECT img_uri FROM profiles.users WHERE id = $1',
    [id],
  );
  return rows[0]?.img_uri;
}

before(async () => {
  service = await startTestService(profiles, { env: storeEnv(), listen: true });
});
after(() => service.close());

describe('createUser and users', () => {
  test('createUser stores a new user with a UUID, the placeholder image and today in UTC', async () => {
    const { status, body } = await graphql(createUser, {
      input: {
        fullName: 'Grace Hopper',
        email: 'grace@example.com',
        img_uri: 'x',
        DateCreated: '01-01-1999',
      },
    });
    assert.equal(status, 200);
    const user = body.data.createUser;
    assert.match(user.id, uuid);
    assert.deepEqual(user, {
      id: user.id,
      fullName: 'Grace Hopper',
      email: 'grace@example.com',
      img_uri: 'https://bit.ly/3mCSn2i',
      DateCreated: formatDateCreated(new Date()),
    });
    assert.match(user.DateCreated, /^\d{2}-\d{2}-\d{4}$/);
    const { rows } = await service.db.query(
      'SELECT full_name, email, img_uri FROM profiles.users WHERE id = $1',
      [user.id],
    );
    assert.deepEqual(rows, [
      { full_name: 'Grace Hopper', email: 'grace@example.com', img_uri: 'https://bit.ly/3mCSn2i' },
    ]);
  });

  test('users lists every user, oldest first', async () => {
    const first = await newUser('First', 'first@example.com');
    const second = await newUser('Second', 'second@example.com');
    const { status, body } = await graphql('{ users { id fullName } }');
    assert.equal(status, 200);
    const ids = body.data.users.map((u: { id: string }) => u.id);
    assert.ok(ids.indexOf(first.id) >= 0 && ids.indexOf(first.id) < ids.indexOf(second.id));
    const { rows } = await service.db.query<{ n: string }>('SELECT count(*) AS n FROM profiles.users');
    assert.equal(ids.length, Number(rows[0]?.n));
  });

  test('GET /query runs queries, and batched operations answer in order', async () => {
    const get = await fetch(`${service.url}/query?query=${encodeURIComponent('{ users { id } }')}`);
    assert.equal(get.status, 200);
    assert.ok(Array.isArray(((await get.json()) as Json).data.users));
    const batch = await fetch(`${service.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ users { id } }' }, { query: '{ __typename }' }]),
    });
    assert.equal(batch.status, 200);
    const answers = (await batch.json()) as Json[];
    assert.equal(answers.length, 2);
    assert.deepEqual(answers[1], { data: { __typename: 'Query' } });
  });

  test('the schema is introspectable and declares Upload', async () => {
    const { body } = await graphql('{ __type(name: "ProfileImage") { inputFields { name type { name } } } }');
    assert.deepEqual(body.data.__type.inputFields, [
      { name: 'userId', type: { name: 'String' } },
      { name: 'file', type: { name: 'Upload' } },
    ]);
  });
});

describe('uploadProfileImage', () => {
  test('a curl-style multipart upload stores the bytes under <userId>-<filename> and updates img_uri', async () => {
    const user = await newUser();
    const { status, body } = await upload(uploadParts(user.id, png, 'me.png'));
    assert.equal(status, 200);
    assert.deepEqual(body, { data: { uploadProfileImage: true } });
    const key = `${user.id}-me.png`;
    const expected = usingS3
      ? `${storeEnv().STORAGE_ENDPOINT}/${storeEnv().STORAGE_BUCKET}/${encodeURIComponent(key)}`
      : `${service.url}/files/${encodeURIComponent(key)}`;
    assert.equal(await imgUriOf(user.id), expected);
    const { body: listed } = await graphql('{ users { id img_uri } }');
    assert.equal(listed.data.users.find((u: { id: string }) => u.id === user.id).img_uri, expected);
    const stored = await fetch(expected);
    assert.equal(stored.status, 200);
    assert.deepEqual(Buffer.from(await stored.arrayBuffer()), png);
    if (!usingS3) {
      assert.equal(stored.headers.get('content-type'), 'image/png');
      assert.equal(stored.headers.get('cache-control'), 'public, max-age=0, must-revalidate');
      const etag = stored.headers.get('etag');
      assert.match(etag ?? '', /^"[0-9a-f]+-[0-9a-f]+"$/);
      const again = await fetch(expected, { headers: { 'if-none-match': etag as string } });
      assert.equal(again.status, 304);
      assert.deepEqual(
        readdirSync(path.join(service.dataDir, 'objects')).includes(encodeURIComponent(key)),
        true,
      );
    }
  });

  test('only the base name of the file is used', async () => {
    const user = await newUser();
    const { body } = await upload(uploadParts(user.id, png, '../../etc/pass.png'));
    assert.deepEqual(body, { data: { uploadProfileImage: true } });
    const response = await fetch(objectUrl(`${user.id}-pass.png`));
    assert.equal(response.status, 200);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), png);
  });

  test('a raw control character in a part header is a malformed request', async () => {
    const user = await newUser();
    const { status, body } = await upload(uploadParts(user.id, png, 'pa\u0001ss.png'));
    assert.equal(status, 400);
    assert.equal(body.data, null);
    assert.equal(
      body.errors[0].message,
      'error uploading file: malformed multipart request: Malformed part header',
    );
  });

  test('file names lose directories and control characters', () => {
    assert.equal(safeFileName('C:\\Users\\me\\pa\u0001ss\u007f.png'), 'pass.png');
    assert.equal(safeFileName('a/b/../..'), '');
    assert.equal(safeFileName(' \t'), '');
    assert.equal(safeFileName(undefined), '');
  });

  test('a file name with nothing left after cleaning is an upload error', async () => {
    const user = await newUser();
    const { status, body } = await upload(uploadParts(user.id, png, '../..'));
    assert.equal(status, 200);
    assert.equal(body.data, null);
    assert.match(body.errors[0].message, /^error uploading file: the file name is empty/);
  });

  test('a missing file is "error uploading file: " and nothing is stored', async () => {
    const user = await newUser();
    const { status, body } = await graphql(uploadMutation, { input: { userId: user.id, file: null } });
    assert.equal(status, 200);
    assert.equal(body.data, null);
    assert.equal(body.errors[0].message, 'error uploading file: no file was sent (input.file is null)');
    assert.deepEqual(body.errors[0].path, ['uploadProfileImage']);
    assert.equal(await imgUriOf(user.id), 'https://bit.ly/3mCSn2i');
  });

  test('a missing userId is "error getting user: " before anything is stored', async () => {
    const { status, body } = await upload(uploadParts(null, png, 'nobody.png'));
    assert.equal(status, 200);
    assert.deepEqual(body, {
      data: null,
      errors: [
        {
          message: 'error getting user: input.userId is required',
          locations: body.errors[0].locations,
          path: ['uploadProfileImage'],
        },
      ],
    });
    assert.equal((await fetch(objectUrl('null-nobody.png'))).status, 404);
    assert.equal((await fetch(objectUrl('-nobody.png'))).status, 404);
  });

  test('an unknown user is "error getting user: " and the object stays stored', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const { status, body } = await upload(uploadParts(unknown, png, 'ghost.png'));
    assert.equal(status, 200);
    assert.equal(body.data, null);
    assert.equal(body.errors[0].message, `error getting user: no user has id "${unknown}"`);
    assert.deepEqual(body.errors[0].path, ['uploadProfileImage']);
    const stored = await fetch(objectUrl(`${unknown}-ghost.png`));
    assert.equal(stored.status, 200);
    assert.deepEqual(Buffer.from(await stored.arrayBuffer()), png);
  });

  test('an id that is not a UUID is an unknown user too', async () => {
    const { body } = await upload(uploadParts('not-a-uuid', png, 'x.png'));
    assert.equal(body.errors[0].message, 'error getting user: no user has id "not-a-uuid"');
  });

  test('a file that is not an image is refused by its bytes, whatever its content type says', async () => {
    const user = await newUser();
    const { status, body } = await upload(
      uploadParts(user.id, Buffer.from('<svg onload="alert(1)"></svg>'), 'x.png'),
    );
    assert.equal(status, 200);
    assert.equal(body.data, null);
    assert.match(body.errors[0].message, /^error uploading file: unsupported file type /);
    assert.equal((await fetch(objectUrl(`${user.id}-x.png`))).status, 404);
    assert.equal(await imgUriOf(user.id), 'https://bit.ly/3mCSn2i');
  });

  test('an update that fails is "err updating user: " and the object stays stored', async () => {
    const user = await newUser();
    await service.db.exec(`
      CREATE FUNCTION profiles.refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'updates are switched off'; END $$;
      CREATE TRIGGER refuse_update BEFORE UPDATE ON profiles.users
        FOR EACH ROW EXECUTE FUNCTION profiles.refuse_update();
    `);
    try {
      const { status, body } = await upload(uploadParts(user.id, png, 'stuck.png'));
      assert.equal(status, 200);
      assert.equal(body.data, null);
      assert.equal(body.errors[0].message, 'err updating user: updates are switched off');
      assert.deepEqual(body.errors[0].path, ['uploadProfileImage']);
      assert.equal((await fetch(objectUrl(`${user.id}-stuck.png`))).status, 200);
      assert.equal(await imgUriOf(user.id), 'https://bit.ly/3mCSn2i');
    } finally {
      await service.db.exec(
        'DROP TRIGGER refuse_update ON profiles.users; DROP FUNCTION profiles.refuse_update();',
      );
    }
  });
});

describe('database failures', () => {
  test('an insert the database refuses is "error inserting user: " with its cause', async () => {
    const { status, body } = await graphql(createUser, { input: { fullName: 'Nul', email: 'a\u0000b' } });
    assert.equal(status, 200);
    assert.equal(body.data, null);
    assert.match(body.errors[0].message, /^error inserting user: .+/);
    assert.deepEqual(body.errors[0].path, ['createUser']);
  });

  test('users returns the database error', async () => {
    await service.db.exec('ALTER TABLE profiles.users RENAME TO users_away');
    try {
      const { status, body } = await graphql('{ users { id } }');
      assert.equal(status, 200);
      assert.equal(body.data, null);
      assert.equal(body.errors[0].message, 'relation "profiles.users" does not exist');
      assert.deepEqual(body.errors[0].path, ['users']);
    } finally {
      await service.db.exec('ALTER TABLE profiles.users_away RENAME TO users');
    }
  });
});

describe('malformed requests', () => {
  const cases: [string, () => Part[], RegExp][] = [
    [
      'map before operations',
      () => [uploadParts('x', png)[1] as Part, uploadParts('x', png)[0] as Part],
      /^misordered parts: 'map' must follow 'operations'$/,
    ],
    ['no map', () => [uploadParts('x', png)[0] as Part], /^the 'map' part is missing$/],
    [
      'bad JSON in operations',
      () => [{ name: 'operations', value: '{nope' }],
      /^the 'operations' part is not valid JSON$/,
    ],
    [
      'a file before map',
      () => [uploadParts('x', png)[0] as Part, uploadParts('x', png)[2] as Part],
      /^misordered parts: files must follow 'map'$/,
    ],
    [
      'a mapped file never sent',
      () => uploadParts('x', png).slice(0, 2),
      /^error uploading file: the file part '0' named in 'map' was never sent$/,
    ],
  ];
  for (const [name, parts, message] of cases) {
    test(`${name} answers 400 with a message`, async () => {
      const { status, body } = await upload(parts());
      assert.equal(status, 400);
      assert.equal(body.data, null);
      assert.match(body.errors[0].message, message);
    });
  }

  test('invalid JSON answers 400 in the GraphQL error shape', async () => {
    const response = await fetch(`${service.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as Json;
    assert.equal(body.data, null);
    assert.match(body.errors[0].message, /JSON/);
  });

  test('a GraphQL syntax error answers 400', async () => {
    const { status, body } = await graphql('{ users { id }');
    assert.equal(status, 400);
    assert.equal(body.data, null);
    assert.match(body.errors[0].message, /^Syntax Error/);
  });

  test('batched multipart operations run each operation with its own file', async () => {
    const user = await newUser();
    const operations = [0, 1].map(() => ({
      query: uploadMutation,
      variables: { input: { userId: user.id, file: null } },
    }));
    const { status, body } = await upload([
      { name: 'operations', value: JSON.stringify(operations) },
      {
        name: 'map',
        value: JSON.stringify({ a: ['0.variables.input.file'], b: ['1.variables.input.file'] }),
      },
      { name: 'a', value: png, filename: 'one.png', contentType: 'image/png' },
      { name: 'b', value: pngOfSize(100), filename: 'two.png', contentType: 'image/png' },
    ]);
    assert.equal(status, 200);
    assert.deepEqual(body, [{ data: { uploadProfileImage: true } }, { data: { uploadProfileImage: true } }]);
    const second = await fetch(objectUrl(`${user.id}-two.png`));
    assert.deepEqual(Buffer.from(await second.arrayBuffer()), pngOfSize(100));
  });

  test('one file mapped to two paths (apollo-upload-client does it) gives each use the same bytes', async () => {
    const [ada, bob] = [await newUser(), await newUser('Bob', 'bob@example.com')];
    const query = `mutation ($a: ProfileImage!, $b: ProfileImage!) {
      one: uploadProfileImage(input: $a)
      two: uploadProfileImage(input: $b)
    }`;
    const variables = { a: { userId: ada.id, file: null }, b: { userId: bob.id, file: null } };
    const file = pngOfSize(300_000);
    const { status, body } = await upload([
      { name: 'operations', value: JSON.stringify({ query, variables }) },
      { name: 'map', value: JSON.stringify({ 0: ['variables.a.file', 'variables.b.file'] }) },
      { name: '0', value: file, filename: 'shared.png', contentType: 'image/png' },
    ]);
    assert.equal(status, 200);
    assert.deepEqual(body, { data: { one: true, two: true } });
    for (const user of [ada, bob]) {
      const stored = await fetch(objectUrl(`${user.id}-shared.png`));
      assert.equal(stored.status, 200);
      assert.deepEqual(Buffer.from(await stored.arrayBuffer()), file);
    }
  });

  test('an unknown route is a 404 in the GraphQL error shape', async () => {
    const response = await fetch(`${service.url}/nowhere`);
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), {
      data: null,
      errors: [{ message: 'No route for GET /nowhere' }],
    });
  });
});

describe('size limit', () => {
  let small: TestService<ProfilesSettings>;
  before(async () => {
    small = await startTestService(profiles, {
      env: { ...storeEnv(), PROFILES_MAX_FILE_BYTES: '5000' },
      listen: true,
    });
  });
  after(() => small.close());

  async function smallUpload(file: Buffer, name: string) {
    const { rows } = await small.db.query<{ id: string }>(
      `INSERT INTO profiles.users (id, full_name, email, img_uri, date_created)
       VALUES (gen_random_uuid(), 'S', 's@example.com', 'p', '01-01-2026') RETURNING id`,
    );
    const id = rows[0]?.id as string;
    const { body, contentType } = multipart(uploadParts(id, file, name));
    const response = await fetch(`${small.url}/query`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    return { id, status: response.status, body: (await response.json()) as Json };
  }

  test('a file at the limit is accepted', async () => {
    const result = await smallUpload(pngOfSize(5000), 'exact.png');
    assert.deepEqual(result.body, { data: { uploadProfileImage: true } });
  });

  test('a file over the limit is refused with 413 and not stored', async () => {
    const result = await smallUpload(pngOfSize(5001), 'big.png');
    assert.equal(result.status, 413);
    assert.equal(result.body.data, null);
    assert.equal(result.body.errors[0].message, 'error uploading file: the file is larger than 5000 bytes');
    const encoded = encodeURIComponent(`${result.id}-big.png`);
    const env = storeEnv();
    const where = usingS3
      ? `${env.STORAGE_ENDPOINT}/${env.STORAGE_BUCKET}/${encoded}`
      : `${small.url}/files/${encoded}`;
    assert.equal((await fetch(where)).status, 404);
    if (!usingS3)
      assert.deepEqual(
        readdirSync(path.join(small.dataDir, 'objects')).filter((f) => f.includes(result.id)),
        [],
      );
  });

  test('a file mapped to two paths and over the limit is 413, and not stored', async () => {
    const { rows } = await small.db.query<{ id: string }>(
      `INSERT INTO profiles.users (id, full_name, email, img_uri, date_created)
       VALUES (gen_random_uuid(), 'S', 's@example.com', 'p', '01-01-2026') RETURNING id`,
    );
    const id = rows[0]?.id as string;
    const query = `mutation ($a: ProfileImage!, $b: ProfileImage!) {
      one: uploadProfileImage(input: $a)
      two: uploadProfileImage(input: $b)
    }`;
    const variables = { a: { userId: id, file: null }, b: { userId: id, file: null } };
    const { body, contentType } = multipart([
      { name: 'operations', value: JSON.stringify({ query, variables }) },
      { name: 'map', value: JSON.stringify({ 0: ['variables.a.file', 'variables.b.file'] }) },
      { name: '0', value: pngOfSize(5001), filename: 'big.png', contentType: 'image/png' },
    ]);
    const response = await fetch(`${small.url}/query`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    assert.equal(response.status, 413);
    const answer = (await response.json()) as Json;
    assert.equal(answer.data, null);
    // The first use fails; a failed non-null mutation field stops the ones after it.
    assert.deepEqual(
      answer.errors.map((error: { message: string }) => error.message),
      ['error uploading file: the file is larger than 5000 bytes'],
    );
    if (!usingS3)
      assert.deepEqual(
        readdirSync(path.join(small.dataDir, 'objects')).filter((f) => f.includes(id)),
        [],
      );
  });

  test('a request announcing far more than the limit is refused before it is read', async () => {
    const result = await smallUpload(pngOfSize(2 * 1024 * 1024), 'huge.png');
    assert.equal(result.status, 413);
    assert.match(result.body.errors[0].message, /^error uploading file: the request is larger than/);
  });
});
