import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { type CorsPolicy, corsHeaders } from './cors.js';
import { requestIdOf } from './request-id.js';

/**
 * A service's precomputed answers, served straight from node:http ahead of Fastify's routing and hooks (posts'
 * fixed GETs). Gets the request and the headers every answer carries (request id, CORS); returns false to let
 * Fastify handle the request. Only used while request logging is off, so every logged request is a Fastify one.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse, headers: OutgoingHttpHeaders) => boolean;

/** The headers every answer of a service carries, on the fast path and (through a hook) on Fastify's. */
export function commonHeaders(req: IncomingMessage, id: string, policy: CorsPolicy, expose: string) {
  return corsHeaders(policy, req.headers.origin, expose, { 'x-request-id': id });
}

/**
 * Wraps every fast-path attempt (the test harness: delays, injected errors, the journal): calls `serve` when it
 * is time (false: declined) or `toFastify` to let Fastify answer instead.
 */
export type FastPathGate = (
  req: IncomingMessage,
  res: ServerResponse,
  serve: () => boolean,
  toFastify: () => void,
  requestId: string,
) => void;

/**
 * The node:http server Fastify would make (same timeouts), with `fastPath` tried first for GETs while the
 * service is open; anything it declines goes to Fastify.
 */
export function fastServer(
  fastPath: FastPath,
  policy: CorsPolicy,
  expose: string,
  open: () => boolean,
  gate?: FastPathGate,
) {
  return (handler: http.RequestListener, options: { keepAliveTimeout?: number; requestTimeout?: number }) => {
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || !open()) return handler(req, res);
      // The echoed Origin passed Node's request parser, which admits only what writeHead accepts.
      const id = requestIdOf(req);
      const serve = () => open() && fastPath(req, res, commonHeaders(req, id, policy, expose));
      if (gate) return gate(req, res, serve, () => handler(req, res), id);
      if (!serve()) handler(req, res);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    return server;
  };
}
