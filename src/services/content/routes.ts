import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { acceptForms, acceptMultipartFields } from '../../platform/body-types.js';
import { jsonBodyParser } from '../../platform/http.js';
import type { LoginLimiter } from '../../platform/login-limit.js';
import type { Clock } from '../../platform/service.js';
import { allowedMethods } from './allow.js';
import { authenticate } from './auth.js';
import { discoveryRoutes } from './discovery.js';
import { embedLinkedResources } from './embed-links.js';
import { errorFor, restError } from './errors.js';
import { caller, setCaller, siteOf } from './http.js';
import type { MediaFiles } from './media.js';
import { optionRoutes, siteOptions } from './options.js';
import { postRoutes } from './posts.js';
import { batchCaller, VALID_HEADER, validateOnly } from './resources/batch/inner.js';
import { resourceRoutes } from './resources/contract.js';
import { resources } from './resources/index.js';
import { installRestHttp, jsonpDisabled, jsonpRequested, matchRoute, siteRootRoutes } from './rest-http.js';
import { searchRoutes } from './search.js';
import type { ContentSettings } from './settings.js';
import { settingsRoutes } from './settings-routes.js';
import { siteRoutes } from './site-routes.js';
import type { ContentStore } from './store.js';
import { mergeQueryIntoWrite, pickWriteFields } from './write-params.js';

/** Parameters that take lists: WordPress accepts `a=1,2`, `a[]=1&a[]=2` and repeated `a=1&a=2`. */
const listParams = new Set([
  'author',
  'author_exclude',
  'categories',
  'tags',
  'include',
  'exclude',
  'slug',
  'status',
  'roles',
  'capabilities',
  'has_published_posts',
  'subtype',
]);

function normalizeQuery(request: FastifyRequest) {
  const query = request.query as Record<string, unknown>;
  if (!query || typeof query !== 'object') return;
  for (const key of Object.keys(query)) {
    if (!key.endsWith('[]')) continue;
    const name = key.slice(0, -2);
    query[name] = ([] as unknown[]).concat(query[name] ?? [], query[key] as unknown[]);
    delete query[key];
  }
  for (const name of listParams) {
    const value = query[name];
    if (typeof value === 'string' && value.includes(',')) query[name] = value.split(',').filter(Boolean);
  }
  // `_fields` is core's global parameter, read by wp_parse_list: a PHP array (`_fields[]=id&_fields[]=slug`) is
  // the same list as `_fields=id,slug`, on every route.
  if (Array.isArray(query._fields)) query._fields = query._fields.map(String).join(',');
}

const metaRoutes =
  /^\/wp-json\/wp\/v2\/(posts|pages|media|users|comments|categories|tags)(\/(me|:id[^/]*))?$/;
const writes = new Set(['POST', 'PUT', 'PATCH']);

/**
 * `meta` on writes: no keys are registered, so any object (or array) is accepted and its keys ignored, as
 * WordPress does; anything else fails core's check_meta_is_array before permissions are checked.
 */
function checkMeta(request: FastifyRequest) {
  const body = request.body as Record<string, unknown> | undefined;
  const meta = body && typeof body === 'object' && !Buffer.isBuffer(body) ? body.meta : undefined;
  if (meta === undefined || meta === null || typeof meta === 'object') return;
  if (!writes.has(request.method) || !metaRoutes.test(request.routeOptions.url ?? '')) return;
  throw restError(
    400,
    'rest_invalid_param',
    'Invalid parameter(s): meta',
    { meta: 'Invalid parameter.' },
    undefined,
    [],
  );
}

/** The first parameter holding a NUL character, which Postgres text cannot store. */
function findNul(value: unknown, name = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? name || 'body' : undefined;
  if (!value || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return name || key.replaceAll('\u0000', '');
    const found = findNul(inner, name || key);
    if (found) return found;
  }
  return undefined;
}

function wpJson(
  store: ContentStore,
  settings: ContentSettings,
  files: MediaFiles,
  clock: Clock,
): FastifyPluginAsync {
  return async (app) => {
    // Method overrides, `?rest_route=` and differently cased routes were handled before routing (beforeRestRouting).
    app.addHook('preValidation', async (request) => {
      normalizeQuery(request);
      mergeQueryIntoWrite(request);
      checkMeta(request);
    });
    app.addHook('preSerialization', pickWriteFields);

    // Core sends the API's discovery link first; a response's own Link header (prev/next, alternate) then
    // replaces it, as PHP's header() does.
    app.addHook('onSend', async (request, reply, payload) => {
      if (!reply.getHeader('link'))
        reply.header('link', `<${siteOf(request).api}/>; rel="https://api.w.org/"`);
      return payload;
    });

    // `require-all-validate`'s first pass: a sub-request whose parameters passed validation stops here.
    app.addHook('preHandler', async (request, reply) => {
      if (validateOnly(request)) return reply.code(204).header(VALID_HEADER, '1').send();
    });

    // `_embed` before the transport's `_envelope` wraps the body.
    embedLinkedResources(app);

    // Core's transport: headers, Allow, _envelope, OPTIONS, and the catch-all that answers 404 like WordPress.
    installRestHttp(app, store);

    await app.register(discoveryRoutes(settings, store.db));
    await app.register(postRoutes(store, files));
    await app.register(siteRoutes());
    await app.register(optionRoutes(store.db, settings));
    await app.register(searchRoutes(store.db));
    await app.register(
      resourceRoutes(
        store,
        resources,
        files,
        {
          match: matchRoute,
          allowed: (matched, me, context, query) => allowedMethods(store, matched, me, context, query),
          siteName: async (site) => String((await siteOptions(store.db, settings, site.url)).title),
        },
        clock,
      ),
    );
  };
}

export function contentRoutes(
  store: ContentStore,
  settings: ContentSettings,
  limiter: LoginLimiter,
  files: MediaFiles,
): FastifyPluginAsync {
  return async (app) => {
    // An empty JSON body is no parameters, as WP_REST_Request::parse_json_params reads it: api-fetch sends its
    // DELETEs as bodiless POSTs with `Content-Type: application/json` and X-HTTP-Method-Override.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '') done(null, undefined);
      else jsonBodyParser.call(app, request, body as string, done);
    });
    // WordPress also takes classic form posts, read as PHP reads them (`roles[]=editor` is a list).
    acceptForms(app, { brackets: true });
    // …and multipart forms' fields, as PHP puts them in $_POST (media's upload route reads its own body).
    acceptMultipartFields(app, { brackets: true });
    app.addHook('preValidation', async (request) => {
      // WordPress treats a write without a body as one with no parameters.
      if (request.body == null && request.method !== 'GET' && request.method !== 'HEAD') request.body = {};
      const nul = findNul(request.query) ?? findNul(request.body);
      if (nul !== undefined)
        throw errorFor(request, 400, 'rest_invalid_param', `Invalid parameter(s): ${nul}`, {
          [nul]: `${nul} contains a NUL character.`,
        });
      if (jsonpRequested(request) && /^\/wp-json(\/|\?|$)/i.test(request.url)) throw jsonpDisabled();
      // A batch's sub-request acts as the batch's caller, authenticated once (resources/batch/inner.ts).
      const inner = batchCaller(request);
      const user = inner ? inner.user : await authenticate(store, limiter, request);
      if (user) setCaller(request, user);
    });
    // A body that cannot be parsed fails before preValidation: core has authenticated by then, so its answer
    // carries the caller's Allow and no-cache headers. Authenticate here for those (a failure stays as it is).
    app.addHook('onError', async (request, _reply, error) => {
      if (caller(request) || !(error as { code?: string }).code?.startsWith('FST_ERR_CTP_')) return;
      const user = await authenticate(store, limiter, request).catch(() => undefined);
      if (user) setCaller(request, user);
    });
    await app.register(wpJson(store, settings, files, limiter.clock));
    await app.register(settingsRoutes(store));
    await app.register(siteRootRoutes(async () => String((await siteOptions(store.db, settings, '')).title)));
  };
}
