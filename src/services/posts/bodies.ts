import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const jsonType = 'application/json; charset=utf-8';
export const cacheControl = 'max-age=43200';

/** Below this size compression saves less than the header costs. */
const compressFrom = 1024;

/** One response body with its validator, and the compressed forms made of it so far. */
export interface Body {
  type: string;
  identity: Buffer;
  /**
   * The identity body as the string it was made from, kept only for bodies too small to compress: node:http writes
   * a string body together with its head in one write, about 5% more answers a second for a 355-byte item (a
   * Buffer goes out as a second piece, which costs more than copying a few hundred bytes; bench/peers/ceiling.ts).
   */
  text?: string;
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
  /** What the fast path sends after the common headers, per encoding, made on first use (`answerHead`). */
  heads?: Partial<Record<Encoding, string[]>>;
}

/** json-server (and so the public API) pretty-prints with two spaces. */
export const toJson = (value: unknown) => JSON.stringify(value, null, 2);

const etagOf = (data: Buffer) => `W/"${createHash('sha1').update(data).digest('base64url')}"`;

const brotliOptions = (size: number, quality: number) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
});

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** A body and its validator; compressed forms are made when first asked for (`encodeNow`, `encode`). */
export function bodyOf(text: string | Buffer, type = jsonType): Body {
  const identity = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const body: Body = { type, identity, etag: etagOf(identity) };
  if (typeof text === 'string' && identity.length < compressFrom) body.text = text;
  return body;
}

/** Whether clients get this body compressed when they accept it. */
export const compressible = (body: Body) => body.identity.length >= compressFrom;

export type Encoding = 'br' | 'gzip' | 'identity';

/** Up to this size a body is compressed on the spot at the best level: about a millisecond, paid once. */
const compressNowUpTo = 64 * 1024;

/**
 * `body` in `encoding` if it is ready or small enough to compress right away (kept on the body); undefined for a
 * large body not compressed yet, which `encode` compresses off the event loop.
 */
export function encodeNow(body: Body, encoding: Encoding): Buffer | undefined {
  if (encoding === 'identity') return body.identity;
  const done = body[encoding];
  if (done || body.identity.length > compressNowUpTo) return done;
  const { identity } = body;
  body[encoding] =
    encoding === 'br'
      ? brotliCompressSync(identity, brotliOptions(identity.length, 9))
      : gzipSync(identity, { level: 9 });
  return body[encoding];
}

/**
 * `body` in `encoding`, made once and kept on the body. Large bodies (the photo lists, `/db`) are compressed on
 * the thread pool at level 6, so requests keep flowing meanwhile: brotli 6 is 3-4x faster than 9 for 3% more bytes.
 */
export async function encode(body: Body, encoding: Encoding): Promise<Buffer> {
  const now = encodeNow(body, encoding);
  if (now) return now;
  const { identity } = body;
  const made =
    encoding === 'br'
      ? await brotliAsync(identity, brotliOptions(identity.length, 6))
      : await gzipAsync(identity, { level: 6 });
  body[encoding as 'br' | 'gzip'] ??= made;
  return body[encoding as 'br' | 'gzip'] as Buffer;
}

/** A small body (an image) with its compressed forms made now. */
export function precompute(data: Buffer, type: string): Body {
  const body = bodyOf(data, type);
  if (compressible(body)) for (const encoding of ['gzip', 'br'] as const) encodeNow(body, encoding);
  return body;
}

/** Clients send the same few Accept-Encoding values again and again; bounded (count and length): client input. */
const negotiated = new Map<string, Encoding>();

/** Picks br, then gzip, from Accept-Encoding (a `q=0` refuses a coding). */
export function negotiate(header: string | undefined): Encoding {
  if (!header) return 'identity';
  let encoding = negotiated.get(header);
  if (encoding === undefined) {
    encoding = pick(header);
    if (header.length > 256) return encoding;
    if (negotiated.size >= 64) negotiated.clear();
    negotiated.set(header, encoding);
  }
  return encoding;
}

function pick(header: string): Encoding {
  let gzipOk = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    if (refused) continue;
    if (name === 'br') return 'br';
    if (name === 'gzip' || name === '*') gzipOk = true;
  }
  return gzipOk ? 'gzip' : 'identity';
}

/** RFC 9110 weak comparison against an If-None-Match list. */
function matches(ifNoneMatch: string | undefined, etag: string) {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .some((candidate) => candidate.trim() === '*' || candidate.trim().replace(/^W\//, '') === bare);
}

/** The encoding `body` is sent in to a client that sent `requestHeaders`. */
export const encodingFor = (body: Body, requestHeaders: IncomingHttpHeaders): Encoding =>
  compressible(body) ? negotiate(requestHeaders['accept-encoding']) : 'identity';

/**
 * Adds to `headers` what a cacheable GET of `body` in `encoding` answers with (appending to its Vary).
 * Conditional requests are sendBody's business.
 */
export function answerHeaders(body: Body, encoding: Encoding, headers: OutgoingHttpHeaders) {
  headers['cache-control'] = cacheControl;
  headers.etag = body.etag;
  if (compressible(body))
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  headers['content-type'] = body.type;
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
}

/** The Vary of an answer of `body`: CORS's Origin, and Accept-Encoding when the body may come compressed. */
export const varyOf = (body: Body) => (compressible(body) ? 'Origin, Accept-Encoding' : 'Origin');

/**
 * What `answerHeaders` adds for `body` sent as `payload` in `encoding` (Vary aside: see `varyOf`) and its
 * Content-Length, as a flat list of names and values in the same order; made once per body and encoding.
 */
export function answerHead(body: Body, encoding: Encoding, payload: Buffer): readonly string[] {
  body.heads ??= {};
  const heads = body.heads;
  let head = heads[encoding];
  if (!head) {
    head = ['cache-control', cacheControl, 'etag', body.etag, 'content-type', body.type];
    if (encoding !== 'identity') head.push('content-encoding', encoding);
    head.push('content-length', String(payload.length));
    heads[encoding] = head;
  }
  return head;
}

function addVary(reply: FastifyReply, value: string) {
  const current = reply.getHeader('vary');
  reply.header('vary', current ? `${current}, ${value}` : value);
}

/**
 * Sends a cacheable GET body: 304 when the client has it, otherwise the smallest encoding it accepts, made by
 * `encoder` (the posts cache's, which counts what it keeps).
 */
export async function sendBody(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Body,
  encoder: (body: Body, encoding: Encoding) => Promise<Buffer> = encode,
) {
  if (matches(request.headers['if-none-match'], body.etag)) {
    reply.header('cache-control', cacheControl).header('etag', body.etag);
    if (compressible(body)) addVary(reply, 'Accept-Encoding');
    return reply.code(304).send();
  }
  const headers: OutgoingHttpHeaders = {};
  const vary = reply.getHeader('vary');
  if (typeof vary === 'string') headers.vary = vary;
  const encoding = encodingFor(body, request.headers);
  const payload = await encoder(body, encoding);
  answerHeaders(body, encoding, headers);
  return reply.headers(headers as Record<string, string>).send(payload);
}
