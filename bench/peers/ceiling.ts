import { createServer, type ServerResponse } from 'node:http';

/**
 * The ceiling: a bare node:http server answering every request with one constant, pre-serialized buffer, with
 * only a content type, or with the fixed headers in CEILING_HEADERS (JSON) to price a response's headers; after
 * CEILING_DELAY_MS when set (the floor for a delayed API).
 */
const body = Buffer.from(process.env.CEILING_BODY ?? '{}');
const port = Number(process.env.PORT ?? 0);
const delayMs = Number(process.env.CEILING_DELAY_MS ?? 0);
const headers: Record<string, string> = JSON.parse(
  process.env.CEILING_HEADERS ?? '{"content-type":"application/json; charset=utf-8"}',
);
// One flat list of names and values, made once: the cheapest head node:http writes.
const head: string[] = [...Object.entries(headers).flat(), 'content-length', String(body.length)];
const answer = (res: ServerResponse) => {
  res.writeHead(200, head);
  res.end(body);
};
createServer((_req, res) => {
  if (delayMs > 0) setTimeout(answer, delayMs, res);
  else answer(res);
}).listen(port, '127.0.0.1');
