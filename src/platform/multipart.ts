import { createWriteStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';

/**
 * What both upload routes (profiles' GraphQL multipart requests, content's media) share: busboy with limits, one
 * way to discard a body or a file part, one base-name rule for clients' file names, and a body that is read only
 * once the caller is known.
 */

export interface BusboyFileInfo {
  filename: string;
  encoding: string;
  mimeType: string;
}
export interface Busboy extends NodeJS.WritableStream {
  on(
    event: 'field',
    listener: (
      name: string,
      value: string,
      info: { valueTruncated: boolean; encoding: string; mimeType: string },
    ) => void,
  ): this;
  on(
    event: 'file',
    listener: (name: string, stream: Readable & { truncated?: boolean }, info: BusboyFileInfo) => void,
  ): this;
  on(event: 'filesLimit' | 'fieldsLimit' | 'partsLimit' | 'close', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  destroy(error?: Error): void;
}
// busboy arrives with graphql-upload-minimal and ships no type declarations.
const busboy = createRequire(import.meta.url)('busboy') as (options: object) => Busboy;

export interface MultipartLimits {
  /** Per file: a larger file is cut off and reported (`truncated`). */
  fileSize: number;
  files: number;
  fields: number;
  /** Per text field. */
  fieldSize: number;
}

/** A busboy parser for `headers` with `limits`; throws when the Content-Type is not a usable multipart type. */
export function multipartParser(headers: Record<string, unknown>, limits: MultipartLimits): Busboy {
  return busboy({
    headers,
    defParamCharset: 'utf8',
    limits: { ...limits, parts: limits.files + limits.fields },
  });
}

/**
 * Reads and discards the rest of a stream (a file part, or a body nobody will read). Destroying a busboy file
 * stream instead would stall the parser, and with it the request, since busboy waits for every file stream.
 */
export function drainFile(stream: Readable) {
  if (stream.readableEnded || stream.destroyed) return;
  stream.removeAllListeners('readable');
  stream.on('data', () => {});
  stream.on('error', () => {});
  stream.resume();
}

/** How much of a body no one reads is still taken in after the answer, so a client still sending sees it. */
export interface DrainBound {
  bytes: number;
  ms: number;
}
export const answerDrain: DrainBound = { bytes: 1024 * 1024, ms: 5_000 };

/**
 * For an answer given before the body was read (a 401, a 413): reads and discards what the client still sends,
 * up to `bound` bytes or milliseconds, and then closes the connection, once the answer has left. Closing at once
 * would make a client that is still writing fail with EPIPE before it reads the answer; reading all of it would
 * let anyone hold a connection (and the bandwidth) with a body they are not allowed to send.
 */
export function drainAfterAnswer(req: IncomingMessage, res: ServerResponse, bound: DrainBound = answerDrain) {
  if (req.readableEnded || req.destroyed) return;
  let received = 0;
  let over = false;
  const close = () => {
    over = true;
    clearTimeout(timer);
    // A request injected in tests (light-my-request) has no real socket: it is just no longer read.
    const hangUp = () =>
      typeof req.socket?.destroy === 'function'
        ? req.socket.destroy()
        : req.removeAllListeners('data').pause();
    if (res.writableFinished) hangUp();
    else res.once('finish', hangUp);
  };
  const timer = setTimeout(close, bound.ms);
  timer.unref();
  req.removeAllListeners('readable');
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > bound.bytes && !over) close();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.on('error', () => {});
  req.resume();
}

/** A body longer than the route's limit; `limit` in bytes. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the body is larger than ${limit} bytes`);
  }
}

/**
 * Writes `stream` to `file`, failing with BodyTooLarge as soon as more than `maxBytes` arrived (what came is
 * kept in the file for the caller to remove). Resolves with the size.
 */
export function spoolTo(stream: Readable, file: string, maxBytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file, { mode: 0o600 });
    let size = 0;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      stream.unpipe(out);
      out.destroy();
      reject(error);
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) fail(new BodyTooLarge(maxBytes));
    });
    stream.on('error', fail);
    out.on('error', fail);
    out.on('finish', () => {
      if (!failed) resolve(size);
    });
    stream.pipe(out);
  });
}

/**
 * The one rule for a client's file name: its base name (no directories, either slash), without control
 * characters, trimmed; '' when nothing usable is left (also for `.` and `..`). Services narrow it further.
 */
export function baseFileName(name: string | undefined) {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return cleaned === '.' || cleaned === '..' ? '' : cleaned;
}
