import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer: { closeAllConnections(): void };
}
// s3rver ships no type declarations.
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: object) => S3rverInstance;

export interface TestS3 {
  /** `http://127.0.0.1:<port>`: use path-style addressing. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKey: string;
  secretKey: string;
  /** The STORAGE_* variables that point the profiles service at this server. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** An s3rver on a free loopback port with one empty bucket, its files in a throwaway directory. */
export async function startS3(bucket = 'backlot-test'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'backlot-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  // s3rver accepts any signature made with its fixed default key pair.
  const accessKey = 'S3RVER';
  const secretKey = 'S3RVER';
  const region = 'us-east-1';
  return {
    endpoint,
    bucket,
    region,
    accessKey,
    secretKey,
    env: {
      STORAGE_ENDPOINT: endpoint,
      STORAGE_REGION: region,
      STORAGE_BUCKET: bucket,
      STORAGE_ACCESS_KEY: accessKey,
      STORAGE_SECRET_KEY: secretKey,
      STORAGE_FORCE_PATH_STYLE: 'true',
      STORAGE_PUBLIC_URL: `${endpoint}/${bucket}/{key}`,
    },
    async stop() {
      server.httpServer.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A fault at the edge: an "S3 endpoint" that answers every request with `status` and an S3 XML error. */
export async function faultyS3Endpoint(status: number, code: string, message: string) {
  const bodyLengths: number[] = [];
  const server = http.createServer((req, res) => {
    let length = 0;
    req.on('data', (chunk: Buffer) => {
      length += chunk.length;
    });
    req.on('end', () => {
      bodyLengths.push(length);
      res.writeHead(status, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => bodyLengths.length,
    /** The byte length of each request body received, in order. */
    bodyLengths: () => [...bodyLengths],
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
