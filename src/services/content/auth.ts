import { randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { LoginLimiter } from '../../platform/login-limit.js';
import { authScheme, parseBasic, parseBearer } from '../../platform/request.js';
import { newToken, safeEqual, tokenHash } from '../../platform/secrets.js';
import { errorFor } from './errors.js';
import type { ContentStore, UserRow } from './store.js';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 24 letters and digits, shown in groups of four as WordPress does (the spaces are optional when used). */
export function newAppPassword(): string {
  let password = '';
  for (let i = 0; i < 24; i++) password += alphabet[randomInt(alphabet.length)];
  return password.replace(/(.{4})(?!$)/g, '$1 ');
}

export const normalizeAppPassword = (password: string) => password.replace(/\s+/g, '');

export const newAccessToken = () => newToken(32);

/**
 * The caller from `Authorization`: Basic with an application password, or Bearer with an access token.
 * No header (or another scheme) is an anonymous caller, and so is a wrong application password (as WordPress 6.1
 * answers it); an unknown bearer token is refused.
 */
export async function authenticate(
  store: ContentStore,
  limiter: LoginLimiter,
  request: FastifyRequest,
): Promise<UserRow | undefined> {
  const header = request.headers.authorization;
  const scheme = authScheme(header);
  if (scheme !== 'bearer' && scheme !== 'basic') return undefined;
  // Tokens are looked up by SHA-256 (no Argon2 to spare), so the guess is counted after the lookup: a wrong one
  // in the same statement that checks the limit, so parallel guesses cannot slip past it; a right one only
  // checks it.
  const found = scheme === 'bearer' ? await bearerUser(store, header) : await basicUser(store, header);
  const retryAfter = found ? await limiter.retryAfter(request.ip) : await limiter.reserve(request.ip);
  if (retryAfter !== undefined) {
    throw errorFor(
      request,
      429,
      'rest_too_many_requests',
      `Too many failed logins; try again in ${retryAfter} s.`,
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }
  if (!found) {
    // WordPress 6.1 answers a wrong application password as an anonymous request (its user is worked out after
    // rest_application_password_check_errors has run), so Basic does too. Bearer tokens are backlot's own.
    if (scheme === 'basic') return undefined;
    throw errorFor(request, 401, 'incorrect_password', 'The provided access token is invalid.');
  }
  if (found.appPassword !== undefined) {
    await store.markUsed(found.appPassword, request.ip);
    usedAppPassword.set(request, found.appPassword);
  }
  return found.user;
}

async function bearerUser(store: ContentStore, header: string | undefined) {
  const token = parseBearer(header);
  const user = token ? await store.findBearer(tokenHash(token)) : undefined;
  return user ? { user, appPassword: undefined } : undefined;
}

/** The application password (credential id) each request authenticated with, for `…/introspect`. */
const usedAppPassword = new WeakMap<FastifyRequest, number>();
export const appPasswordOf = (request: FastifyRequest) => usedAppPassword.get(request);

async function basicUser(store: ContentStore, header: string | undefined) {
  const credentials = parseBasic(header);
  if (!credentials) return undefined;
  const given = tokenHash(normalizeAppPassword(credentials.password));
  const user = await store.findUserByLogin(credentials.user);
  const stored = user ? await store.credentialHashes(user.id, 'app_password') : [];
  // Every stored hash is compared (in constant time) so the answer does not depend on where a match is.
  let matched: number | undefined;
  for (const row of stored) if (safeEqual(row.secret_hash, given)) matched = row.id;
  if (!user || matched === undefined) return undefined;
  return { user, appPassword: matched };
}
