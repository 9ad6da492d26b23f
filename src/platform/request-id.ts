import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const requestIdPattern = /^[\w.:-]{1,128}$/;

/** The client's x-request-id when it is a sane token, else a fresh UUID. */
export function requestIdOf(req: IncomingMessage) {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
}
