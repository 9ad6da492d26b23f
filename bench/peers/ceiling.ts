import { createServer, type ServerResponse } from 'node:http';
import { keepTickObjectClasses } from '../../src/platform/tick-objects.js';

/**
 * The ceiling: a bare node:http server answering every request with one constant, pre-serialized body, with
 * only a content type, or with the fixed headers in CEILING_HEADERS (JSON) to price a response's headers; after
 * CEILING_DELAY_MS when set (the floor for a delayed API).
 */
// As backlot does: without it, a full GC while idle between runs slows every later request (tick-objects.ts).
keepTickObjectClasses();
const text = process.env.CEILING_BODY ?? '{}';
const length = Buffer.byteLength(text);
// The cheaper of node:http's two ways to write a body (wrk, 50 connections, alternating 8 s runs): a small one as a
// string goes out in one write with the head, 5% faster than a Buffer at 355 bytes; a large one as a Buffer is not
// copied into a string first, 15% faster at 27 kB.
const body = length < 1024 ? text : Buffer.from(text);
const port = Number(process.env.PORT ?? 0);
const delayMs = Number(process.env.CEILING_DELAY_MS ?? 0);
const headers: Record<string, string> = JSON.parse(
  process.env.CEILING_HEADERS ?? '{"content-type":"application/json; charset=utf-8"}',
);
// One flat list of names and values, made once: the cheapest head node:http writes.
const head: string[] = [...Object.entries(headers).flat(), 'content-length', String(length)];
const answer = (res: ServerResponse) => {
  res.writeHead(200, head);
  res.end(body);
};
createServer((_req, res) => {
  if (delayMs > 0) setTimeout(answer, delayMs, res);
  else answer(res);
}).listen(port, '127.0.0.1');
