import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { preflightHeaders } from '../../platform/cors.js';
import { allowedMethods, type Matched } from './allow.js';
import { commentParams } from './comment-allow.js';
import { allRouteSpecs, indexSpec } from './discovery.js';
import { noRoute, restError } from './errors.js';
import { caller, siteOf } from './http.js';
import type { RouteSpec } from './route-spec.js';
import type { ContentStore } from './store.js';
import { schemaForSite } from './wordpress-form.js';

/** What `rest_send_nocache_headers` sends to logged-in callers (WordPress 6.1's `wp_get_nocache_headers`). */
const nocache = {
  expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
  'cache-control': 'no-cache, must-revalidate, max-age=0',
};
const allowHeaders = 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type';
const corsMethods = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
/** The REST response's own headers, which `_envelope` moves into the body (named as WordPress names them). */
const envelopeHeaders = {
  'x-wp-total': 'X-WP-Total',
  'x-wp-totalpages': 'X-WP-TotalPages',
  link: 'Link',
  allow: 'Allow',
  location: 'Location',
};

let compiled: { spec: RouteSpec; pattern: RegExp }[] | undefined;
/** Core matches `@^route$@i`: the route patterns (PCRE named groups) compiled once, case-insensitive. */
export function matchRoute(route: string): Matched | undefined {
  compiled ??= [indexSpec(), ...allRouteSpecs()].map((spec) => ({
    spec,
    pattern: new RegExp(`^${spec.path.replaceAll('(?P<', '(?<')}$`, 'i'),
  }));
  for (const { spec, pattern } of compiled) {
    const match = pattern.exec(route);
    if (match) return { spec, params: { ...match.groups } };
  }
  return undefined;
}

/** The route part of a /wp-json URL (`/wp/v2/posts/1`), without the query and trailing slash. */
const routeOf = (url: string) => {
  const path = decodeURIComponent((url.split('?', 1)[0] ?? '').slice('/wp-json'.length)).replace(/\/+$/, '');
  return path === '' ? '/' : path;
};

/** `_envelope`: status and the REST headers move into the body, which is always answered with 200. */
function envelope(reply: FastifyReply, payload: string, site: string) {
  const headers: Record<string, string | number> = {};
  for (const [name, wpName] of Object.entries(envelopeHeaders)) {
    let value = reply.getHeader(name);
    if (value === undefined) continue;
    if (name === 'link')
      value = String(value)
        .split(', ')
        .filter((l) => !l.includes('rel="https://api.w.org/"'))
        .join(', ');
    // Core sets the totals as integers, which the envelope shows as numbers.
    if (value !== '') headers[wpName] = name.startsWith('x-wp-total') ? Number(value) : String(value);
    if (name !== 'link') reply.removeHeader(name);
  }
  reply.header('link', `<${site}/>; rel="https://api.w.org/"`);
  const body = {
    body: payload === '' ? null : JSON.parse(payload),
    status: reply.statusCode,
    headers: Object.keys(headers).length ? headers : [],
  };
  reply.status(200);
  return JSON.stringify(body);
}

/** The request's `context` as core's Allow check sees it: handlers of successful writes set it to `edit`. */
function contextOf(request: FastifyRequest, reply: FastifyReply): string {
  if (request.method !== 'GET' && request.method !== 'OPTIONS' && reply.statusCode < 300) return 'edit';
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.context === 'string' ? query.context : 'view';
}

/** Answers made by replaying another request: already transformed, so passed through as they are. */
const replayed = new WeakSet<FastifyRequest>();

/**
 * `_jsonp` is recognised and refused, as core answers with `rest_jsonp_enabled` false: a `<script>` tag would let
 * any site read the API cross-origin (with the visitor's remembered credentials). Checked first, as core does.
 */
export const jsonpRequested = (request: FastifyRequest) =>
  typeof request.query === 'object' && request.query !== null && '_jsonp' in request.query;
export const jsonpDisabled = () =>
  restError(400, 'rest_callback_disabled', 'JSONP support is disabled on this site.');

/**
 * Core's REST transport around every /wp-json answer: its headers, `Allow`, `_envelope`, `OPTIONS`
 * with the route's description, and case-insensitive routes. Runs in the /wp-json plugin's context.
 */
export function installRestHttp(app: FastifyInstance, store: ContentStore) {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-robots-tag', 'noindex');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('access-control-allow-headers', allowHeaders);
    if (reply.getHeader('access-control-allow-origin'))
      reply.header('access-control-allow-methods', corsMethods);
    if (caller(request)) reply.headers(nocache);
    const matched = request.method === 'OPTIONS' ? undefined : matchRoute(routeOf(request.url));
    // Allow is a courtesy: a failure to work it out (the database gone) must not replace the answer, so server
    // errors other than 501 (core's "not supported" answers) get none.
    const serverError = reply.statusCode >= 500 && reply.statusCode !== 501;
    if (matched && reply.getHeader('allow') === undefined && !serverError) {
      let query = (request.query ?? {}) as Record<string, unknown>;
      // Comments' checks read the body and the collection's defaults too (post, status, author…).
      if (matched.spec.path.startsWith('/wp/v2/comments'))
        query = commentParams(request.method, query, request.body);
      const context = contextOf(request, reply);
      const methods = await allowedMethods(store, matched, caller(request), context, query).catch(() => []);
      if (methods.length) reply.header('allow', methods.join(', '));
    }
    if (typeof payload !== 'string' || replayed.has(request)) return payload;
    const query = request.query as Record<string, unknown>;
    let body = payload;
    // Core echoes the JSONP refusal before it would envelope anything.
    if (query && '_envelope' in query && !jsonpRequested(request))
      body = envelope(reply, body, siteOf(request).api);
    return body;
  });

  /** OPTIONS: the matched route's description and schema, as `rest_handle_options_request` answers. */
  const describe = async (request: FastifyRequest, reply: FastifyReply) => {
    if (reply.getHeader('access-control-allow-origin')) reply.headers(preflightHeaders(request.headers, {}));
    const matched = matchRoute(routeOf(request.url));
    if (!matched) return [];
    const methods = await allowedMethods(store, matched, caller(request), contextOf(request, reply));
    if (methods.length) reply.header('allow', methods.join(', '));
    const { spec } = matched;
    const { api } = siteOf(request);
    return {
      namespace: spec.path === '/' ? '' : 'wp/v2',
      methods: [...new Set(spec.endpoints.flatMap((e) => e.methods))],
      endpoints: spec.endpoints,
      ...(spec.schema ? { schema: schemaForSite(spec.schema, api) } : {}),
      ...(spec.linked ? { _links: { self: [{ href: `${api}${spec.path}` }] } } : {}),
    };
  };
  app.options('/wp-json', { schema: { hide: true } }, describe);
  app.options('/wp-json/*', { schema: { hide: true } }, describe);

  // No route matched: core's routes are case-insensitive, so a differently cased path is answered as its
  // lower-case twin; anything else is rest_no_route.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/wp-json/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      const [path = '', search] = request.url.split('?', 2);
      const lower = `/wp-json${path.slice('/wp-json'.length).toLowerCase()}`;
      if (lower === path) throw noRoute();
      return replay(app, request, reply, request.method, search ? `${lower}?${search}` : lower);
    },
  });
}

const hopHeaders = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'vary',
]);

/** Answers the request as if it had been sent to `url` (same method, headers and body), in-process. */
export async function replay(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  method: string,
  url: string,
) {
  const headers: Record<string, string | string[] | undefined> = {
    ...request.headers,
    'x-request-id': request.id,
  };
  for (const name of ['content-length', 'transfer-encoding', 'content-type']) delete headers[name];
  let payload: string | undefined;
  if (method !== 'GET' && method !== 'HEAD' && request.body !== undefined && request.body !== null) {
    payload = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  const answer = await app.inject({ method: method as 'GET', url, headers, payload });
  replayed.add(request);
  reply.status(answer.statusCode);
  for (const [name, value] of Object.entries(answer.headers))
    if (!hopHeaders.has(name) && !name.startsWith('access-control-') && value !== undefined)
      reply.header(name, value);
  return reply.send(answer.rawPayload);
}

/**
 * The site root: `?rest_route=/wp/v2/…` on `/` and `/index.php` is the REST API without pretty permalinks;
 * otherwise `/` is a small home page carrying the API's discovery `Link`, as WordPress's front page does.
 */
export function siteRootRoutes(siteName: () => Promise<string>) {
  return async (app: FastifyInstance) => {
    for (const url of ['/', '/index.php'])
      app.route({
        method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        url,
        schema: { hide: true },
        handler: async (request, reply) => {
          const params = new URLSearchParams(request.url.split('?', 2)[1] ?? '');
          const route = params.get('rest_route');
          if (route !== null) {
            params.delete('rest_route');
            const rest = params.toString();
            const path = `/wp-json${route.startsWith('/') ? route : `/${route}`}`;
            return replay(app, request, reply, request.method, rest ? `${path}?${rest}` : path);
          }
          if (request.method !== 'GET' && request.method !== 'HEAD') throw noRoute();
          const name = (await siteName()).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
          reply.header('link', `<${siteOf(request).api}/>; rel="https://api.w.org/"`);
          reply.type('text/html; charset=UTF-8');
          return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${name}</title></head>\n<body><h1>${name}</h1><p>The REST API is at <a href="/wp-json/">/wp-json/</a>.</p></body></html>\n`;
        },
      });
  };
}
