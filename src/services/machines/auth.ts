import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../platform/database.js';
import { LoginLimiter } from '../../platform/login-limit.js';
import { parseBearer } from '../../platform/request.js';
import { safeEqual, tokenHash } from '../../platform/secrets.js';
import { forbiddenBody, tooManyRequestsBody, unauthorizedBody } from './errors.js';
import { grants, isTokenFormat, type Scope } from './scopes.js';
import type { MachinesSettings } from './settings.js';
import { checkRequest } from './store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scopes DigitalOcean's OpenAPI document declares for the route's operation: a token needs one of them.
     * A `/v2` route without any is refused to every token, so a route added without scopes fails closed.
     */
    scopes?: readonly Scope[];
    /** A POST whose operation has no request body: an empty body is no body, not a 400 (routes.ts). */
    bodiless?: boolean;
  }
}

/** The token's SHA-256, or undefined when the header holds no token of the provider's format (nothing to look up). */
function bearerHash(header: string | undefined): string | undefined {
  const token = parseBearer(header);
  return token && isTokenFormat(token) ? tokenHash(token) : undefined;
}

/**
 * Whether the actions due by a request's time have to be settled before its route: the guard reads it in its
 * statement, so a request with nothing due sends no query for it. Absent for requests the guard did not check.
 */
export const settleBefore = new WeakMap<FastifyRequest, { due: boolean; now: number }>();

/**
 * Whether a request needs a token: every route under `/v2`, judged by the route the router matched (so no
 * spelling of the path, `%76`, `//` or otherwise, reaches a route without it); unknown paths under `/v2` too, so
 * that nobody learns which paths exist without a token. Health, docs and preflights are public.
 */
function guarded(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route !== undefined) return route === '/v2' || route.startsWith('/v2/');
  const path = request.url.split('?', 1)[0] as string;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return decoded === '/v2' || decoded.startsWith('/v2/');
}

/**
 * Every `/v2` request: a known bearer token (401), one count in the token's hour and minute windows with the
 * `ratelimit-*` headers (429 past either limit), then the route's scope (403).
 */
export function guard(db: Database, settings: MachinesSettings, limiter: LoginLimiter) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!guarded(request)) return;
    // The service's clock, which the login limiter holds (a test moves it to end a window).
    const timeNow = limiter.clock.now();
    const now = Math.floor(timeNow / 1000);
    const hourStart = now - (now % 3600);
    const minuteStart = now - (now % 60);
    const hash = bearerHash(request.headers.authorization);
    const lockout = limiter.retryAfterQuery(request.ip, 5);
    const checked =
      hash === undefined
        ? undefined
        : await checkRequest(
            db,
            { hash, hourStart, minuteStart, cutoff: new Date(timeNow - settings.provisionMs) },
            lockout,
          );
    const caller =
      checked?.caller && safeEqual(checked.caller.token_hash, hash as string) ? checked.caller : undefined;
    // Tokens are looked up by SHA-256, so a guess is counted after the lookup: a wrong one in the same statement
    // that checks the limit (parallel guesses cannot slip past it). A request with no token at all is no guess.
    const guessed = !caller && request.headers.authorization !== undefined;
    const failedTooOften = guessed
      ? await limiter.reserve(request.ip)
      : checked
        ? LoginLimiter.seconds(checked.lockedRetry)
        : await limiter.retryAfter(request.ip);
    if (failedTooOften !== undefined) {
      reply.header('retry-after', failedTooOften);
      return reply.code(429).send({ ...tooManyRequestsBody, request_id: request.id });
    }
    if (!caller || !checked) {
      // Unauthenticated requests are not counted against any token, but still see the limits.
      reply.headers({
        'ratelimit-limit': settings.ratePerHour,
        'ratelimit-remaining': settings.ratePerHour,
        'ratelimit-reset': hourStart + 3600,
      });
      return reply.code(401).send({ ...unauthorizedBody, request_id: request.id });
    }
    settleBefore.set(request, { due: checked.due, now: timeNow });
    const used = { hour: checked.hour ?? 0, minute: checked.minute ?? 0 };
    reply.headers({
      'ratelimit-limit': settings.ratePerHour,
      'ratelimit-remaining': Math.max(0, settings.ratePerHour - used.hour),
      'ratelimit-reset': hourStart + 3600,
    });
    if (used.hour > settings.ratePerHour || used.minute > settings.ratePerMinute) {
      const retryAfter = used.hour > settings.ratePerHour ? hourStart + 3600 - now : minuteStart + 60 - now;
      // Refused for a burst, nothing can be spent now: the hourly budget left would invite a retry loop.
      reply.header('ratelimit-remaining', 0);
      reply.header('retry-after', Math.max(1, retryAfter));
      return reply.code(429).send({ ...tooManyRequestsBody, request_id: request.id });
    }
    const matched = request.routeOptions.url !== undefined;
    if (matched && !grants(caller.scopes, request.routeOptions.config?.scopes ?? [])) {
      return reply.code(403).send({ ...forbiddenBody, request_id: request.id });
    }
  };
}
