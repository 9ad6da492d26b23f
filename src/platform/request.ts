import type { FastifyRequest } from 'fastify';

/** A Host (or X-Forwarded-Host) value fit to put in a URL: a DNS name or IPv4, or a bracketed IPv6, and a port. */
const hostPattern =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9-]{1,63})*\.?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

export function isValidHost(host: string | undefined): host is string {
  return host !== undefined && host.length <= 260 && hostPattern.test(host);
}

/**
 * The origin a client used to reach this service, for absolute links (`Location`, `Link`, `source_url`).
 * Behind a proxy (`TRUST_PROXY`) Fastify's `protocol` and `host` already read the forwarded headers; a missing
 * or malformed Host (HTTP/1.0 clients, hostile requests) falls back to `fallback` (or `localhost`) instead of
 * breaking a URL.
 */
export function publicOrigin(request: FastifyRequest, fallback?: string): string {
  const host = request.host;
  if (isValidHost(host)) return `${request.protocol}://${host.toLowerCase()}`;
  return fallback ?? `${request.protocol}://localhost`;
}

let warnedOfProxy = false;

/**
 * Without TRUST_PROXY a proxy's X-Forwarded-For is ignored, so every client behind it shares the proxy's address
 * for the failed-login limit. Said once per process: the operator needs to know, not to read it per request.
 */
export function warnOfUntrustedProxy(request: FastifyRequest) {
  if (warnedOfProxy || request.headers['x-forwarded-for'] === undefined) return;
  warnedOfProxy = true;
  request.log.warn(
    `X-Forwarded-For arrived but TRUST_PROXY is not set: every client behind that proxy shares its address (${request.ip}) for failed-login limits; set TRUST_PROXY to the proxy's addresses`,
  );
}

export interface BasicCredentials {
  user: string;
  password: string;
}

/**
 * The user and password of `Authorization: Basic …` (RFC 7617), or undefined when the header is absent, of
 * another scheme, or malformed: not base64, no colon, an empty user, or control characters in the user name
 * (a NUL would otherwise reach SQL, which refuses it).
 */
export function parseBasic(header: string | undefined): BasicCredentials | undefined {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  const user = decoded.slice(0, colon);
  if (/[\u0000-\u001f\u007f]/.test(user) || decoded.includes('\u0000')) return undefined;
  return { user, password: decoded.slice(colon + 1) };
}

/** The token of `Authorization: Bearer <token>` (RFC 6750 token68 characters), or undefined. */
export function parseBearer(header: string | undefined): string | undefined {
  return /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? '')?.[1];
}

/** The scheme named by an Authorization header, lower-cased (`basic`, `bearer`), or undefined. */
export function authScheme(header: string | undefined): string | undefined {
  return header
    ? /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)/.exec(header.trim())?.[1]?.toLowerCase()
    : undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the service's authentication hook found this request to come from (each service's own type). */
    caller: unknown;
  }
}

/** The authenticated caller, typed by the service that set it. */
export const callerOf = <T>(request: FastifyRequest) => request.caller as T | undefined;
