import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const jsonType = 'application/json; charset=utf-8';
export const cacheControl = 'max-age=43200';

/** Below this size compression saves less than the header costs. */
const compressFrom = 1024;

/** One response body in every encoding a client may ask for, with its validator. */
export interface Body {
  type: string;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
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

/** Built once at startup: the best compression is worth it because it is paid only once. */
export function precompute(text: string | Buffer, type = jsonType): Body {
  const identity = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const body: Body = { type, identity, etag: etagOf(identity) };
  if (identity.length >= compressFrom) {
    body.gzip = gzipSync(identity, { level: 9 });
    body.br = brotliCompressSync(identity, brotliOptions(identity.length, 9));
  }
  return body;
}

/**
 * The same as `precompute`, compressing on the thread pool so requests keep flowing meanwhile.
 * For the per-origin photo bodies (about 1 MB each): brotli 6 is 3-4x faster than 9 for 3% more bytes.
 */
export async function precomputeAsync(text: string, type = jsonType): Promise<Body> {
  const identity = Buffer.from(text);
  const body: Body = { type, identity, etag: etagOf(identity) };
  if (identity.length >= compressFrom) {
    [body.gzip, body.br] = await Promise.all([
      gzipAsync(identity, { level: 6 }),
      brotliAsync(identity, brotliOptions(identity.length, 6)),
    ]);
  }
  return body;
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** Picks br, then gzip, from Accept-Encoding (a `q=0` refuses a coding). */
export function negotiate(header: string | undefined): Encoding {
  if (!header) return 'identity';
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

/**
 * Adds to `headers` what a cacheable GET of `body` answers with (appending to its Vary) and returns the payload
 * in the best encoding the client accepts. Conditional requests are sendBody's business.
 */
export function answer(body: Body, requestHeaders: IncomingHttpHeaders, headers: OutgoingHttpHeaders) {
  headers['cache-control'] = cacheControl;
  headers.etag = body.etag;
  if (body.gzip) headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  headers['content-type'] = body.type;
  const encoding = body.gzip ? negotiate(requestHeaders['accept-encoding']) : 'identity';
  if (encoding === 'identity') return body.identity;
  headers['content-encoding'] = encoding;
  return (encoding === 'br' ? body.br : body.gzip) as Buffer;
}

function addVary(reply: FastifyReply, value: string) {
  const current = reply.getHeader('vary');
  reply.header('vary', current ? `${current}, ${value}` : value);
}

/** Sends a cacheable GET body: 304 when the client has it, otherwise the smallest encoding it accepts. */
export function sendBody(request: FastifyRequest, reply: FastifyReply, body: Body) {
  if (matches(request.headers['if-none-match'], body.etag)) {
    reply.header('cache-control', cacheControl).header('etag', body.etag);
    if (body.gzip) addVary(reply, 'Accept-Encoding');
    return reply.code(304).send();
  }
  const headers: Record<string, string> = {};
  const vary = reply.getHeader('vary');
  if (typeof vary === 'string') headers.vary = vary;
  const payload = answer(body, request.headers, headers);
  return reply.headers(headers).send(payload);
}

/** A body computed for one request (a query): compressed quickly, off the event loop. */
export async function sendComputed(request: FastifyRequest, reply: FastifyReply, text: string) {
  const identity = Buffer.from(text);
  const body: Body = { type: jsonType, identity, etag: etagOf(identity) };
  const encoding =
    identity.length >= compressFrom ? negotiate(request.headers['accept-encoding']) : 'identity';
  if (identity.length >= compressFrom && !matches(request.headers['if-none-match'], body.etag)) {
    if (encoding === 'br') body.br = await brotliAsync(identity, brotliOptions(identity.length, 4));
    if (encoding === 'gzip') body.gzip = await gzipAsync(identity, { level: 6 });
  }
  if (identity.length >= compressFrom) addVary(reply, 'Accept-Encoding');
  reply.header('cache-control', cacheControl).header('etag', body.etag);
  if (matches(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  reply.header('content-type', body.type);
  if (encoding === 'identity') return reply.send(identity);
  reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? body.br : body.gzip);
}
