import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { type CorsPolicy, corsHeaders, hostAllowed, originAllowed } from './cors.js';
import { authScheme } from './request.js';
import { requestIdOf } from './request-id.js';

/**
 * A service's precomputed answers, served straight from node:http ahead of Fastify's routing and hooks (posts'
 * fixed GETs). Gets the request, its id and the builder of the headers every answer carries (request id, CORS);
 * returns false to let Fastify handle the request. Only used while request logging is off, so every logged
 * request is a Fastify one.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse, id: string, head: CommonHead) => boolean;

/** The headers every answer of a service carries, on Fastify's path (through a hook); see CommonHead. */
export function commonHeaders(req: IncomingMessage, id: string, policy: CorsPolicy, expose: string) {
  return corsHeaders(policy, req.headers.origin, expose, { 'x-request-id': id });
}

/** An answer's heads for the three CORS cases, each with the request's own values written in per request. */
interface Heads {
  vary: string;
  refused?: string[];
  echoed?: string[];
  plain?: string[];
}

/**
 * `commonHeaders` for the fast path: the same names, values and order, as the flat list `res.writeHead` takes.
 * One list is kept per answer and CORS case, and only the request id (and the echoed Origin) are written into it
 * per request: writeHead reads the list synchronously and keeps nothing of it, so nothing is built per request.
 */
export class CommonHead {
  /** Keyed by the answer's own list (`rest`), which its owner keeps for as long as the answer lives. */
  private readonly heads = new WeakMap<readonly string[], Heads>();

  constructor(
    private readonly policy: CorsPolicy,
    private readonly expose: string,
  ) {}

  /** The common headers then `rest` (name, value, name, value…); `vary` replaces commonHeaders' `Origin`. */
  list(req: IncomingMessage, id: string, vary: string, rest: readonly string[]): string[] {
    let heads = this.heads.get(rest);
    if (heads === undefined || heads.vary !== vary) {
      heads = { vary };
      this.heads.set(rest, heads);
    }
    const origin = req.headers.origin;
    let head: string[];
    if (!originAllowed(this.policy, origin))
      head = heads.refused ??= ['x-request-id', '', 'vary', vary, ...rest];
    else if (origin) {
      head = heads.echoed ??= [
        'x-request-id',
        '',
        'access-control-allow-origin',
        '',
        'access-control-allow-credentials',
        'true',
        'access-control-expose-headers',
        this.expose,
        'vary',
        vary,
        ...rest,
      ];
      head[3] = origin;
    } else
      head = heads.plain ??= [
        'x-request-id',
        '',
        'access-control-allow-credentials',
        'true',
        'access-control-expose-headers',
        this.expose,
        'vary',
        vary,
        ...rest,
      ];
    head[1] = id;
    return head;
  }
}

/**
 * Wraps every fast-path attempt (the test harness: delays, injected errors, the journal): calls `serve` when it
 * is time (false: declined) or `toFastify` to let Fastify answer instead. Both are fixed per server, so nothing is
 * allocated for them per request.
 */
export type FastPathGate = (
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  serve: (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean,
  toFastify: (req: IncomingMessage, res: ServerResponse) => void,
) => void;

/** What Fastify's onRequest hook refuses (Host check, CSRF with Basic credentials) must reach it. */
function admitter(policy: CorsPolicy, allowedHosts: string[] | undefined) {
  // Clients send one Host over and over: remember the last one that passed rather than parse it each time.
  let passed: string | undefined;
  return (req: IncomingMessage) => {
    const { host, origin, authorization } = req.headers;
    if (allowedHosts && host !== passed) {
      if (!hostAllowed(host, allowedHosts)) return false;
      passed = host;
    }
    return (
      authorization === undefined || originAllowed(policy, origin) || authScheme(authorization) !== 'basic'
    );
  };
}

/**
 * The node:http server Fastify would make (same timeouts), with `fastPath` tried first for GETs while the
 * service is open; anything it declines, or that Fastify would refuse, goes to Fastify.
 */
export function fastServer(
  fastPath: FastPath,
  policy: CorsPolicy,
  expose: string,
  open: () => boolean,
  allowedHosts: string[] | undefined,
  gate?: FastPathGate,
) {
  const head = new CommonHead(policy, expose);
  const admitted = admitter(policy, allowedHosts);
  // The echoed Origin passed Node's request parser, which admits only what writeHead accepts.
  const serve = (req: IncomingMessage, res: ServerResponse, id: string) =>
    open() && fastPath(req, res, id, head);
  return (handler: http.RequestListener, options: { keepAliveTimeout?: number; requestTimeout?: number }) => {
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || !open() || !admitted(req)) return handler(req, res);
      const id = requestIdOf(req);
      if (gate) return gate(req, res, id, serve, handler);
      if (!serve(req, res, id)) handler(req, res);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    return server;
  };
}
