import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { preflightHeaders } from '../../platform/cors.js';
import { allowedMethods, type Matched } from './allow.js';
import { allRouteSpecs, indexSpec, namespaceOf } from './discovery.js';
import { noRoute, restError } from './errors.js';
import { caller, siteOf } from './http.js';
import { envelopeHeaders } from './rest-headers.js';
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

let compiled: { spec: RouteSpec; pattern: RegExp }[] | undefined;
/** Core matches `@^route$@i`: the route patterns (PCRE named groups) compiled once, case-insensitive. */
function matchWithIndices(route: string) {
  compiled ??= [indexSpec(), ...allRouteSpecs()].map((spec) => ({
    spec,
    pattern: new RegExp(`^${spec.path.replaceAll('(?P<', '(?<')}$`, 'di'),
  }));
  for (const { spec, pattern } of compiled) {
    const match = pattern.exec(route);
    if (match) return { spec, match };
  }
  return undefined;
}

export function matchRoute(route: string): Matched | undefined {
  const found = matchWithIndices(route);
  return found && { spec: found.spec, params: { ...found.match.groups } };
}

/**
 * The path the router knows for a differently cased route (`/WP/V2/Posts/1` → `/wp/v2/posts/1`): core's patterns
 * ignore case, but what they capture keeps it (`/types/POST` is no type), so only the text around the captures is
 * lowered. Undefined when no route matches.
 */
function routeInLowerCase(route: string): string | undefined {
  const trimmed = route.replace(/\/+$/, '');
  const found = matchWithIndices(trimmed === '' ? '/' : trimmed);
  if (!found) return undefined;
  // ASCII only, as PCRE's /i without /u: the length stays, so the captures' offsets still hold.
  const chars = route.replace(/[A-Z]/g, (c) => c.toLowerCase()).split('');
  for (const span of Object.values(found.match.indices?.groups ?? {}))
    if (span) for (let i = span[0]; i < span[1]; i++) chars[i] = route[i] as string;
  return chars.join('');
}

/** The methods a POST may be turned into (core's `_method` and X-HTTP-Method-Override). */
const overridable = new Set(['GET', 'PUT', 'PATCH', 'DELETE']);

/** `?rest_route=/wp/v2/posts&page=2` on `/` or `/index.php` as its pretty URL, `/wp-json/wp/v2/posts?page=2`. */
function prettyUrl(path: string, query: string): string | undefined {
  if (path !== '/' && path !== '/index.php') return undefined;
  const pairs = query.split('&');
  // URLSearchParams decodes as PHP does (`+` is a space) and never throws on a stray `%`.
  const at = pairs.findIndex((pair) => new URLSearchParams(pair).has('rest_route'));
  if (at === -1) return undefined;
  const route = new URLSearchParams(pairs[at]).get('rest_route') ?? '';
  pairs.splice(at, 1);
  // Back into a path: what would end it early (`?`, `#`) or not be one (spaces, `%`) is escaped.
  const escaped = encodeURI(route.startsWith('/') ? route : `/${route}`).replace(/[?#]/g, encodeURIComponent);
  const rest = pairs.filter(Boolean).join('&');
  return `/wp-json${escaped}${rest ? `?${rest}` : ''}`;
}

/**
 * What core's REST server does before it dispatches, done before Fastify routes the request so the whole request
 * (faults, journal, hooks) happens once: `?rest_route=` becomes the pretty URL, a differently cased route is routed
 * as its lower-case twin, and a POST carrying `_method` or `X-HTTP-Method-Override` is routed as that method. Only a
 * POST is re-methoded: a GET turned into a DELETE by a link would let any page write with remembered credentials.
 */
export function beforeRestRouting(request: IncomingMessage): string | undefined {
  const url = request.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const query = mark === -1 ? '' : url.slice(mark + 1);
  let routed = prettyUrl(path, query);
  const restPath = routed ? routed.split('?', 1)[0] : path;
  if (!restPath || !/^\/wp-json(\/|$)/.test(restPath)) return routed;
  const route = restPath.slice('/wp-json'.length);
  if (/[A-Z]/.test(route)) {
    const lower = routeInLowerCase(route);
    if (lower !== undefined) {
      const restQuery = routed ? routed.slice(restPath.length) : mark === -1 ? '' : url.slice(mark);
      routed = `/wp-json${lower}${restQuery}`;
    }
  }
  if (request.method === 'POST') {
    const params = new URLSearchParams((routed ?? url).split('?', 2)[1] ?? '');
    const header = request.headers['x-http-method-override'];
    // As core: `_method` (PHP keeps the last of repeated ones) wins over the header.
    const wanted = params.getAll('_method').at(-1) ?? (typeof header === 'string' ? header : undefined);
    const method = wanted?.trim().toUpperCase();
    if (method && overridable.has(method)) request.method = method;
  }
  return routed;
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
    let matched = request.method === 'OPTIONS' ? undefined : matchRoute(routeOf(request.url));
    // A method the route does not serve is rest_no_route, which core answers without Allow (no route matched).
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (matched && !matched.spec.endpoints.some((e) => e.methods.includes(method))) matched = undefined;
    // Allow is a courtesy: a failure to work it out (the database gone) must not replace the answer, so server
    // errors other than 501 (core's "not supported" answers) get none.
    const serverError = reply.statusCode >= 500 && reply.statusCode !== 501;
    if (matched && reply.getHeader('allow') === undefined && !serverError) {
      let query = (request.query ?? {}) as Record<string, unknown>;
      const sent = request.body;
      const body =
        sent && typeof sent === 'object' && !Buffer.isBuffer(sent) && !Array.isArray(sent)
          ? (sent as Record<string, unknown>)
          : {};
      // A write's `password` is the request's, as core's params put the JSON body first (GET's check reads it).
      if (typeof body.password === 'string') query = { ...query, password: body.password };
      const context = contextOf(request, reply);
      const methods = await allowedMethods(store, matched, caller(request), context, query, {
        method: request.method,
        body,
      }).catch(() => []);
      if (methods.length) reply.header('allow', methods.join(', '));
    }
    if (typeof payload !== 'string') return payload;
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
      namespace: namespaceOf(spec.path),
      methods: [...new Set(spec.endpoints.flatMap((e) => e.methods))],
      endpoints: spec.endpoints,
      ...(spec.schema ? { schema: schemaForSite(spec.schema, api) } : {}),
      ...(spec.linked ? { _links: { self: [{ href: `${api}${spec.path}` }] } } : {}),
    };
  };
  app.options('/wp-json', { schema: { hide: true } }, describe);
  app.options('/wp-json/*', { schema: { hide: true } }, describe);

  // No route matched (a differently cased route was lowered before routing): rest_no_route. Also lets POSTs to
  // routes without a POST handler answer as WordPress does.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/wp-json/*',
    schema: { hide: true },
    handler: async () => {
      throw noRoute();
    },
  });
}

/**
 * The site root: a small home page carrying the API's discovery `Link`, as WordPress's front page does
 * (`?rest_route=/wp/v2/…` on `/` and `/index.php` was routed to /wp-json by beforeRestRouting).
 */
export function siteRootRoutes(siteName: () => Promise<string>) {
  return async (app: FastifyInstance) => {
    for (const url of ['/', '/index.php'])
      app.route({
        method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        url,
        schema: { hide: true },
        handler: async (request, reply) => {
          if (request.method !== 'GET' && request.method !== 'HEAD') throw noRoute();
          const name = (await siteName()).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
          reply.header('link', `<${siteOf(request).api}/>; rel="https://api.w.org/"`);
          reply.type('text/html; charset=UTF-8');
          return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${name}</title></head>\n<body><h1>${name}</h1><p>The REST API is at <a href="/wp-json/">/wp-json/</a>.</p></body></html>\n`;
        },
      });
  };
}
