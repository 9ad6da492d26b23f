import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client, fetchExchange } from '@urql/core';
import { png, storeEnv, uploadMutation } from '../../../test/profiles.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { profiles } from './index.js';
import type { ProfilesSettings } from './settings.js';

let service: TestService<ProfilesSettings>;
before(async () => {
  service = await startTestService(profiles, { env: storeEnv(), listen: true });
});
after(() => service.close());

test('@urql/core creates a user and uploads a File through the multipart request spec', async () => {
  const client = new Client({ url: `${service.url}/query`, exchanges: [fetchExchange] });
  const created = await client
    .mutation('mutation ($input: NewUser!) { createUser(input: $input) { id fullName img_uri } }', {
      input: { fullName: 'Urql User', email: 'urql@example.com' },
    })
    .toPromise();
  assert.equal(created.error, undefined);
  const id = created.data.createUser.id as string;
  assert.equal(created.data.createUser.img_uri, 'https://bit.ly/3mCSn2i');

  const file = new File([png], 'from-urql.png', { type: 'image/png' });
  const uploaded = await client.mutation(uploadMutation, { input: { userId: id, file } }).toPromise();
  assert.equal(uploaded.error, undefined);
  assert.deepEqual(uploaded.data, { uploadProfileImage: true });

  const listed = await client
    .query('{ users { id img_uri } }', {}, { requestPolicy: 'network-only' })
    .toPromise();
  const imgUri = listed.data.users.find((u: { id: string }) => u.id === id).img_uri as string;
  assert.ok(imgUri.endsWith(`/${encodeURIComponent(`${id}-from-urql.png`)}`), imgUri);
  const stored = await fetch(imgUri);
  assert.deepEqual(Buffer.from(await stored.arrayBuffer()), png);
});

test('@urql/core sees the error prefix of a failed upload', async () => {
  const client = new Client({ url: `${service.url}/query`, exchanges: [fetchExchange] });
  const file = new File([png], 'nobody.png', { type: 'image/png' });
  const result = await client.mutation(uploadMutation, { input: { userId: 'nobody', file } }).toPromise();
  assert.equal(result.data, null);
  assert.equal(result.error?.graphQLErrors[0]?.message, 'error getting user: no user has id "nobody"');
});
