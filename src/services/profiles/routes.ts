import { readFileSync } from 'node:fs';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type DocumentNode, GraphQLError, getOperationAST, parse } from 'graphql';
import mercurius from 'mercurius';
import { refuseOtherTypes } from '../../platform/body-types.js';
import { clientError, HttpError } from '../../platform/errors.js';
import { LocalObjectStore, type ObjectStore } from '../../platform/objects.js';
import { publicOrigin } from '../../platform/request.js';
import { filesPlugin } from './files.js';
import { idePlugin } from './ide.js';
import { fieldCountRule, queryLimits } from './limits.js';
import { acceptMultipart } from './multipart.js';
import { createResolvers, type ResolverContext } from './resolvers.js';
import type { ProfilesSettings } from './settings.js';
import type { UserStore } from './store.js';

export const schema = readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8');

// Room for the `operations` and `map` parts and multipart framing around the file itself.
const multipartOverhead = 1024 * 1024;

export function profilesRoutes(deps: {
  users: UserStore;
  objects: ObjectStore;
  settings: ProfilesSettings;
  urlFor(key: string, context: ResolverContext): string;
}): FastifyPluginAsync {
  const { settings } = deps;

  const graphql: FastifyPluginAsync = async (app) => {
    // Both checks hang on Mercurius's `/query` routes themselves (however the client spelled the path).
    app.addHook('onRoute', (route) => {
      if (route.url !== '/query' || (route.config as { refused?: boolean } | undefined)?.refused) return;
      route.onRequest = [...hookList(route.onRequest), refuseOversizedUpload];
      route.preValidation = [...hookList(route.preValidation), dropNullExtensions];
      route.preHandler = [...hookList(route.preHandler), checkOperations];
      route.onSend = [...hookList(route.onSend), labelResponse];
    });

    // Only JSON and multipart bodies; `text/plain` (which Fastify parses by default) is 415 like any other type.
    refuseOtherTypes(app, 'application/json or multipart/form-data');

    // graphql-http: `"extensions": null` means no extensions (Mercurius' body schema wants an object).
    const dropNullExtensions = async (request: FastifyRequest) => {
      for (const operation of Array.isArray(request.body) ? request.body : [request.body]) {
        if (
          operation &&
          typeof operation === 'object' &&
          (operation as Record<string, unknown>).extensions === null
        )
          delete (operation as Record<string, unknown>).extensions;
      }
    };

    // Answers in the media type the client asked for (GraphQL over HTTP): graphql-response+json or json.
    const labelResponse = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (
        wantsGraphqlResponse(request) &&
        String(reply.getHeader('content-type')).startsWith('application/json')
      )
        reply.header('content-type', `${graphqlResponseType}; charset=utf-8`);
      return payload;
    };

    // A body that announces more than the limit allows is refused before a byte of it is read or stored.
    const refuseOversizedUpload = async (request: FastifyRequest) => {
      if (!request.headers['content-type']?.startsWith('multipart/')) return;
      const length = Number(request.headers['content-length']);
      if (length > settings.maxFileBytes + multipartOverhead) {
        throw clientError(
          413,
          `error uploading file: the request is larger than the ${settings.maxFileBytes}-byte file limit`,
        );
      }
    };
    const checkOperations = async (request: FastifyRequest) => {
      const badRequest = (message: string) => clientError(400, message);
      const body = request.method === 'GET' ? request.query : request.body;
      // Batches run their operations side by side: a long array would be many requests for the price of one.
      if (Array.isArray(body) && body.length > queryLimits.maxBatch) {
        throw badRequest(
          `a batch may hold at most ${queryLimits.maxBatch} operations; this one has ${body.length}`,
        );
      }
      // Mercurius hands a non-string `query` to graphql-js as is, which then fails with a 500.
      for (const operation of Array.isArray(body) ? body : [body]) {
        if (!operation || typeof operation !== 'object') continue;
        const { query, variables, operationName } = operation as Record<string, unknown>;
        if (query !== undefined && typeof query !== 'string') throw badRequest('query must be a string');
        // Mercurius would take a query that is JSON as a ready-made syntax tree, unchecked (`"0"` was a 500).
        if (typeof query === 'string' && isJson(query)) throw badRequest('query must be a GraphQL document');
        // On GET, Mercurius looks the operation up without checking it exists (a 500 otherwise).
        if (
          request.method === 'GET' &&
          typeof query === 'string' &&
          !selectsOneOperation(query, operationName)
        ) {
          throw badRequest('operationName must name exactly one operation of the document');
        }
        // On GET, variables arrive as JSON text and Mercurius parses them itself.
        const wrongVariables = typeof variables !== 'object' || Array.isArray(variables);
        if (variables != null && request.method !== 'GET' && wrongVariables) {
          throw badRequest('variables must be an object');
        }
        if (operationName != null && typeof operationName !== 'string') {
          throw badRequest('operationName must be a string');
        }
      }
    };
    acceptMultipart(app, {
      // One byte over the limit, so the size check in checkImage sees the file is too large.
      maxFileSize: settings.maxFileBytes + 1,
      maxFiles: 10,
      maxFieldSize: multipartOverhead,
    });
    await app.register(mercurius, {
      schema,
      resolvers: createResolvers(deps),
      path: '/query',
      graphiql: false,
      allowBatchedQueries: true,
      queryDepth: queryLimits.maxDepth,
      validationRules: [fieldCountRule(queryLimits.maxFields)],
      // The request's own origin, so links to files served here work from wherever the caller reached us.
      context: (request: FastifyRequest): ResolverContext => ({ baseUrl: publicOrigin(request) }),
      errorHandler: graphqlErrorHandler,
      // A query text seen twice runs as JavaScript compiled for it (graphql-jit, a dependency of Mercurius) instead
      // of graphql-js's interpreter (docs/benchmarks.md, "profiles"). Mercurius's adaptive mode compiles between
      // requests, so every request's variables are still checked by graphql-js first: with `jit: N` the N-th
      // request is compiled and run unchecked, and graphql-jit's own check answers 200 and prints internal objects
      // (an upload where a string belongs) where graphql-js answers 400. eluThreshold 1: compile even under load.
      jit: { minCount: 2, eluThreshold: 1 },
    });
    // Other methods on the endpoint are 405, with the methods it does take.
    app.route({
      config: { refused: true },
      method: ['PUT', 'PATCH', 'DELETE'],
      url: '/query',
      handler: async (request, reply) => {
        reply.header('allow', 'GET, POST');
        throw Object.assign(clientError(405, `${request.method} is not allowed on /query: use GET or POST`), {
          allow: 'GET, POST',
        });
      },
    });
  };

  return async (app) => {
    await app.register(graphql);
    await app.register(idePlugin);
    if (deps.objects instanceof LocalObjectStore) await app.register(filesPlugin(deps.objects));
  };
}

/** A route's hooks of one kind as an array (Fastify allows one function, an array, or none). */
function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** False only for a parsable document in which `operationName` picks no operation (syntax errors are Mercurius's). */
function selectsOneOperation(query: string, operationName: unknown) {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch {
    return true;
  }
  return getOperationAST(document, typeof operationName === 'string' ? operationName : undefined) !== null;
}

/**
 * Whether `text` is JSON. Only text that could be JSON is parsed: an ordinary document (`{ users … }`,
 * `query …`) would otherwise throw inside JSON.parse on every request (2.7 % of profiles' CPU, issue 42).
 */
export function isJson(text: string) {
  const trimmed = text.trim();
  const first = trimmed[0];
  if (first === undefined) return false;
  if (first === '{' && !/^\{[ \t\n\r]*["}]/.test(trimmed)) return false;
  if (/[a-z]/i.test(first) && trimmed !== 'true' && trimmed !== 'false' && trimmed !== 'null') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const graphqlResponseType = 'application/graphql-response+json';

/**
 * Whether the client asked for `application/graphql-response+json` over `application/json`: listed with a
 * higher quality, or the same quality and earlier. A request that names neither gets `application/json`.
 */
export function wantsGraphqlResponse(request: FastifyRequest) {
  const accept = request.headers.accept;
  if (!accept) return false;
  let best: { type: string; q: number } | undefined;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== graphqlResponseType && type !== 'application/json') continue;
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!(q > 0)) continue;
    if (!best || q > best.q) best = { type, q };
  }
  return best?.type === graphqlResponseType;
}

/**
 * Errors outside GraphQL execution (bad JSON, malformed multipart, oversized bodies, validation) keep their 4xx
 * status in GraphQL's error shape, however many errors there are; anything else is a 500 that names no internals.
 */
async function graphqlErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  let status = error.statusCode ?? 500;
  let errors: GraphQLError[];
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    status = 500;
    errors = [new GraphQLError(`Internal server error (request id ${request.id})`)];
  } else {
    request.log.info({ err: error }, error.message);
    // Mercurius' validation error carries the graphql-js errors (with their locations) in `errors`.
    const inner = (error as { errors?: unknown }).errors;
    errors = Array.isArray(inner)
      ? inner.map((each) =>
          each instanceof GraphQLError ? each : new GraphQLError(String((each as Error)?.message ?? each)),
        )
      : [new GraphQLError(error.message)];
  }
  if (status === 405) reply.header('allow', (error as { allow?: string }).allow ?? 'POST');
  if (error instanceof HttpError && error.headers) reply.headers(error.headers);
  const shown = errors.map((each) => each.toJSON());
  // graphql-response+json: a request error has no `data` entry (nothing was executed); JSON keeps `data: null`.
  return reply
    .code(status)
    .send(wantsGraphqlResponse(request) ? { errors: shown } : { data: null, errors: shown });
}
