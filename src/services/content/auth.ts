import { randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { newToken, safeEqual, tokenHash } from '../../platform/secrets.js';
import { RestError } from './errors.js';
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

const badCredentials = () =>
  new RestError(401, 'incorrect_password', 'The provided password is an invalid application password.');
const badToken = () => new RestError(401, 'incorrect_password', 'The provided access token is invalid.');

/**
 * The caller from `Authorization`: Basic with an application password, or Bearer with an access token.
 * No header (or another scheme) is an anonymous caller; wrong credentials are refused outright, as WordPress does.
 */
export async function authenticate(
  store: ContentStore,
  request: FastifyRequest,
): Promise<UserRow | undefined> {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value = ''] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === 'bearer') {
    const user = value ? await store.findBearer(tokenHash(value)) : undefined;
    if (!user) throw badToken();
    return user;
  }
  if (scheme?.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw badCredentials();
  const login = decoded.slice(0, colon);
  const given = tokenHash(normalizeAppPassword(decoded.slice(colon + 1)));
  const user = await store.findUserByLogin(login);
  const stored = user ? await store.credentialHashes(user.id, 'app_password') : [];
  // Every stored hash is compared (in constant time) so the answer does not depend on where a match is.
  let matched: number | undefined;
  for (const row of stored) if (safeEqual(row.secret_hash, given)) matched = row.id;
  if (!user || matched === undefined) throw badCredentials();
  await store.markUsed(matched);
  return user;
}
