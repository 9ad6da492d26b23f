import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import { isUnavailable } from './database.js';
import type { ErrorInfo, ServiceDefinition } from './service.js';

export interface AppOptions {
  logger: FastifyBaseLogger;
  bodyLimit: number;
  trustProxy: boolean | string;
  /** Readiness: resolves when the service's dependencies answer. */
  ready: () => Promise<void>;
  version: string;
  /** Answers some requests before Fastify's pipeline; see FastPath. */
  fastPath?: FastPath;
}

/**
 * A service's precomputed answers, served straight from node:http ahead of Fastify's routing and hooks (posts'
 * fixed GETs). Gets the request and the headers every answer carries (request id, CORS); returns false to let
 * Fastify handle the request. Only used while request logging is off, so every logged request is a Fastify one.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse, headers: OutgoingHttpHeaders) => boolean;

const ajvOptions = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false } as const;
const bodyValidator = addFormats.default(new Ajv.default({ ...ajvOptions, coerceTypes: false }));
const textValidator = addFormats.default(new Ajv.default({ ...ajvOptions, coerceTypes: 'array' }));

const requestIdPattern = /^[\w.:-]{1,128}$/;

/** The client's x-request-id when it is a sane token, else a fresh UUID. */
function requestIdOf(req: IncomingMessage) {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
}

const corsMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The HTML pages' security headers (docs, IDE, home pages): no framing, no sniffing, no referrer leaks. */
export const htmlSecurityHeaders = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * The Fastify instance every service runs in: request ids, logging, CORS that echoes the Origin, body limits,
 * the service's own error shape for every failure, health and readiness, and OpenAPI docs for REST services.
 */
export async function createApp(
  service: ServiceDefinition<any>,
  options: AppOptions,
): Promise<FastifyInstance> {
  const exposedHeaders = ['x-request-id', ...(service.exposeHeaders ?? [])];
  const logsRequests = ['trace', 'debug', 'info'].includes(options.logger.level);
  const fastPath = logsRequests ? undefined : options.fastPath;
  let open = true;
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy,
    // The incoming x-request-id is vetted in genReqId rather than trusted as is.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Slow or idle clients must not hold sockets forever.
    requestTimeout: 120_000,
    keepAliveTimeout: 5_000,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    serverFactory: fastPath ? fastServer(fastPath, exposedHeaders, () => open) : undefined,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Once closing, every request goes to Fastify, which answers 503.
  app.addHook('preClose', (done) => {
    open = false;
    done();
  });

  // JSON bodies are validated as sent ("5" is not a number); query strings, params and headers are text, so
  // they are coerced to the declared types.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyValidator : textValidator).compile(schema),
  );

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  await app.register(cors, {
    origin: true,
    credentials: true,
    exposedHeaders,
    methods: corsMethods,
    maxAge: 86_400,
    strictPreflight: false,
  });

  const render = (info: ErrorInfo) => service.errorBody(info);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const unavailable = isUnavailable(error);
    const status = unavailable ? 503 : error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    const message =
      status === 503 && unavailable
        ? 'Service unavailable: the database cannot be reached'
        : status >= 500
          ? `Internal server error (request id ${request.id})`
          : error.message;
    if (status === 503) reply.header('retry-after', '5');
    reply.status(status).send(
      render({
        status,
        message,
        code: error.code,
        validationContext: error.validationContext ?? undefined,
      }),
    );
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(
        render({ status: 404, message: `No route for ${request.method} ${request.url}`, code: 'not_found' }),
      );
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await options.ready();
      return { status: 'ready' };
    } catch (error) {
      reply.status(503);
      return { status: 'unavailable', reason: (error as Error).message.split('\n')[0] };
    }
  });

  if (service.openapi) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: { title: `backlot ${service.id}: ${service.title}`, version: options.version },
      },
    });
    // Wrapped so the headers hook runs for the docs pages only, not for every request of the service.
    await app.register(async (docs) => {
      docs.addHook('onSend', (_request, reply, payload, done) => {
        reply.headers(htmlSecurityHeaders);
        done(null, payload);
      });
      await docs.register(swaggerUi, {
        routePrefix: '/docs',
        staticCSP: true,
        uiConfig: { docExpansion: 'list', deepLinking: true },
      });
    });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }

  return app;
}

/**
 * The node:http server Fastify would make (same timeouts), with `fastPath` tried first for GETs. The headers
 * it gets match what the onRequest hook and @fastify/cors (origin reflected, credentials) add, which a test
 * compares response by response.
 */
function fastServer(fastPath: FastPath, exposedHeaders: string[], open: () => boolean) {
  const expose = exposedHeaders.join(', ');
  return (handler: http.RequestListener, options: { keepAliveTimeout?: number; requestTimeout?: number }) => {
    const server = http.createServer((req, res) => {
      if (req.method === 'GET' && open()) {
        const origin = req.headers.origin;
        const headers: OutgoingHttpHeaders = { 'x-request-id': requestIdOf(req) };
        if (origin) headers['access-control-allow-origin'] = origin;
        headers['access-control-allow-credentials'] = 'true';
        headers['access-control-expose-headers'] = expose;
        headers.vary = 'Origin';
        // The echoed Origin passed Node's request parser, which admits only what writeHead accepts.
        if (fastPath(req, res, headers)) return;
      }
      handler(req, res);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    return server;
  };
}
