import { readFileSync } from 'node:fs';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import mercurius from 'mercurius';
import { LocalObjectStore, type ObjectStore } from '../../platform/objects.js';
import { filesPlugin } from './files.js';
import { idePlugin } from './ide.js';
import { acceptMultipart } from './multipart.js';
import { createResolvers, type ResolverContext } from './resolvers.js';
import type { ProfilesSettings } from './settings.js';
import type { UserStore } from './store.js';

export const schema = readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8');

// Room for the `operations` and `map` parts and multipart framing around the file itself.
const multipartOverhead = 1024 * 1024;

/** The request's own origin, so links to files served here work from wherever the caller reached us. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

export function profilesRoutes(deps: {
  users: UserStore;
  objects: ObjectStore;
  settings: ProfilesSettings;
  urlFor(key: string, context: ResolverContext): string;
}): FastifyPluginAsync {
  const { settings } = deps;

  const graphql: FastifyPluginAsync = async (app) => {
    // A body that announces more than the limit allows is refused before a byte of it is read or stored.
    app.addHook('onRequest', async (request) => {
      if (
        request.url.split('?')[0] !== '/query' ||
        !request.headers['content-type']?.startsWith('multipart/')
      ) {
        return;
      }
      const length = Number(request.headers['content-length']);
      if (length > settings.maxFileBytes + multipartOverhead) {
        throw Object.assign(
          new Error(
            `error uploading file: the request is larger than the ${settings.maxFileBytes}-byte file limit`,
          ),
          { statusCode: 413 },
        );
      }
    });
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
      context: (request: FastifyRequest): ResolverContext => ({ baseUrl: originOf(request) }),
      errorHandler: graphqlErrorHandler,
    });
  };

  return async (app) => {
    await app.register(graphql);
    await app.register(idePlugin);
    if (deps.objects instanceof LocalObjectStore) await app.register(filesPlugin(deps.objects));
  };
}

/**
 * Errors outside GraphQL execution (bad JSON, malformed multipart, oversized bodies) keep their 4xx status in
 * GraphQL's error shape; anything else is a 500 that names no internals.
 */
async function graphqlErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  let shown: Error = error;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    shown = Object.assign(new Error(`Internal server error (request id ${request.id})`), { statusCode: 500 });
  }
  const { statusCode, response } = mercurius.defaultErrorFormatter(
    { errors: [new GraphQLError(shown.message, { originalError: shown })] } as never,
    { reply, app: request.server } as never,
  );
  reply.code(statusCode).send(response);
}
