import { randomBytes } from 'node:crypto';
import type { Env } from '../src/config.js';

/** A real 1x1 PNG. */
export const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A PNG padded to `size` bytes (still judged a PNG by its signature). */
export const pngOfSize = (size: number) =>
  Buffer.concat([png, Buffer.alloc(Math.max(0, size - png.length), 7)]);

export const uploadMutation = 'mutation ($input: ProfileImage!) { uploadProfileImage(input: $input) }';

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body laid out the way curl -F sends it. */
export function multipart(parts: Part[]) {
  const boundary = `------------------------${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The three parts of an upload request: operations, map, then the file. */
export function uploadParts(userId: string | null, file: Buffer, filename = 'avatar.png'): Part[] {
  return [
    {
      name: 'operations',
      value: JSON.stringify({ query: uploadMutation, variables: { input: { userId, file: null } } }),
    },
    { name: 'map', value: JSON.stringify({ 0: ['variables.input.file'] }) },
    { name: '0', value: file, filename, contentType: 'image/png' },
  ];
}

/** STORAGE_* for the S3 server that test/with-services.ts started, if any; else the embedded store. */
export function storeEnv(): Env {
  const endpoint = process.env.BACKLOT_TEST_S3_ENDPOINT;
  if (!endpoint) return {};
  const bucket = process.env.BACKLOT_TEST_S3_BUCKET ?? 'backlot-test';
  return {
    STORAGE_ENDPOINT: endpoint,
    STORAGE_REGION: process.env.BACKLOT_TEST_S3_REGION ?? 'us-east-1',
    STORAGE_BUCKET: bucket,
    STORAGE_ACCESS_KEY: process.env.BACKLOT_TEST_S3_ACCESS_KEY ?? 'S3RVER',
    STORAGE_SECRET_KEY: process.env.BACKLOT_TEST_S3_SECRET_KEY ?? 'S3RVER',
    STORAGE_FORCE_PATH_STYLE: 'true',
    STORAGE_PUBLIC_URL: `${endpoint}/${bucket}/{key}`,
  };
}
