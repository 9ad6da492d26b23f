import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Database } from '../../platform/database.js';
import { jsonBodyParser } from '../../platform/http.js';
import type { LoginLimiter } from '../../platform/login-limit.js';
import { publicOrigin } from '../../platform/request.js';
import { guard } from './auth.js';
import { images, regions, sizes } from './catalog.js';
import { badRequest, notFound, unprocessable } from './errors.js';
import { presentAction, presentMachine } from './present.js';
import {
  ActionSchema,
  CatalogQuery,
  CreateBody,
  DeleteByTagQuery,
  ErrorSchema,
  envelopes,
  errorResponses,
  IdParams,
  ImageSchema,
  ImagesQuery,
  ListQuery,
  Meta,
  PageLinks,
  RegionSchema,
  SizeSchema,
} from './schemas.js';
import type { MachinesSettings } from './settings.js';
import {
  createMachines,
  deleteMachine,
  deleteMachinesByTag,
  findAction,
  findMachine,
  LimitExceeded,
  listMachines,
} from './store.js';
import { parseCreateRequest } from './validate.js';

const MAX_PER_PAGE = 200;

type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

function page(query: { page?: number; per_page?: number }) {
  const perPage = Math.min(query.per_page ?? 20, MAX_PER_PAGE);
  const current = query.page ?? 1;
  return { page: current, perPage, offset: (current - 1) * perPage };
}

/** `links.pages` with first/prev/next/last where they apply; `{}` when everything fits on one page. */
function pageLinks(request: FastifyRequest, total: number, current: number, perPage: number) {
  const last = Math.max(1, Math.ceil(total / perPage));
  const url = new URL(request.url, publicOrigin(request));
  const at = (n: number) => {
    url.searchParams.set('page', String(n));
    url.searchParams.set('per_page', String(perPage));
    return url.toString();
  };
  const pages: Record<string, string> = {};
  if (current > 1) {
    pages.first = at(1);
    pages.prev = at(Math.min(current - 1, last));
  }
  if (current < last) {
    pages.next = at(current + 1);
    pages.last = at(last);
  }
  return Object.keys(pages).length ? { pages } : {};
}

function paginated<T>(request: FastifyRequest, items: T[], query: { page?: number; per_page?: number }) {
  const p = page(query);
  return {
    items: items.slice(p.offset, p.offset + p.perPage),
    links: pageLinks(request, items.length, p.page, p.perPage),
    meta: { total: items.length },
  };
}

const words = [
  { singular: 'machine', plural: 'machines', title: 'Machine', tag: 'machines' },
  { singular: 'droplet', plural: 'droplets', title: 'Droplet', tag: 'droplets (original word)' },
] as const;

function machineRoutes(app: TypedApp, db: Database, settings: MachinesSettings, w: (typeof words)[number]) {
  const { one, created, list } = envelopes(w.singular, w.plural);
  const tags = [w.tag];

  app.post(
    `/v2/${w.plural}`,
    {
      config: { scope: 'machine:create' },
      schema: {
        tags,
        summary: `Create one ${w.singular} (name) or up to 10 (names)`,
        body: CreateBody,
        response: { 202: created, ...errorResponses },
      },
    },
    async (request, reply) => {
      const wanted = parseCreateRequest(request.body, w.title);
      try {
        const result = await createMachines(db, wanted.machines, {
          limit: settings.limit,
          resourceType: w.singular,
          now: new Date(),
        });
        const base = publicOrigin(request);
        const rel = wanted.multiple ? 'multiple_create' : 'create';
        const links = {
          actions: result.actions.map((a) => ({ id: a.id, rel, href: `${base}/v2/actions/${a.id}` })),
        };
        const shown = result.machines.map((m) => presentMachine(m, settings.provisionMs, false));
        reply.code(202);
        return wanted.multiple ? { [w.plural]: shown, links } : { [w.singular]: shown[0], links };
      } catch (error) {
        if (error instanceof LimitExceeded) {
          throw unprocessable(`creating this/these ${w.singular}(s) will exceed your ${w.singular} limit`);
        }
        throw error;
      }
    },
  );

  app.get(
    `/v2/${w.plural}`,
    {
      config: { scope: 'machine:read' },
      schema: {
        tags,
        summary: `List ${w.plural}, optionally only those with a tag`,
        querystring: ListQuery,
        response: { 200: list, ...errorResponses },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { rows, total } = await listMachines(db, {
        // An empty tag_name, as some clients send by default, means no filter.
        tag: request.query.tag_name || undefined,
        limit: p.perPage,
        offset: p.offset,
      });
      return {
        [w.plural]: rows.map((m) => presentMachine(m, settings.provisionMs)),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );

  app.get(
    `/v2/${w.plural}/:id`,
    {
      config: { scope: 'machine:read' },
      schema: {
        tags,
        summary: `Read one ${w.singular}`,
        params: IdParams,
        response: { 200: one, ...errorResponses },
      },
    },
    async (request) => {
      const row = await findMachine(db, Number(request.params.id));
      if (!row) throw notFound();
      return { [w.singular]: presentMachine(row, settings.provisionMs) };
    },
  );

  app.delete(
    `/v2/${w.plural}/:id`,
    {
      config: { scope: 'machine:delete' },
      schema: {
        tags,
        summary: `Delete one ${w.singular}`,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!(await deleteMachine(db, Number(request.params.id)))) throw notFound();
      return reply.code(204).send(null);
    },
  );

  app.delete(
    `/v2/${w.plural}`,
    {
      config: { scope: 'machine:delete' },
      schema: {
        tags,
        summary: `Delete every ${w.singular} with a tag (tag_name is required)`,
        querystring: DeleteByTagQuery,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const tag = request.query.tag_name;
      if (!tag) throw badRequest(`tag_name is required to delete ${w.plural} by tag`);
      await deleteMachinesByTag(db, tag);
      return reply.code(204).send(null);
    },
  );
}

function catalogRoutes(app: TypedApp) {
  const tags = ['catalog'];
  app.get(
    '/v2/regions',
    {
      schema: {
        tags,
        summary: 'Regions',
        querystring: CatalogQuery,
        response: {
          200: Type.Object({ regions: Type.Array(RegionSchema), links: PageLinks, meta: Meta }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { items, links, meta } = paginated(request, regions, request.query);
      return { regions: items, links, meta };
    },
  );
  app.get(
    '/v2/sizes',
    {
      schema: {
        tags,
        summary: 'Sizes',
        querystring: CatalogQuery,
        response: {
          200: Type.Object({ sizes: Type.Array(SizeSchema), links: PageLinks, meta: Meta }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { items, links, meta } = paginated(request, sizes, request.query);
      return { sizes: items, links, meta };
    },
  );
  app.get(
    '/v2/images',
    {
      schema: {
        tags,
        summary: 'Images (all are public distribution images)',
        querystring: ImagesQuery,
        response: {
          200: Type.Object({ images: Type.Array(ImageSchema), links: PageLinks, meta: Meta }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const type = request.query.type;
      const shown = type === undefined || type === 'distribution' ? images : [];
      const { items, links, meta } = paginated(request, shown, request.query);
      return { images: items, links, meta };
    },
  );
}

function actionRoutes(app: TypedApp, db: Database, settings: MachinesSettings) {
  app.get(
    '/v2/actions/:id',
    {
      schema: {
        tags: ['actions'],
        summary: 'An action (every create links to its actions)',
        params: IdParams,
        response: { 200: Type.Object({ action: ActionSchema }), ...errorResponses },
      },
    },
    async (request) => {
      const action = await findAction(db, Number(request.params.id));
      if (!action) throw notFound();
      return { action: presentAction(action, settings.provisionMs) };
    },
  );
}

function api(db: Database, settings: MachinesSettings): FastifyPluginAsync {
  return async (instance) => {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();
    // The API takes JSON only; a text/plain body is refused (415) rather than read as a string.
    app.removeContentTypeParser('text/plain');
    // Clients send `Content-Type: application/json` on every request, bodiless DELETEs included.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '' && request.method !== 'POST') return done(null, undefined);
      jsonBodyParser.call(app, request, body as string, done);
    });
    for (const w of words) machineRoutes(app, db, settings, w);
    catalogRoutes(app);
    actionRoutes(app, db, settings);
  };
}

/**
 * The service's routes. The outer plugin shares the root context (skip-override) so the bearer guard and the
 * `request_id` in error bodies also cover the platform's 404, 400, 413 and 415 answers.
 */
export function machinesRoutes(
  db: Database,
  settings: MachinesSettings,
  limiter: LoginLimiter,
): FastifyPluginAsync {
  const plugin: FastifyPluginAsync = async (app) => {
    app.addSchema(ErrorSchema);
    app.addHook('onRequest', guard(db, settings, limiter));
    app.addHook('preSerialization', async (request, reply, payload: unknown) => {
      if (reply.statusCode < 400 || !payload || typeof payload !== 'object') return payload;
      const body = payload as Record<string, unknown>;
      if (typeof body.id !== 'string' || typeof body.message !== 'string' || 'request_id' in body)
        return payload;
      return { ...body, request_id: request.id };
    });
    await app.register(api(db, settings));
  };
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}
