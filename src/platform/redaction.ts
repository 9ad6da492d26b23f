import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';

/**
 * The one rule for which names carry secrets, shared by the request journal (headers, query, bodies) and the
 * request log (the URL's query): two rules would drift apart, and one of them would leak.
 */
export const redacted = '[redacted]';

/** Anywhere in a name: `password`, `newPassword`, `db-user-secret`, `x-auth-token`, `_wpnonce`, `credentials`. */
const secretPart = /pass|secret|token|api[-_]?key|authorization|cookie|credential|nonce|jwt/i;
/**
 * Short names that only count as whole words (`pin`, `user_pin`, `pinCode`, `otp`), so `shipping`, `mapping` or
 * `spinner` stay readable.
 */
const secretWords = new Set(['pwd', 'pin', 'otp', 'totp', 'mfa', 'sid']);

export function isSecretName(name: string): boolean {
  if (secretPart.test(name)) return true;
  for (const word of name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)) {
    if (secretWords.has(word.toLowerCase())) return true;
  }
  return false;
}

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = isSecretName(name) ? redacted : value;
  }
  return out;
}

/**
 * A copy of a JSON-like value with every secret-named field replaced, whatever it holds (`{"password": ["x"]}`
 * too); anything else (streams, files) is described.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 20) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    return Buffer.isBuffer(value) ? `[${value.length} bytes]` : `[${proto?.constructor?.name ?? 'object'}]`;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = isSecretName(key) ? redacted : redactValue(item, depth + 1);
  }
  return out;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A URL with the values of secret-named query parameters replaced; everything else left as the client sent it. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return isSecretName(decoded(name)) ? `${name}=${redacted}` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/** Fastify's own `req` log serializer, with the URL redacted: the info request log then keeps no secret query. */
export function requestLogSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
