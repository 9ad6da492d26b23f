import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { list } from '../../src/services/list/index.js';
import { posts } from '../../src/services/posts/index.js';
import { startTestService, type TestService } from '../service.js';

const run = promisify(execFile);

/**
 * POSTs `mib` MiB `tries` times over real sockets with Node's http client, in another process (a client sharing the
 * server's event loop never races it), writing 64 KiB chunks as a client streaming a file does; every fourth try
 * is chunked (no Content-Length). Prints, per try, the status it got or the socket error it saw instead (EPIPE).
 */
const client = `
import { request } from 'node:http';
const [url, mib, tries] = process.argv.slice(1);
const size = Number(mib) * 1024 * 1024;
const chunk = Buffer.alloc(64 * 1024, 'x');
const post = (chunked) => new Promise((resolve) => {
  const headers = { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': size }) };
  const req = request(url, { method: 'POST', headers }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
  });
  req.on('error', (error) => resolve(error.code ?? error.message));
  let sent = 0;
  const write = () => {
    while (sent < size) {
      sent += chunk.length;
      if (!req.write(chunk)) return void req.once('drain', write);
    }
    req.end();
  };
  write();
});
const seen = [];
for (let i = 0; i < Number(tries); i++) seen.push(await post(i % 4 === 3));
console.log(JSON.stringify(seen));
`;

async function postLarge(url: string, mib: number, tries: number): Promise<(number | string)[]> {
  const args = ['--input-type=module', '-e', client, url, String(mib), String(tries)];
  const { stdout } = await run(process.execPath, args, { timeout: 60_000 });
  return JSON.parse(stdout);
}

for (const [definition, url] of [
  [list, '/list'],
  [posts, '/posts'],
] as const) {
  describe(`${definition.id}: a body far over the limit`, () => {
    let service: TestService;
    before(async () => {
      service = await startTestService(definition as typeof list, {
        listen: true,
        env: { LIST_DELAY_MS: '0' },
      });
    });
    after(async () => {
      await service.close();
    });

    test('is answered 413 on every one of 20 tries, never EPIPE or a reset, with or without Content-Length', async () => {
      assert.deepEqual(await postLarge(service.url + url, 4, 20), Array(20).fill(413));
    });
  });
}
