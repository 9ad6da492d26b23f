import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../platform/database.js';
import { jsonBodyParser } from '../../platform/http.js';
import type { LoginLimiter } from '../../platform/login-limit.js';
import type { Clock } from '../../platform/service.js';
import { guard, settleBefore } from './auth.js';
import { containsNul } from './body.js';
import { unprocessable } from './errors.js';
import { settleForRequest } from './resources/actions/store.js';
import { resources } from './resources/index.js';
import { ErrorSchema } from './schemas.js';
import type { MachinesSettings } from './settings.js';

function api(db: Database, settings: MachinesSettings, clock: Clock): FastifyPluginAsync {
  return async (instance) => {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();
    // Actions that completed since the last request take effect before anything is read or changed.
    // The guard's statement said, at its one reading of the clock, whether any action is due; a request it did not
    // check reads the clock here. Either way the request keeps that instant for its own checks (requestTime).
    app.addHook('preHandler', async (request) => {
      const checked = settleBefore.get(request);
      if (!checked) return settleForRequest(request, db, settings.provisionMs, clock.now());
      return settleForRequest(request, db, settings.provisionMs, checked.now, checked.due);
    });
    for (const resource of resources) resource.routes(app, { db, settings, clock });
  };
}

/**
 * The service's routes. The outer plugin shares the root context (skip-override) so the bearer guard, the body
 * parser and the `request_id` in error bodies also cover the platform's 404, 400, 413 and 415 answers.
 */
export function machinesRoutes(
  db: Database,
  settings: MachinesSettings,
  limiter: LoginLimiter,
): FastifyPluginAsync {
  const plugin: FastifyPluginAsync = async (app) => {
    app.addSchema(ErrorSchema);
    // The API takes JSON only; a text/plain body is refused (415) rather than read as a string.
    app.removeContentTypeParser('text/plain');
    // Clients send `Content-Type: application/json` on every request, bodiless DELETEs included; registered at
    // the root so an unknown route is a 404, not a 400 for the empty body.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '' && (request.method !== 'POST' || request.routeOptions.config?.bodiless))
        return done(null, undefined);
      jsonBodyParser.call(app, request, body as string, (error, value) => {
        if (!error && containsNul(value))
          return done(unprocessable('Text fields must not contain NUL characters.'), undefined);
        done(error, value);
      });
    });
    app.addHook('onRequest', guard(db, settings, limiter));
    app.addHook('preSerialization', async (request, reply, payload: unknown) => {
      if (reply.statusCode < 400 || !payload || typeof payload !== 'object') return payload;
      const body = payload as Record<string, unknown>;
      if (typeof body.id !== 'string' || typeof body.message !== 'string' || 'request_id' in body)
        return payload;
      return { ...body, request_id: request.id };
    });
    await app.register(api(db, settings, limiter.clock));
  };
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}
