import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/service.js';
import { noRoute } from '../errors.js';
import { caller, siteOf } from '../http.js';
import type { MediaFiles } from '../media.js';
import { argsOf, type RouteSpec } from '../route-spec.js';
import { responses } from '../schemas.js';
import type { Site } from '../site.js';
import type { ContentStore, UserRow } from '../store.js';

// A WordPress resource in one declaration: its routes with their parameters, one permission check per endpoint
// (run by the route before its handler, and by the Allow header for every method of the route), its JSON schema
// for OPTIONS and the index. Handlers read "check, call the store, render". resources/index.ts lists them.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a permission check sees: the same for a request and for the Allow header of any request on its route. */
export interface Check {
  store: ContentStore;
  me: UserRow | undefined;
  /** Path parameters as text (`id`, `location`), as the route pattern captured them. */
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** `view`, `embed` or `edit`; Allow passes `edit` after a successful write, as core's handlers set it. */
  context: string;
  /**
   * The request's method and body parameters (`{}` without a body): core's checks read `$request` (comments' the
   * body over the query; a users update that only sets `roles` needs promote_users, not edit_users), and Allow runs
   * every endpoint's check with the one request (an OPTIONS request has no body).
   */
  method: string;
  body: Record<string, unknown>;
}

/** A route of content's REST index that a path matched, with what its pattern captured. */
export interface MatchedRoute {
  spec: RouteSpec;
  params: Record<string, string>;
}

/** Content's router as core's REST server sees it, for resources that dispatch requests (`/batch/v1`). */
export interface RestRouter {
  /** The route a path matches, as core matches it (case-insensitive), if any. */
  match(path: string): MatchedRoute | undefined;
  /** `rest_send_allow_header` for a matched route and caller. */
  allowed(
    matched: MatchedRoute,
    me: UserRow | undefined,
    context: string,
    query: Record<string, unknown>,
  ): Promise<string[]>;
  /** The site's title (its settings), which oEmbed answers name the provider by. */
  siteName(site: Site): Promise<string>;
}

/** A handler's call: the check's view plus the site's addresses, the reply (for headers) and the clock. */
export interface Call extends Check {
  site: Site;
  /** The media files' object store (embedded or S3), for writes that remove attachments with their files. */
  files: MediaFiles;
  request: FastifyRequest;
  reply: FastifyReply;
  rest: RestRouter;
  /** The service's clock (`ServiceContext.clock`): time windows read it, never SQL's `now()`. */
  clock: Clock;
}

export interface Endpoint {
  methods: Method[];
  summary: string;
  querystring?: TObject;
  body?: TObject;
  /** The success answer's schema and status (200 unless told). */
  response: TSchema;
  status?: number;
  /** Arguments the index lists when they are not the query's or body's (WordPress's own replace them anyway). */
  args?: Record<string, unknown>;
  /** Runs before validation: WordPress's coercions a schema cannot say (`post=1,2` as a list). */
  prepare?(request: FastifyRequest): void;
  /**
   * Parameter checks core runs before the permission check (its arguments' validate and sanitize callbacks):
   * throws a 400 that may read the body. The route runs it; Allow does not (a bad parameter takes no method away).
   */
  validate?(call: Call): Promise<void> | void;
  /** Throws the refusal (an HttpError: 401/403, or 404 for an item that is not there); passes otherwise. */
  check(check: Check): Promise<void> | void;
  handle(call: Call): Promise<unknown>;
}

export interface ResourceRoute {
  /** WordPress's pattern, e.g. `/wp/v2/menus/(?P<id>[\\d]+)`; the Fastify URL is made from it. */
  path: string;
  /**
   * The parameter that may span a slash (plugins' `akismet/akismet`): routed as Fastify's `*`, then held to the
   * pattern (anything else is rest_no_route, as core's match fails).
   */
  wildcard?: string;
  /** Its path parameters with their sentences, when not just `id`. */
  params?: TObject;
  /** false for a route of the resource that answers no item (an action such as a user's `restore`). */
  schema?: false;
  endpoints: Endpoint[];
}

export interface Resource {
  /** The REST base (`menus`), also the OpenAPI tag unless `openapiTag` names another. */
  name: string;
  openapiTag?: string;
  /** The item schema in core's form (draft-04, titled) that OPTIONS answers; WordPress's recorded one replaces it. */
  schema?: Record<string, unknown>;
  routes: ResourceRoute[];
}

export const defineResource = (resource: Resource): Resource => resource;

/** A `(?P<name>pattern)` capture of a WordPress route pattern, from its `(` to its closing `)`. */
interface Capture {
  name: string;
  pattern: string;
  start: number;
  end: number;
}

function captures(path: string): Capture[] {
  const found: Capture[] = [];
  for (let at = path.indexOf('(?P<'); at !== -1; at = path.indexOf('(?P<', at + 1)) {
    const name = /^\(\?P<(\w+)>/.exec(path.slice(at))?.[1] ?? 'param';
    let depth = 0;
    let end = at;
    for (; end < path.length; end++) {
      if (path[end] === '\\') end++;
      else if (path[end] === '[') end = path.indexOf(']', end + 2);
      else if (path[end] === '(') depth++;
      else if (path[end] === ')' && --depth === 0) break;
    }
    found.push({ name, pattern: path.slice(at + `(?P<${name}>`.length, end), start: at, end });
  }
  return found;
}

/**
 * `/wp/v2/menus/(?P<id>[\d]+)` → `/wp-json/wp/v2/menus/:id(^\d+$)`: a capture keeps WordPress's pattern, so a path
 * it would not match (`/block-types/core/a.b`) is `rest_no_route`, as there, not a 400. A capture with groups or
 * slashes inside (the themes' `(?P<stylesheet>…(?:\/…)?)`) becomes a plain parameter: the router cannot match those
 * (the route holds the ones without slashes to their pattern, heldParams).
 */
export function fastifyUrl(path: string): string {
  let url = path;
  for (const { name, pattern, start, end } of captures(path).reverse()) {
    // `[\d]` as `\d`, the very regex of the older routes' ids beside them (one router node per pattern).
    const param = /[()/]/.test(pattern) ? `:${name}` : `:${name}(^${pattern.replaceAll('[\\d]', '\\d')}$)`;
    url = `${url.slice(0, start)}${param}${url.slice(end + 1)}`;
  }
  return `/wp-json${url}`;
}

const hasParams = (path: string) => path.includes('(?P<');

/** The index's and OPTIONS' description of each route (inWordPressForm then puts it in WordPress's words). */
export function resourceSpecs(resources: readonly Resource[]): RouteSpec[] {
  return resources.flatMap((resource) =>
    resource.routes.map((route) => ({
      path: route.path,
      linked: !hasParams(route.path),
      schema: route.schema === false ? undefined : resource.schema,
      endpoints: route.endpoints.map((endpoint) => ({
        methods: endpoint.methods,
        args: endpoint.args ?? {
          ...(route.params ? argsOf(route.params) : {}),
          ...(endpoint.querystring ? argsOf(endpoint.querystring) : {}),
          ...(endpoint.body ? argsOf(endpoint.body) : {}),
        },
      })),
    })),
  );
}

/** The route of these resources a WordPress pattern names, if one does. */
export function resourceRoute(resources: readonly Resource[], path: string): ResourceRoute | undefined {
  for (const resource of resources)
    for (const route of resource.routes) if (route.path === path) return route;
  return undefined;
}

/** `rest_send_allow_header` for a resource's route: the methods whose own permission check passes. */
export async function allowedByChecks(route: ResourceRoute, check: Check): Promise<string[]> {
  const allowed: string[] = [];
  for (const endpoint of route.endpoints) {
    const passes = await Promise.resolve()
      .then(() => endpoint.check(check))
      .then(
        () => true,
        (error: unknown) => {
          if (!(error instanceof HttpError)) throw error;
          return false;
        },
      );
    if (passes) allowed.push(...endpoint.methods);
  }
  return allowed;
}

/** The pattern of a route's wildcard parameter, whole (`^…$`), as core matches it (case-insensitive). */
function wildcardPattern(route: ResourceRoute): RegExp {
  const at = route.path.indexOf(`(?P<${route.wildcard}>`);
  const group = route.path.slice(at).replace(/^\(\?P<\w+>/, '(');
  return new RegExp(`^${group}$`, 'i');
}

/**
 * Captures the router cannot hold to their pattern (groups without slashes, as users' `(?:[\d]+|me)`), each with
 * its pattern, whole and case-insensitive as core matches: a value outside it is rest_no_route.
 */
function heldParams(route: ResourceRoute): [string, RegExp][] {
  return captures(route.path)
    .filter(({ name, pattern }) => name !== route.wildcard && pattern.includes('(') && !pattern.includes('/'))
    .map(({ name, pattern }) => [name, new RegExp(`^(?:${pattern})$`, 'i')]);
}

const textParams = (params: unknown) =>
  Object.fromEntries(
    Object.entries((params ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  );

/** Every route of these resources on Fastify: validate, check, handle. */
export function resourceRoutes(
  store: ContentStore,
  resources: readonly Resource[],
  files: MediaFiles,
  rest: RestRouter,
  clock: Clock,
): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    for (const resource of resources)
      for (const route of resource.routes) {
        const held = heldParams(route);
        for (const endpoint of route.endpoints)
          app.route({
            method: endpoint.methods,
            url: route.wildcard
              ? fastifyUrl(route.path).replace(`:${route.wildcard}`, '*')
              : fastifyUrl(route.path),
            schema: {
              tags: [resource.openapiTag ?? resource.name],
              summary: endpoint.summary,
              ...(route.wildcard
                ? {}
                : route.params
                  ? { params: route.params }
                  : route.path.includes('(?P<id>')
                    ? { params: Type.Object({ id: Type.Integer() }) }
                    : {}),
              ...(endpoint.querystring ? { querystring: endpoint.querystring } : {}),
              ...(endpoint.body ? { body: endpoint.body } : {}),
              response: responses(endpoint.response, endpoint.status ?? 200),
            },
            ...(endpoint.prepare ? { preValidation: async (request) => endpoint.prepare?.(request) } : {}),
            handler: async (request, reply) => {
              const query = (request.query ?? {}) as Record<string, unknown>;
              const params = textParams(request.params);
              if (route.wildcard) {
                const value = params['*'] ?? '';
                delete params['*'];
                if (!wildcardPattern(route).test(value)) throw noRoute();
                params[route.wildcard] = value;
              }
              if (held.some(([name, pattern]) => !pattern.test(params[name] ?? ''))) throw noRoute();
              const body = (request.body ?? {}) as Record<string, unknown>;
              const check: Check = {
                store,
                me: caller(request),
                params,
                query,
                context: typeof query.context === 'string' ? query.context : 'view',
                method: request.method,
                body,
              };
              const call: Call = { ...check, site: siteOf(request), files, request, reply, rest, clock };
              await endpoint.validate?.(call);
              await endpoint.check(check);
              if (endpoint.status) reply.status(endpoint.status);
              return endpoint.handle(call);
            },
          });
      }
  };
}
