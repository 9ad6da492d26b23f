import { createServer } from 'node:http';

/**
 * The ceiling: a bare node:http server answering every request with one constant, pre-serialized buffer, with
 * only a content type, or with the fixed headers in CEILING_HEADERS (JSON) to price a response's headers.
 */
const body = Buffer.from(process.env.CEILING_BODY ?? '{}');
const port = Number(process.env.PORT ?? 0);
const headers = JSON.parse(process.env.CEILING_HEADERS ?? '{"content-type":"application/json; charset=utf-8"}');
createServer((_req, res) => {
  res.writeHead(200, { ...headers, 'content-length': body.length });
  res.end(body);
}).listen(port, '127.0.0.1');
