import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/**
 * Which web pages may read a service's answers through a browser. Services without credentials keep the public
 * APIs' behaviour (any origin); services with credentials answer only origins on the allowlist, so a page on
 * another site cannot use a developer's remembered Basic credentials or read their data.
 */
export type CorsPolicy = { anyOrigin: true } | { anyOrigin: false; allowed: (origin: string) => boolean };

/** `CORS_ORIGINS`: `*`, or origins (`https://app.example.com`) separated by commas; loopback pages always pass. */
export function corsPolicy(credentialed: boolean, configured: string[] | '*'): CorsPolicy {
  if (!credentialed || configured === '*') return { anyOrigin: true };
  const listed = new Set(configured.map((o) => o.toLowerCase()));
  return {
    anyOrigin: false,
    allowed: (origin) => isLoopbackOrigin(origin) || listed.has(origin.toLowerCase()),
  };
}

/** `http(s)://localhost`, `*.localhost`, `127.x.x.x` or `[::1]`, any port: pages a developer runs locally. */
export function isLoopbackOrigin(origin: string): boolean {
  const match = /^https?:\/\/([^/:]+|\[[^\]]+\])(?::\d{1,5})?$/i.exec(origin);
  return match ? isLoopbackHost(match[1] as string) : false;
}

function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(name) ||
    name === '[::1]'
  );
}

export function originAllowed(policy: CorsPolicy, origin: string | undefined): boolean {
  return origin === undefined || policy.anyOrigin || policy.allowed(origin);
}

/**
 * The CORS headers of an answer to an actual (not preflight) request; the Fastify routes and the fast path
 * both send exactly these. A refused origin gets none, so the browser keeps the answer from the page.
 */
export function corsHeaders(
  policy: CorsPolicy,
  origin: string | undefined,
  expose: string,
  headers: OutgoingHttpHeaders = {},
): OutgoingHttpHeaders {
  if (originAllowed(policy, origin)) {
    if (origin) headers['access-control-allow-origin'] = origin;
    headers['access-control-allow-credentials'] = 'true';
    headers['access-control-expose-headers'] = expose;
  }
  headers.vary = 'Origin';
  return headers;
}

export const corsMethods = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** What a preflight (`OPTIONS` with `Access-Control-Request-Method`) adds for an allowed origin. */
export function preflightHeaders(request: IncomingHttpHeaders, headers: OutgoingHttpHeaders) {
  headers['access-control-allow-methods'] = corsMethods;
  headers.vary = 'Origin, Access-Control-Request-Headers';
  const asked = request['access-control-request-headers'];
  if (asked !== undefined) headers['access-control-allow-headers'] = asked;
  headers['access-control-max-age'] = '86400';
  return headers;
}

/**
 * DNS rebinding: a hostile site's name made to resolve to 127.0.0.1 reaches a local service with its own name in
 * `Host`. When the check is on, only loopback names, IP literals (which need no DNS) and `ALLOWED_HOSTS` pass.
 */
export function hostAllowed(host: string | undefined, allowedHosts: string[]): boolean {
  if (!host) return true; // HTTP/1.0 sends none, and a page in a browser always sends one.
  const hostname = host.replace(/:\d{1,5}$/, '').toLowerCase();
  if (isLoopbackHost(hostname) || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return true;
  return allowedHosts.some((allowed) =>
    allowed.startsWith('.')
      ? hostname.endsWith(allowed) || hostname === allowed.slice(1)
      : hostname === allowed,
  );
}

/** Whether the Host check is on: by default when listening on loopback only, always when ALLOWED_HOSTS is set. */
export function hostCheckOn(
  listenHost: string | undefined,
  allowedHosts: string[] | '*' | undefined,
): boolean {
  if (allowedHosts === '*') return false;
  if (allowedHosts !== undefined) return true;
  return listenHost !== undefined && isLoopbackHost(listenHost === '::1' ? '[::1]' : listenHost);
}
