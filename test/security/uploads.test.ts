import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Backlot, start } from '../../src/index.js';
import { harnessEnv } from '../harness.js';
import { multipart, png, pngOfSize, uploadParts } from '../profiles.js';
import { basic } from './fixtures.js';

// Uploads as an attacker (or an unlucky operator) meets them: who may send a body, what an image may cost, whose
// files a reset touches, what a killed upload leaves. On the embedded store, and on S3 under test/with-services.ts.

describe('object ownership: each service resets and restores only its own files', () => {
  let b: Backlot;
  before(async () => {
    b = await start({ services: ['profiles', 'content'], env: await harnessEnv() });
  });
  after(() => b?.close());

  const admin = () => {
    const c = b.services.content!.credentials;
    return basic(c.username!, c.applicationPassword!);
  };
  const uploadMedia = async (name: string) => {
    const res = await fetch(`${b.url('content')}/wp-json/wp/v2/media`, {
      method: 'POST',
      headers: {
        authorization: admin(),
        'content-type': 'image/png',
        'content-disposition': `attachment; filename="${name}"`,
      },
      body: png,
    });
    assert.equal(res.status, 201);
    return (await res.json()) as { id: number; source_url: string };
  };
  const fetchBytes = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  test("resetting profiles keeps content's media files; restoring content's checkpoint brings a deleted one back", async () => {
    const media = await uploadMedia('kept.png');
    assert.deepEqual(await fetchBytes(media.source_url), { status: 200, bytes: png });

    await b.reset(['profiles']);
    assert.deepEqual(await fetchBytes(media.source_url), { status: 200, bytes: png });

    await b.checkpoint('with-media', ['content']);
    const deleted = await fetch(`${b.url('content')}/wp-json/wp/v2/media/${media.id}?force=true`, {
      method: 'DELETE',
      headers: { authorization: admin() },
    });
    assert.equal(deleted.status, 200);
    assert.equal((await fetchBytes(media.source_url)).status, 404);

    await b.restore('with-media', ['content']);
    const row = await fetch(`${b.url('content')}/wp-json/wp/v2/media/${media.id}`);
    assert.equal(row.status, 200);
    assert.deepEqual(await fetchBytes(media.source_url), { status: 200, bytes: png });

    // And the other way round: content's reset removes its media, and leaves profiles' images alone.
    const user = await fetch(`${b.url('profiles')}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation ($i: NewUser!) { createUser(input: $i) { id } }',
        variables: { i: { fullName: 'Ada', email: 'ada@example.com' } },
      }),
    });
    const id = ((await user.json()) as { data: { createUser: { id: string } } }).data.createUser.id;
    const { body, contentType } = multipart(uploadParts(id, png, 'ada.png'));
    const uploaded = await fetch(`${b.url('profiles')}/query`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    assert.deepEqual(await uploaded.json(), { data: { uploadProfileImage: true } });
    const listed = await fetch(`${b.url('profiles')}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ users { id img_uri } }' }),
    });
    const users = ((await listed.json()) as { data: { users: { id: string; img_uri: string }[] } }).data
      .users;
    const image = users.find((u) => u.id === id)!.img_uri;

    await b.reset(['content']);
    assert.equal((await fetchBytes(media.source_url)).status, 404);
    assert.deepEqual(await fetchBytes(image), { status: 200, bytes: png });
  });

  test("profiles cannot write into content's files: a user id naming content's folder is refused", async () => {
    const media = await uploadMedia('tar-get.png');
    // `<userId>-<filename>` is the key: this one would be content's `content/uploads/<year>/<month>/tar-get.png`.
    const key = new URL(media.source_url).pathname.split('/uploads/')[1] ?? '';
    const userId = `content/uploads/${key.slice(0, key.lastIndexOf('/'))}/tar`;
    const { body, contentType } = multipart(uploadParts(userId, pngOfSize(300), 'get.png'));
    const res = await fetch(`${b.url('profiles')}/query`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    const answer = (await res.json()) as { errors: { message: string }[] };
    assert.match(
      answer.errors[0]!.message,
      /^error uploading file: the key ".*" \(<userId>-<filename>\) is reserved/,
    );
    assert.deepEqual(await fetchBytes(media.source_url), { status: 200, bytes: png });
  });
});

describe('partial uploads a killed process left', () => {
  test('are removed when a service opens the store; a live upload of this process is not', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backlot-partials-'));
    // The id of a process that has exited, as a backlot killed with SIGKILL mid-upload.
    const gone = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    const objects = path.join(dataDir, 'objects');
    const staging = path.join(objects, '.uploading');
    mkdirSync(staging, { recursive: true });
    const left = [
      path.join(staging, `${gone}-0a1b2c.partial`),
      // Where versions before 2026-11 wrote them: beside the objects.
      path.join(objects, `content%2Fuploads%2F2026%2F11%2Fbig.png.${gone}.1764280000000.partial`),
    ];
    const live = path.join(staging, `${process.pid}-3d4e5f.partial`);
    for (const file of [...left, live]) writeFileSync(file, 'half an upload');
    const tmpSpool = path.join(tmpdir(), `backlot-upload-${gone}-x1y2z3`);
    mkdirSync(tmpSpool, { recursive: true });
    writeFileSync(path.join(tmpSpool, 'body'), 'half an upload');
    const b = await start({ services: ['content'], dataDir, env: await harnessEnv() });
    try {
      if (process.env.BACKLOT_TEST_S3_ENDPOINT) {
        // With a bucket, uploads wait in the system's temporary folder: a killed process's folder goes.
        assert.equal(existsSync(tmpSpool), false);
      } else {
        assert.deepEqual(
          left.map((file) => existsSync(file)),
          [false, false],
        );
        assert.equal(existsSync(live), true);
      }
    } finally {
      await b.close();
      rmSync(tmpSpool, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
