import path from 'node:path';
import { freePort } from '../support/postgres.js';
import { startS3 } from '../support/s3.js';
import { compare } from './lib/compare.js';
import { type BenchContext, launch } from './lib/context.js';
import { startServer } from './lib/server.js';
import { startBacklot } from './lib/targets.js';

const usersQuery = JSON.stringify({ query: '{ users { id fullName email img_uri DateCreated } }' });

/** A multipart upload as curl -F sends it: operations, map, then the file. */
function uploadBody(userId: string, bytes: Buffer) {
  const boundary = '----backlotbench';
  const operations = JSON.stringify({
    query:
      'mutation ($file: Upload!, $id: String) { uploadProfileImage(input: { userId: $id, file: $file }) }',
    variables: { file: null, id: userId },
  });
  const part = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    part('operations', operations) +
      part('map', JSON.stringify({ 0: ['variables.file'] })) +
      `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  return { body: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), boundary };
}

/** A PNG signature followed by filler: judged an image by its bytes. */
function fakePng(size: number) {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(bytes);
  return bytes;
}

async function profiles(ctx: BenchContext) {
  const s3 = await startS3('bench');
  const url = ctx.postgres.url;
  const backlot = await startBacklot(
    launch(ctx),
    ['profiles'],
    {
      DATABASE_URL: url,
      ...s3.env,
    },
    '/readyz',
  );
  const port = await freePort();
  const apollo = await startServer(
    'Apollo Server 5',
    [process.execPath, '--import', 'tsx', path.resolve(import.meta.dirname, 'peers/apollo.ts')],
    {
      url: `http://127.0.0.1:${port}`,
      readyPath: '/?query=%7B__typename%7D',
      env: { DATABASE_URL: url, PORT: String(port) },
    },
  );
  try {
    const headers = { 'content-type': 'application/json', 'apollo-require-preflight': 'true' };
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${backlot.url}/query`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          query: 'mutation ($u: NewUser!) { createUser(input: $u) { id } }',
          variables: { u: { fullName: `User ${i}`, email: `user${i}@example.com` } },
        }),
      });
      ids.push(((await res.json()) as { data: { createUser: { id: string } } }).data.createUser.id);
    }
    const request = { method: 'POST', path: '/query', headers, body: usersQuery };
    await compare(
      ctx,
      'profiles',
      '{ users {…} } over 100 users',
      request,
      [
        { name: 'backlot', server: backlot, url: backlot.url },
        { name: 'Apollo Server 5', server: apollo, url: apollo.url, request: { ...request, path: '/' } },
      ],
      'target ≥ 2× Apollo',
    );

    // 20 concurrent 10 MB uploads: throughput, and how far the server's memory grows (streaming, not buffering).
    const fileSize = ctx.smoke ? 256 * 1024 : 10 * 1024 * 1024;
    const count = ctx.smoke ? 4 : 20;
    const rssBefore = backlot.rssMiB();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) => {
        const { body, boundary } = uploadBody(ids[i], fakePng(fileSize));
        return fetch(`${backlot.url}/query`, {
          method: 'POST',
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'apollo-require-preflight': 'true',
          },
          body,
        }).then(
          async (r) =>
            ((await r.json()) as { data?: { uploadProfileImage?: boolean } }).data?.uploadProfileImage,
        );
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const ok = results.filter((r) => r === true).length;
    const peakGrowth = backlot.peakRssMiB() - rssBefore;
    ctx.report.add({
      group: 'profiles',
      scenario: `${count} concurrent ${(fileSize / 1024 / 1024).toFixed(2)} MB uploads to S3 (s3rver)`,
      server: 'backlot',
      peakRssMiB: backlot.peakRssMiB(),
      note: `${ok}/${count} stored; ${((count * fileSize) / 1024 / 1024 / seconds).toFixed(1)} MB/s; peak RSS grew ${peakGrowth.toFixed(0)} MB (target < 150 MB)`,
    });
  } finally {
    await Promise.all([backlot.stop(), apollo.stop()]);
    await s3.stop();
  }
}

export const profilesGroups = { profiles };
