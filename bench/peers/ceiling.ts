import { createServer } from 'node:http';

/** The ceiling: a bare node:http server answering every request with one constant, pre-serialized buffer. */
const body = Buffer.from(process.env.CEILING_BODY ?? '{}');
const port = Number(process.env.PORT ?? 0);
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(port, '127.0.0.1');
