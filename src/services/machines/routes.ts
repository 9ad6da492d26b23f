import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../platform/database.js';
import { jsonBodyParser } from '../../platform/http.js';
import type { LoginLimiter } from '../../platform/login-limit.js';
import { publicOrigin } from '../../platform/request.js';
import { accountRoutes } from './account.js';
import { accountActionRoutes, machineActionRoutes } from './actions.js';
import { settleActions } from './actions-store.js';
import { guard } from './auth.js';
import { regions, sizes } from './catalog.js';
import { resolveCreateReferences } from './create-references.js';
import { badRequest, notFound, unprocessable } from './errors.js';
import { imageRoutes, resolveImage } from './images.js';
import { keyRoutes } from './keys.js';
import { machineExtraRoutes } from './machine-extras.js';
import { presentMachine } from './present.js';
import { page, pageLinks, paginated, type TypedApp, type Word, words } from './routing.js';
import {
  CatalogQuery,
  CreateBody,
  DeleteByTagQuery,
  ErrorSchema,
  envelopes,
  errorResponses,
  IdParams,
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
  findMachine,
  LimitExceeded,
  listMachines,
} from './store.js';
import { tagRoutes } from './tags.js';
import { containsNul, parseCreateRequest } from './validate.js';
import { volumeRoutes } from './volumes.js';

// The provider's machine deletes answer 204 with a JSON content type (its other 204s carry none).
const JSON_TYPE = 'application/json; charset=utf-8';

function machineRoutes(app: TypedApp, db: Database, settings: MachinesSettings, w: Word) {
  const { one, created, list } = envelopes(w.singular, w.plural);
  const tags = [w.tag];

  app.post(
    `/v2/${w.plural}`,
    {
      config: { scopes: ['droplet:create'] },
      schema: {
        tags,
        summary: `Create one ${w.singular} (name) or up to 10 (names)`,
        body: CreateBody,
        response: { 202: created, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const image =
        body.image === undefined || body.image === '' ? undefined : await resolveImage(db, body.image);
      const wanted = parseCreateRequest(body, w.title, image);
      const region = wanted.machines[0]?.region as string;
      const refs = await resolveCreateReferences(db, body, region, wanted.machines.length, w.title);
      for (const m of wanted.machines) Object.assign(m, refs);
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
      config: { scopes: ['droplet:read'] },
      schema: {
        tags,
        summary: `List ${w.plural}; filters: tag_name, name, type (droplets or gpus)`,
        querystring: ListQuery,
        response: { 200: list, ...errorResponses },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { rows, total } = await listMachines(db, {
        // An empty tag_name or name, as some clients send by default, means no filter.
        tag: request.query.tag_name || undefined,
        name: request.query.name || undefined,
        // No size here has a GPU, so `type=gpus` lists none.
        none: request.query.type === 'gpus',
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
      config: { scopes: ['droplet:read'] },
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
      config: { scopes: ['droplet:delete'] },
      schema: {
        tags,
        summary: `Delete one ${w.singular} (its volumes are detached, its snapshots kept)`,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!(await deleteMachine(db, Number(request.params.id)))) throw notFound();
      return reply.code(204).header('content-type', JSON_TYPE).send();
    },
  );

  app.delete(
    `/v2/${w.plural}`,
    {
      config: { scopes: ['droplet:delete'] },
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
      return reply.code(204).header('content-type', JSON_TYPE).send();
    },
  );
}

function catalogRoutes(app: TypedApp) {
  const tags = ['catalog'];
  app.get(
    '/v2/regions',
    {
      config: { scopes: ['regions:read'] },
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
      config: { scopes: ['sizes:read', 'regions:read'] },
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
}

function api(db: Database, settings: MachinesSettings): FastifyPluginAsync {
  return async (instance) => {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();
    // Actions that completed since the last request take effect before anything is read or changed.
    app.addHook('preHandler', async () => settleActions(db, settings.provisionMs));
    for (const w of words) {
      machineRoutes(app, db, settings, w);
      machineActionRoutes(app, db, settings, w);
      machineExtraRoutes(app, db, w);
    }
    catalogRoutes(app);
    imageRoutes(app, db);
    accountActionRoutes(app, db, settings);
    accountRoutes(app, db, settings);
    keyRoutes(app, db);
    tagRoutes(app, db);
    volumeRoutes(app, db, settings);
  };
}

/**
 * The service's routes. The outer plugin shares the root context (skip-override) so the bearer guard, the body
 * parser and the `request_id` in error bodies also cover the platform's 404, 400, 413 and 415 answers.
 */
export function machinesRoutes(
  db: Database,
  settings: MachinesSettings,
  limiter: LoginLimiter,
): FastifyPluginAsync {
  const plugin: FastifyPluginAsync = async (app) => {
    app.addSchema(ErrorSchema);
    // The API takes JSON only; a text/plain body is refused (415) rather than read as a string.
    app.removeContentTypeParser('text/plain');
    // Clients send `Content-Type: application/json` on every request, bodiless DELETEs included; registered at
    // the root so an unknown route is a 404, not a 400 for the empty body.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '' && request.method !== 'POST') return done(null, undefined);
      jsonBodyParser.call(app, request, body as string, (error, value) => {
        if (!error && containsNul(value))
          return done(unprocessable('Text fields must not contain NUL characters.'), undefined);
        done(error, value);
      });
    });
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
