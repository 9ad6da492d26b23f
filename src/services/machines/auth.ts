import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../platform/database.js';
import { safeEqual, tokenHash } from '../../platform/secrets.js';
import { forbiddenBody, tooManyRequestsBody, unauthorizedBody } from './errors.js';
import { isTokenFormat, type Scope } from './scopes.js';
import type { MachinesSettings } from './settings.js';
import { countRequest, findTokenByHash, type TokenRow } from './store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The token scope a route needs; routes without one accept any valid token. */
    scope?: Scope;
  }
}

const bearer = /^Bearer\s+(\S+)\s*$/i;

async function findCaller(db: Database, header: string | undefined): Promise<TokenRow | undefined> {
  const token = bearer.exec(header ?? '')?.[1];
  if (!token || !isTokenFormat(token)) return undefined;
  const hash = tokenHash(token);
  const row = await findTokenByHash(db, hash);
  return row && safeEqual(row.token_hash, hash) ? row : undefined;
}

/**
 * Every `/v2` request: a known bearer token (401), one count in the token's hour and minute windows with the
 * `ratelimit-*` headers (429 past either limit), then the route's scope (403).
 */
export function guard(db: Database, settings: MachinesSettings) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'OPTIONS' || !(request.url === '/v2' || request.url.startsWith('/v2/'))) return;
    const now = Math.floor(Date.now() / 1000);
    const hourStart = now - (now % 3600);
    const minuteStart = now - (now % 60);
    const caller = await findCaller(db, request.headers.authorization);
    if (!caller) {
      // Unauthenticated requests are not counted against any token, but still see the limits.
      reply.headers({
        'ratelimit-limit': settings.ratePerHour,
        'ratelimit-remaining': settings.ratePerHour,
        'ratelimit-reset': hourStart + 3600,
      });
      return reply.code(401).send({ ...unauthorizedBody, request_id: request.id });
    }
    const used = await countRequest(db, caller.id, hourStart, minuteStart);
    reply.headers({
      'ratelimit-limit': settings.ratePerHour,
      'ratelimit-remaining': Math.max(0, settings.ratePerHour - used.hour),
      'ratelimit-reset': hourStart + 3600,
    });
    if (used.hour > settings.ratePerHour || used.minute > settings.ratePerMinute) {
      const retryAfter = used.hour > settings.ratePerHour ? hourStart + 3600 - now : minuteStart + 60 - now;
      reply.header('retry-after', Math.max(1, retryAfter));
      return reply.code(429).send({ ...tooManyRequestsBody, request_id: request.id });
    }
    const scope = request.routeOptions.config?.scope;
    if (scope && !caller.scopes.includes(scope)) {
      return reply.code(403).send({ ...forbiddenBody, request_id: request.id });
    }
  };
}
