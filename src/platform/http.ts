import type { IncomingMessage } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyBodyParser,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchemaCompiler,
  LogController,
} from 'fastify';
import { type CorsPolicy, hostAllowed, originAllowed, preflightHeaders } from './cors.js';
import { isUnavailable } from './database.js';
import { clientError, HttpError } from './errors.js';
import { commonHeaders, type FastPath, type FastPathGate, fastServer } from './fast-path.js';
import { BodyError, parseJsonBody } from './json-body.js';
import { lazyCompilers, lazyValidatorCompiler } from './lazy-schemas.js';
import { redactUrl, requestLogSerializer } from './redaction.js';
import { authScheme, warnOfUntrustedProxy } from './request.js';
import { requestIdOf } from './request-id.js';
import type { AppSurface, ErrorInfo } from './service.js';

export interface AppOptions {
  logger: FastifyBaseLogger;
  bodyLimit: number;
  trustProxy: string | false;
  /** Readiness: resolves when the service's dependencies answer. */
  ready: () => Promise<void>;
  version: string;
  /** Answers some requests before Fastify's pipeline; see FastPath. */
  fastPath?: FastPath;
  /** True once the process drains before stopping: every request then goes through Fastify (and its hooks). */
  draining?: () => boolean;
  cors: CorsPolicy;
  /** Host names accepted besides loopback names and IP literals; undefined when the DNS-rebinding check is off. */
  allowedHosts?: string[];
  /** What wraps every request from above the platform: the test harness's faults and journal. */
  harness?: RequestWrapper;
  /** How long a request may take to arrive, headers and body (default 120 s). */
  requestTimeout?: number;
}

/**
 * Something from above the platform that sees every request of an app, on both paths (the harness: delays,
 * injected errors, the journal). The platform knows only this shape, so it imports nothing above itself.
 */
export interface RequestWrapper {
  /** Hooks it adds to the Fastify app; `refuse` words a refusal in the surface's own error shape. */
  install(
    app: FastifyInstance,
    docsPath: string,
    refuse: (request: FastifyRequest, status: number, message: string, code: string) => HttpError,
  ): void;
  /** Its wrapper around posts-style fast-path answers. */
  fastPathGate(docsPath: string): FastPathGate;
}

const ajvOptions = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false } as const;
const bodyValidator = addFormats.default(new Ajv.default({ ...ajvOptions, coerceTypes: false }));
const textValidator = addFormats.default(new Ajv.default({ ...ajvOptions, coerceTypes: 'array' }));
const strictValidator = addFormats.default(
  new Ajv.default({
    ...ajvOptions,
    coerceTypes: false,
    unicode: false,
    unicodeRegExp: false,
    strictNumbers: true,
    // `unicode` is deprecated (it still works); nothing else this instance could log matters with strict off.
    logger: false,
  }),
);

/**
 * The validator of services whose limits were written against TypeBox's own checker (things, employees): no type
 * coercion in any part of the request, string lengths in UTF-16 code units (an emoji counts two), patterns without
 * the `u` flag, and ±Infinity (`1e400`) is not a number. Failures are Ajv's, like everywhere else, so they reach
 * the service's `errorBody` the same way.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<unknown> = lazyValidatorCompiler(({ schema }) =>
  strictValidator.compile(schema as object),
);

/** The HTML pages' security headers (docs, IDE, home pages): no framing, no sniffing, no referrer leaks. */
export const htmlSecurityHeaders = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * The JSON body parser of every service (Fastify's default one has no nesting limit): at most MAX_JSON_DEPTH
 * levels, no prototype keys, and an empty body refused as Fastify does. Services that read other media types as
 * JSON use it too.
 */
export const jsonBodyParser: FastifyBodyParser<string> = (_request, body, done) => {
  if (body === '') {
    const message = "Body cannot be empty when content-type is set to 'application/json'";
    return done(clientError(400, message, 'FST_ERR_CTP_EMPTY_JSON_BODY'), undefined);
  }
  try {
    done(null, parseJsonBody(body));
  } catch (error) {
    // Fastify's own wording for text that is not JSON, which clients and tests already know.
    if (error instanceof BodyError && error.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
      error.message = "Body is not valid JSON but content-type is set to 'application/json'";
    done(error as Error, undefined);
  }
};

/**
 * Reads and drops what is left of a body that is over the limit (up to 16 MiB or 5 s), so that a client still
 * writing it reads the 413 instead of EPIPE when the connection closes; past the bound it is closed on the client.
 */
function drain(request: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (request.complete || request.destroyed) return resolve();
    let left = 16 * 1024 * 1024;
    const done = () => {
      clearTimeout(timer);
      request.off('data', onData).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) done();
    };
    const timer = setTimeout(done, 5_000);
    request.on('data', onData).on('end', done).on('error', done).on('close', done).resume();
  });
}

/** Lets the service see (and re-method) a request before the router does, and route it by another URL. */
const rewriteWith =
  (beforeRouting: (request: IncomingMessage) => string | undefined) => (request: IncomingMessage) =>
    beforeRouting(request) ?? request.url ?? '/';

/** Health probes come every few seconds from orchestrators and the admin page: not worth a line each. */
const probePaths = new Set(['/healthz', '/readyz']);

/** One line per answered request: method, URL (secret query values redacted), status and milliseconds. */
function logRequest(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  if (!probePaths.has(request.routeOptions.url ?? '')) {
    const url = redactUrl(request.url);
    const ms = Math.round(reply.elapsedTime);
    const status = reply.statusCode;
    request.log.info(
      { method: request.method, url, status, ms },
      `${request.method} ${url} ${status} ${ms} ms`,
    );
  }
  done();
}

/** `level`, or warn when it is more talkative. */
function quieter(level: string) {
  return ['trace', 'debug', 'info'].includes(level) ? 'warn' : level;
}

/**
 * The Fastify instance every service runs in: request ids, logging, CORS by the service's policy, the
 * DNS-rebinding Host check, body limits, the service's own error shape for every failure, health and readiness,
 * and OpenAPI docs for REST services.
 */
export async function createApp(service: AppSurface, options: AppOptions): Promise<FastifyInstance> {
  const expose = ['x-request-id', ...(service.exposeHeaders ?? [])].join(', ');
  const logsRequests = ['trace', 'debug', 'info'].includes(options.logger.level);
  const fastPath = logsRequests ? undefined : options.fastPath;
  const { cors, allowedHosts, harness } = options;
  const gate = harness?.fastPathGate(service.docsPath);
  let open = true;
  const requestTimeout = options.requestTimeout ?? 120_000;
  const requestLogger = options.logger.child({}, { serializers: { req: requestLogSerializer } });
  const app = Fastify({
    // Fastify's own info entries ("Server listening at …", two per service: loopback and each interface) came
    // before the banner and pushed it up: the instance logs warnings and errors only, while each request's
    // logger still comes from the configured one (the one line per request below).
    loggerInstance: requestLogger.child({}, { level: quieter(options.logger.level) }),
    childLoggerFactory: (_instanceLogger, bindings, childOptions) =>
      requestLogger.child(bindings, childOptions),
    // Fastify's own two entries per request (with every header) buried the banner: one line is logged below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy,
    // The incoming x-request-id is vetted in genReqId rather than trusted as is.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Slow or idle clients must not hold sockets forever. Node checks every connectionsCheckingInterval (30 s
    // by default, which would stretch a shorter timeout), and ignores a request timeout below its headers timeout.
    requestTimeout,
    http: {
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, requestTimeout / 4)),
      headersTimeout: Math.min(60_000, requestTimeout),
    },
    keepAliveTimeout: 5_000,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: 500,
      caseSensitive: !service.caseInsensitivePaths,
    },
    rewriteUrl: service.beforeRouting ? rewriteWith(service.beforeRouting) : undefined,
    serverFactory: fastPath
      ? fastServer(fastPath, cors, expose, () => open && !options.draining?.(), allowedHosts, gate)
      : undefined,
    // Route schemas compile on first use, not at start-up (lazy-schemas.ts).
    schemaController: lazyCompilers,
    // A URL the router cannot read (`/%ZZ`, a parameter over maxParamLength) is answered in the service's own
    // error shape, with the headers every answer carries, instead of Fastify's bare JSON.
    frameworkErrors: (error, request, reply) => {
      reply.headers(commonHeaders(request.raw, request.id, cors, expose));
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      send(reply, answer({ status, message: error.message, code: error.code, requestId: request.id }));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Once closing, every request goes to Fastify, which answers 503.
  app.addHook('preClose', (done) => {
    open = false;
    done();
  });
  app.decorateRequest('caller', undefined);

  // JSON bodies are validated as sent ("5" is not a number); query strings, params and headers are text, so
  // they are coerced to the declared types.
  app.setValidatorCompiler(
    lazyValidatorCompiler(({ schema, httpPart }) =>
      (httpPart === 'body' ? bodyValidator : textValidator).compile(schema as object),
    ),
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBodyParser);

  /** The service's answer to an error: its `errorBody`, sent with the error's status unless it chose another. */
  const answer = (info: ErrorInfo): HttpError => {
    const body = service.errorBody(info);
    return body instanceof HttpError ? body : new HttpError(info.status, body);
  };
  const send = (reply: FastifyReply, error: HttpError) => {
    if (error.headers) reply.headers(error.headers);
    return reply.status(error.statusCode).send(error.body);
  };
  const routeOf = (request: FastifyRequest): ErrorInfo['route'] => ({
    url: request.routeOptions.url,
    method: request.method,
    schema: request.routeOptions.schema,
  });
  const refuse = (request: FastifyRequest, message: string) =>
    answer({ status: 403, message, code: 'forbidden', requestId: request.id, route: routeOf(request) });

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(commonHeaders(request.raw, request.id, cors, expose));
    if (!options.trustProxy) warnOfUntrustedProxy(request);
    if (allowedHosts && !hostAllowed(request.headers.host, allowedHosts)) {
      return done(refuse(request, 'Blocked request: this host is not allowed (see ALLOWED_HOSTS)'));
    }
    // A page on another site must not ride on Basic credentials the browser remembered (CSRF).
    const origin = request.headers.origin;
    if (!originAllowed(cors, origin) && authScheme(request.headers.authorization) === 'basic') {
      return done(refuse(request, `Blocked request: origin ${origin} is not allowed (see CORS_ORIGINS)`));
    }
    done();
  });
  if (logsRequests) app.addHook('onResponse', logRequest);
  harness?.install(app, service.docsPath, (request, status, message, code) =>
    answer({ status, message, code, requestId: request.id, route: routeOf(request) }),
  );

  // Preflights: any route may be called cross-origin by the pages the policy allows.
  app.options('*', { schema: { hide: true } }, (request, reply) => {
    if (originAllowed(cors, request.headers.origin)) {
      reply.headers(preflightHeaders(request.headers, {}));
    }
    reply.status(204).header('content-length', '0').send();
  });

  // One path for every error: an HttpError (a service's own answer) is sent as is; anything else becomes an
  // ErrorInfo that the service's errorBody words. A 5xx is logged with the request id and its body names no internals.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError && error.decided) return send(reply, error);
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
    const answered = answer({
      status,
      message,
      code: error.code,
      validationContext: error.validationContext ?? undefined,
      validation: error.validation,
      requestId: request.id,
      route: routeOf(request),
    });
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return drain(request.raw).then(() => send(reply, answered));
    return send(reply, answered);
  });

  app.setNotFoundHandler((request, reply) => {
    send(
      reply,
      answer({
        status: 404,
        message: `No route for ${request.method} ${request.url}`,
        code: 'not_found',
        requestId: request.id,
      }),
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
        components: service.securitySchemes ? { securitySchemes: service.securitySchemes } : undefined,
        security: service.security,
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
