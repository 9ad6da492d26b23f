import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { ServiceDefinition } from '../src/platform/service.js';
import { employees } from '../src/services/employees/index.js';
import { posts } from '../src/services/posts/index.js';
import { startTestService, type TestService } from './service.js';

const basic = `Basic ${Buffer.from('ed:ed-pass').toString('base64')}`;

interface Probe {
  socket: Socket;
  received: string;
  closedAt?: number;
}

function open(port: number, sendFirst?: string): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const probe: Probe = { socket, received: '' };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      probe.received += chunk;
    });
    socket.on('close', () => {
      probe.closedAt = Date.now();
    });
    socket.on('error', () => {});
    socket.once('connect', () => {
      if (sendFirst) socket.write(sendFirst);
      resolve(probe);
    });
    socket.once('error', reject);
  });
}

const until = async (check: () => boolean, timeoutMs: number) => {
  for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
};

/** The platform's production timeouts, as every service's server has them. */
function assertConfiguredTimeouts(service: TestService) {
  const server = service.app.server;
  assert.equal(server.requestTimeout, 120_000, 'a whole request (headers and body) must arrive within 120 s');
  assert.equal(server.keepAliveTimeout, 5_000, 'an idle keep-alive connection is closed after 5 s');
  assert.ok(server.headersTimeout > 0 && server.headersTimeout <= 60_000, 'headers must arrive within 60 s');
}

const cases: Array<{
  definition: ServiceDefinition<any>;
  env: Record<string, string>;
  normal: string;
  trickled: (length: number) => string;
}> = [
  {
    definition: posts,
    env: {},
    normal: '/posts/1',
    trickled: (length) =>
      `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
  },
  {
    definition: employees,
    env: { EMPLOYEES_USERS: 'ed:ed-pass:editor' },
    normal: '/api/2/employees/1',
    trickled: (length) =>
      `POST /api/2/create HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
  },
];

for (const { definition, env, normal, trickled } of cases) {
  describe(`${definition.id}: slow clients and idle connections`, () => {
    let service: TestService;
    let port: number;
    before(async () => {
      service = await startTestService(definition, { env });
      assertConfiguredTimeouts(service);
      // The same mechanisms with short limits, so the test need not wait 120 s (or 5 s for keep-alive): Node
      // checks every connection's deadline on an interval that starts when the server listens.
      const server = service.app.server;
      server.requestTimeout = 1_000;
      server.headersTimeout = 1_000;
      server.keepAliveTimeout = 1_500;
      // Not in @types/node, but read by Node's http server when it starts listening.
      Object.assign(server, { connectionsCheckingInterval: 250 });
      await service.app.listen({ port: 0, host: '127.0.0.1' });
      port = (service.app.server.address() as { port: number }).port;
    });
    after(() => service.close());

    test('200 idle connections and a byte-by-byte body neither block others nor stay open forever', async () => {
      // 100 connections that never send a byte, 100 that made one keep-alive request and went quiet.
      const silent = await Promise.all(Array.from({ length: 100 }, () => open(port)));
      const keptAlive = await Promise.all(
        Array.from({ length: 100 }, () => open(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')),
      );
      assert.ok(
        await until(() => keptAlive.every((p) => p.received.startsWith('HTTP/1.1 200')), 5_000),
        'every keep-alive request was answered',
      );
      const answeredAt = Date.now();

      const body = JSON.stringify({ title: 'slow', name: 'slow', age: 30, padding: 'x'.repeat(400) });
      const trickler = await open(port, trickled(Buffer.byteLength(body)));
      const trickleStart = Date.now();
      let sent = 0;
      const timer = setInterval(() => {
        if (trickler.closedAt || sent >= body.length) return clearInterval(timer);
        trickler.socket.write(body[sent++]);
      }, 50);

      try {
        // Meanwhile ordinary clients are answered at once.
        for (let i = 0; i < 5; i++) {
          const started = Date.now();
          const res = await fetch(`http://127.0.0.1:${port}${normal}`);
          assert.equal(res.status, 200);
          await res.arrayBuffer();
          assert.ok(Date.now() - started < 2_000, `an ordinary request took ${Date.now() - started} ms`);
          await new Promise((r) => setTimeout(r, 100));
        }

        // The trickler is cut off by the request timeout with 408, long before its body would have finished.
        assert.ok(
          await until(() => trickler.closedAt !== undefined, 6_000),
          'the trickling client was cut off',
        );
        assert.match(trickler.received, /^HTTP\/1\.1 408/);
        assert.ok(sent < body.length, `cut off after ${sent} of ${body.length} bytes`);
        assert.ok((trickler.closedAt ?? 0) - trickleStart >= 750, 'not before the timeout');

        // Idle keep-alive connections are closed after keepAliveTimeout (1.5 s here, 5 s configured); silent ones
        // by the headers timeout.
        assert.ok(
          await until(() => keptAlive.every((p) => p.closedAt), 9_000),
          'idle keep-alive connections closed',
        );
        const earliest = Math.min(...keptAlive.map((p) => p.closedAt ?? 0)) - answeredAt;
        assert.ok(earliest >= 1_200, `keep-alive connections were kept ${earliest} ms`);
        assert.ok(await until(() => silent.every((p) => p.closedAt), 6_000), 'silent connections closed');
      } finally {
        clearInterval(timer);
        for (const p of [...silent, ...keptAlive, trickler]) p.socket.destroy();
      }

      // The service is still healthy afterwards.
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(res.status, 200);
    });
  });
}
