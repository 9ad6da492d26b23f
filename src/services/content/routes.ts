import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { LoginLimiter } from '../../platform/login-limit.js';
import { authenticate } from './auth.js';
import { discoveryRoutes } from './discovery.js';
import { errorFor, noRoute } from './errors.js';
import { setCaller, siteOf } from './http.js';
import type { MediaFiles } from './media.js';
import { postRoutes } from './posts.js';
import type { ContentSettings } from './settings.js';
import { settingsRoutes } from './settings-routes.js';
import type { ContentStore } from './store.js';
import { termRoutes } from './terms.js';
import { userRoutes } from './users.js';

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
]);
const overridable = new Set(['GET', 'PUT', 'PATCH', 'DELETE']);
const hopHeaders = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'vary',
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

/**
 * `X-HTTP-Method-Override` on POST: the request is replayed in-process with the real method, so it goes through
 * that route's own validation, permission checks and handler.
 */
async function replayOverride(app: FastifyInstance, request: FastifyRequest) {
  const method = String(request.headers['x-http-method-override']).trim().toUpperCase();
  const headers: Record<string, string | string[] | undefined> = {
    ...request.headers,
    'x-request-id': request.id,
  };
  delete headers['x-http-method-override'];
  delete headers['content-length'];
  delete headers['transfer-encoding'];
  delete headers['content-type'];
  let payload: string | undefined;
  if (method !== 'GET' && request.body !== undefined && request.body !== null) {
    payload = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  return app.inject({ method: method as 'GET', url: request.url, headers, payload });
}

function wpJson(store: ContentStore, settings: ContentSettings, files: MediaFiles): FastifyPluginAsync {
  return async (app) => {
    app.addHook('preValidation', async (request, reply) => {
      const override = request.headers['x-http-method-override'];
      if (
        request.method === 'POST' &&
        typeof override === 'string' &&
        overridable.has(override.trim().toUpperCase())
      ) {
        const replayed = await replayOverride(app, request);
        reply.status(replayed.statusCode);
        for (const [name, value] of Object.entries(replayed.headers))
          if (!hopHeaders.has(name) && !name.startsWith('access-control-') && value !== undefined)
            reply.header(name, value);
        return reply.send(replayed.rawPayload);
      }
      normalizeQuery(request);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const index = `<${siteOf(request).api}/>; rel="https://api.w.org/"`;
      const existing = reply.getHeader('link');
      if (!existing) reply.header('link', index);
      else if (!String(existing).includes('https://api.w.org/'))
        reply.header('link', `${existing}, ${index}`);
      return payload;
    });

    // POSTs to routes that have no POST handler still reach the override hook, then 404 like WordPress.
    app.post('/wp-json/*', { schema: { hide: true } }, async () => {
      throw noRoute();
    });

    await app.register(discoveryRoutes(settings));
    await app.register(postRoutes(store, files));
    await app.register(userRoutes(store));
    await app.register(termRoutes(store));
  };
}

export function contentRoutes(
  store: ContentStore,
  settings: ContentSettings,
  limiter: LoginLimiter,
  files: MediaFiles,
): FastifyPluginAsync {
  return async (app) => {
    // WordPress also takes classic form posts.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    app.addHook('preValidation', async (request) => {
      // WordPress treats a write without a body as one with no parameters.
      if (request.body == null && request.method !== 'GET' && request.method !== 'HEAD') request.body = {};
      const nul = findNul(request.query) ?? findNul(request.body);
      if (nul !== undefined)
        throw errorFor(request, 400, 'rest_invalid_param', `Invalid parameter(s): ${nul}`, {
          [nul]: `${nul} contains a NUL character.`,
        });
      const user = await authenticate(store, limiter, request);
      if (user) setCaller(request, user);
    });
    await app.register(wpJson(store, settings, files));
    await app.register(settingsRoutes(store));
  };
}
