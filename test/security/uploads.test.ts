import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { type Backlot, start } from '../../src/index.js';
import { runCommand } from '../../src/platform/commands.js';
import { imageStats } from '../../src/services/content/image-sizes.js';
import { content } from '../../src/services/content/index.js';
import { harnessEnv } from '../harness.js';
import { gradient } from '../images.js';
import { multipart, png, pngOfSize, storeEnv, uploadParts } from '../profiles.js';
import type { TestService } from '../service.js';
import { basic, contentAppPassword, startSecured } from './fixtures.js';

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

/** A raw HTTP/1.1 request whose body is sent only in part: what comes back, and whether the server hung up. */
function partialUpload(
  url: string,
  headers: Record<string, string>,
  declared: number,
  sentFirst: number,
  query = '',
) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  const head = [
    `POST /wp-json/wp/v2/media${query} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    `Content-Length: ${declared}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  socket.write(head);
  socket.write(Buffer.alloc(sentFirst, 1));
  let received = Buffer.alloc(0);
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? -1);
      if (end >= 0 && length >= 0 && received.length >= end + 4 + length)
        resolve({ status: Number(text.slice(9, 12)), body: text.slice(end + 4, end + 4 + length) });
    });
    socket.on('close', () => reject(new Error(`closed before an answer: ${received.toString('latin1')}`)));
  });
  /** Keeps sending the rest in 64 KiB pieces; resolves with how much was written before the server hung up. */
  const sendRest = () =>
    new Promise<{ written: number; closed: boolean }>((resolve) => {
      let written = sentFirst;
      socket.once('close', () => resolve({ written, closed: true }));
      const more = () => {
        while (written < declared && !socket.destroyed) {
          const piece = Math.min(64 * 1024, declared - written);
          written += piece;
          if (!socket.write(Buffer.alloc(piece, 2))) return void socket.once('drain', more);
        }
        if (written >= declared) resolve({ written, closed: socket.destroyed });
      };
      more();
    });
  return { answer, sendRest, socket };
}

describe('uploads refused before their body is read (issue 35, item 8)', () => {
  let service: TestService;
  const logins: Record<string, string> = {};
  before(async () => {
    service = await startSecured('content', { listen: true, env: storeEnv() });
    for (const login of ['contributor', 'author']) {
      const password = await runCommand(content, ['app-password', 'create', '--user', login], service.ctx);
      logins[login] = basic(login, password);
    }
  });
  after(() => service?.close());

  for (const [who, login, query, status, code] of [
    ['anonymous', undefined, '', 401, 'rest_cannot_create'],
    ['a contributor (no upload_files)', 'contributor', '', 403, 'rest_cannot_create'],
    ["an author attaching it to another's post", 'author', '?post=1', 403, 'rest_cannot_edit'],
  ] as const) {
    test(`${who}: ${status} while the 32 MiB body is still unsent, then at most a bounded drain`, async () => {
      const auth: Record<string, string> = login ? { authorization: logins[login] as string } : {};
      const declared = 32 * 1024 * 1024;
      const request = partialUpload(
        service.url,
        { ...auth, 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="big.png"' },
        declared,
        1024,
        query,
      );
      try {
        // Only 1 KiB of 32 MiB has been sent: the answer cannot have waited for the body. (The bound only keeps
        // a server that waits for the body from hanging the test until its 120 s request timeout.)
        const answer = await Promise.race([
          request.answer,
          delay(20_000, undefined, { ref: false }).then(() =>
            assert.fail('no answer while the body was still unsent'),
          ),
        ]);
        assert.equal(answer.status, status);
        assert.equal(JSON.parse(answer.body).code, code);
        // A client that keeps writing is read for a while (it saw the answer), then the server hangs up.
        const rest = await request.sendRest();
        assert.equal(rest.closed, true);
        assert.ok(rest.written < declared, `${rest.written} of ${declared} bytes were taken in`);
      } finally {
        request.socket.destroy();
      }
    });
  }
});

describe('the upload size cap, with the body streamed (issue 35, item 8)', () => {
  let service: TestService;
  const admin = { authorization: basic('admin', contentAppPassword) };
  before(async () => {
    service = await startSecured('content', {
      listen: true,
      env: { ...storeEnv(), CONTENT_MAX_UPLOAD_BYTES: '65536' },
    });
  });
  after(() => service?.close());

  test('a declared or a chunked body over CONTENT_MAX_UPLOAD_BYTES is 413 and nothing is stored', async () => {
    const tooBig = {
      code: 'rest_upload_file_too_big',
      message: 'This file is too big. Files must be less than 64 KB in size.',
      data: { status: 413 },
    };
    const headers = {
      ...admin,
      'content-type': 'image/png',
      'content-disposition': 'attachment; filename="b.png"',
    };
    const declared = await fetch(`${service.url}/wp-json/wp/v2/media`, {
      method: 'POST',
      headers,
      body: pngOfSize(65_537),
    });
    assert.equal(declared.status, 413);
    assert.deepEqual(await declared.json(), tooBig);
    // No Content-Length: the cap is met while the body streams in.
    const chunks = [pngOfSize(40_000), Buffer.alloc(40_000, 3)];
    const chunked = await fetch(`${service.url}/wp-json/wp/v2/media`, {
      method: 'POST',
      headers,
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    assert.equal(chunked.status, 413);
    assert.deepEqual(await chunked.json(), tooBig);
    const listed = await fetch(`${service.url}/wp-json/wp/v2/media`);
    assert.deepEqual(await listed.json(), []);
    // One at the cap is taken.
    const fits = await fetch(`${service.url}/wp-json/wp/v2/media`, {
      method: 'POST',
      headers,
      body: pngOfSize(65_536),
    });
    assert.equal(fits.status, 201);
    assert.equal(
      ((await fits.json()) as { media_details: { filesize: number } }).media_details.filesize,
      65_536,
    );
  });
});

/** A 38-byte WebP (an extended header, VP8X) that claims `width`×`height` pixels. */
function webpClaiming(width: number, height: number) {
  const file = Buffer.alloc(38);
  file.write('RIFF', 0, 'latin1');
  file.writeUInt32LE(30, 4);
  file.write('WEBPVP8X', 8, 'latin1');
  file.writeUInt32LE(10, 16);
  file.writeUIntLE(width - 1, 24, 3);
  file.writeUIntLE(height - 1, 27, 3);
  file.write('VP8L', 30, 'latin1');
  return file;
}

/** A small JPEG whose frame header claims `width`×`height` pixels: quantisation, frame and a scan of nothing. */
function jpegClaiming(width: number, height: number) {
  const segment = (marker: number, body: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([head, body]);
  };
  const frame = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  frame.writeUInt16BE(height, 1);
  frame.writeUInt16BE(width, 3);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    segment(0xc0, frame),
    segment(0xc4, Buffer.concat([Buffer.from([0]), Buffer.alloc(16, 0), Buffer.alloc(0)])),
    segment(0xda, Buffer.from([1, 1, 0, 0, 63, 0])),
    Buffer.alloc(150, 0),
    Buffer.from([0xff, 0xd9]),
  ]);
}

describe('image work (issue 35, item 9)', () => {
  let service: TestService;
  const admin = { authorization: basic('admin', contentAppPassword) };
  before(async () => {
    service = await startSecured('content', { env: storeEnv() });
  });
  after(() => service?.close());

  const upload = (bytes: Buffer, name: string, type: string) =>
    service.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/media',
      headers: { ...admin, 'content-type': type, 'content-disposition': `attachment; filename="${name}"` },
      payload: bytes,
    });

  test('pixel bombs (10000×10000 in a few bytes) are refused with 400 before any decoding', async () => {
    const before = imageStats.decodes;
    for (const [bytes, name, type] of [
      [webpClaiming(10_000, 10_000), 'bomb.webp', 'image/webp'],
      [jpegClaiming(10_000, 10_000), 'bomb.jpg', 'image/jpeg'],
    ] as const) {
      const res = await upload(bytes, name, type);
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), {
        code: 'rest_upload_image_too_large',
        message: 'The image is 10000 × 10000 pixels; this site resizes images of up to 40 megapixels.',
        data: { status: 400 },
      });
    }
    assert.equal(imageStats.decodes, before);
    const listed = await service.app.inject({ method: 'GET', url: '/wp-json/wp/v2/media' });
    assert.deepEqual(listed.json(), []);
  });

  test('an image is decoded once for all its sizes, and images are resized one at a time', async () => {
    const photo = await gradient(1600, 1200).jpeg().toBuffer();
    const before = imageStats.decodes;
    imageStats.mostAtOnce = 0;
    const answers = await Promise.all([1, 2, 3].map((n) => upload(photo, `photo-${n}.jpg`, 'image/jpeg')));
    for (const res of answers) {
      assert.equal(res.statusCode, 201, res.body);
      // medium, large, thumbnail, medium_large and 1536x1536: five copies from one decode.
      assert.deepEqual(Object.keys(res.json().media_details.sizes).sort(), [
        '1536x1536',
        'full',
        'large',
        'medium',
        'medium_large',
        'thumbnail',
      ]);
    }
    assert.equal(imageStats.decodes - before, 3);
    assert.equal(imageStats.mostAtOnce, 1);
  });
});
