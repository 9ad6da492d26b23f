import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { strictValidatorCompiler } from '../../platform/http.js';
import {
  decoyPasswordHash,
  hashPassword,
  newToken,
  tokenHash,
  verifyPassword,
} from '../../platform/secrets.js';
import { errors, thingsError, tooManyRequests } from './errors.js';
import { Credentials, ErrorBody, LoginReply, SecretHeader, SignupReply, ThingsReply } from './schemas.js';
import type { ThingsSettings } from './settings.js';
import type { ThingsStore } from './store.js';

// Secrets are 32 random bytes as hex; anything else is refused before it reaches the database.
const secretFormat = /^[0-9a-f]{64}$/;

export function thingsRoutes(store: ThingsStore, settings: ThingsSettings): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.setValidatorCompiler(strictValidatorCompiler);
    // JSON and text/plain have Fastify's parsers (text then fails validation); every other body is refused as 400.
    app.addContentTypeParser('*', (_request, _payload, done) => {
      done(thingsError(400, 'body must be JSON (Content-Type: application/json)'), undefined);
    });

    /** Counts the attempt; answers 429 and returns false when the client is over the limit. */
    const withinLimit = async (action: 'login' | 'signup', request: FastifyRequest, reply: FastifyReply) => {
      const limit = settings.rateLimit[action];
      if (limit === 0) return true;
      const retryAfter = await store.hit(`${action}:${request.ip}`, limit, settings.rateLimit.windowSeconds);
      if (retryAfter === undefined) return true;
      reply.code(429).header('retry-after', String(retryAfter)).send(tooManyRequests(retryAfter));
      return false;
    };

    /** The user id behind the request's secret, or undefined for a missing, malformed, unknown or expired one. */
    const authenticate = async (request: FastifyRequest) => {
      const secret = request.headers['db-user-secret'];
      if (typeof secret !== 'string' || !secretFormat.test(secret)) return undefined;
      const hash = tokenHash(secret);
      const token = await store.findToken(hash);
      if (!token || token.expired) return undefined;
      return { userId: token.userId, hash };
    };

    app.post(
      '/signup',
      {
        schema: {
          summary: 'Create a user',
          body: Credentials,
          response: { 200: SignupReply, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        if (!(await withinLimit('signup', request, reply))) return reply;
        const { username, password } = request.body;
        const userId = await store.createUser(username, await hashPassword(password));
        if (!userId) return reply.code(409).send(errors.notUnique);
        return { userId };
      },
    );

    app.post(
      '/login',
      {
        schema: {
          summary: 'Exchange a username and password for a secret',
          body: Credentials,
          response: { 200: LoginReply, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        if (!(await withinLimit('login', request, reply))) return reply;
        const { username, password } = request.body;
        const user = await store.findUserByUsername(username);
        // An unknown user costs a hash verification too, so timing does not tell which usernames exist.
        const ok = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
        if (!user || !ok) return reply.code(401).send(errors.authenticationFailed);
        const secret = newToken();
        await store.createToken(user.id, tokenHash(secret), settings.secretTtlSeconds);
        return { secret };
      },
    );

    app.post(
      '/logout',
      {
        schema: {
          summary: 'Revoke the secret sent in db-user-secret',
          security: [{ dbUserSecret: [] }],
          headers: SecretHeader,
          response: { 204: Type.Null({ description: 'Revoked' }), 401: ErrorBody },
        },
      },
      async (request, reply) => {
        const caller = await authenticate(request);
        if (!caller || !(await store.deleteToken(caller.hash)))
          return reply.code(401).send(errors.unauthorized);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/things',
      {
        schema: {
          summary: 'Every thing, for holders of a valid secret',
          security: [{ dbUserSecret: [] }],
          headers: SecretHeader,
          response: { 200: ThingsReply, 401: ErrorBody },
        },
      },
      async (request, reply) => {
        const caller = await authenticate(request);
        if (!caller) return reply.code(401).send(errors.unauthorized);
        return { things: await store.listThingsAsReader() };
      },
    );
  };
}
