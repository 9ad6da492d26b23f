import { type IncomingMessage, METHODS } from 'node:http';

/**
 * The methods an `X-HTTP-Method-Override` may turn a POST into, as Express's method-override (json-server's router)
 * does: any HTTP method, in any case. HEAD and OPTIONS are left out: json-server answered a HEAD override with a
 * Content-Length and no body (the client hangs) and an OPTIONS one with Express's Allow text; here the request
 * stays the POST it was.
 */
const overridable = new Set(METHODS.filter((method) => method !== 'HEAD' && method !== 'OPTIONS'));

/**
 * A POST with `X-HTTP-Method-Override: DELETE` (or PUT, PATCH, GET…) is routed as that method, as on json-server.
 * Only the first of several values counts; other values, other methods and the index page `/` (served ahead of
 * json-server's router) are left alone.
 */
export function applyMethodOverride(request: IncomingMessage): undefined {
  if (request.method !== 'POST') return;
  const header = request.headers['x-http-method-override'];
  if (header === undefined || request.url === '/' || request.url?.startsWith('/?')) return;
  const method = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim().toUpperCase();
  if (method && overridable.has(method)) request.method = method;
}
