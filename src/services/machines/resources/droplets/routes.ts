import { Type } from '@sinclair/typebox';
import { publicOrigin } from '../../../../platform/request.js';
import { badRequest, notFound, unprocessable } from '../../errors.js';
import type { Resource, ResourceContext } from '../../resource.js';
import { pagedList, type TypedApp, type Word, words } from '../../routing.js';
import { errorResponses, IdParams } from '../../schemas.js';
import { resolveImage } from '../images/routes.js';
import { tagSpellings } from '../tags/store.js';
import { machineExtraRoutes } from './extras.js';
import { presentMachine } from './present.js';
import { resolveCreateReferences } from './references.js';
import { parseCreateRequest } from './rules.js';
import { CreateBody, DeleteByTagQuery, envelopes, ListQuery } from './schemas.js';
import {
  createMachines,
  deleteMachine,
  deleteMachinesByTag,
  findMachine,
  LimitExceeded,
  listMachines,
  VpcFull,
} from './store.js';

// The provider's machine deletes answer 204 with a JSON content type (its other 204s carry none).
const JSON_TYPE = 'application/json; charset=utf-8';

function machineRoutes(app: TypedApp, { db, settings, clock }: ResourceContext, w: Word) {
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
        body.image === undefined || body.image === ''
          ? undefined
          : await resolveImage(db, body.image, { provisionMs: settings.provisionMs, now: clock.now() });
      // A custom image still importing cannot be deployed yet.
      if (image?.status === 'NEW') throw unprocessable(`The image ${image.id} is not available yet.`);
      const wanted = parseCreateRequest(body, w.title, image);
      const region = wanted.machines[0]?.region as string;
      const refs = await resolveCreateReferences(db, body, region, wanted.machines.length, w.title);
      for (const m of wanted.machines) Object.assign(m, refs, { tags: await tagSpellings(db, m.tags) });
      try {
        const result = await createMachines(db, wanted.machines, {
          limit: settings.limit,
          resourceType: w.singular,
          now: new Date(clock.now()),
        });
        const base = publicOrigin(request);
        const rel = wanted.multiple ? 'multiple_create' : 'create';
        const links = {
          actions: result.actions.map((a) => ({ id: a.id, rel, href: `${base}/v2/actions/${a.id}` })),
        };
        const shown = result.machines.map((m) => presentMachine(m, settings.provisionMs, clock.now(), false));
        reply.code(202);
        return wanted.multiple ? { [w.plural]: shown, links } : { [w.singular]: shown[0], links };
      } catch (error) {
        if (error instanceof LimitExceeded) {
          throw unprocessable(`creating this/these ${w.singular}(s) will exceed your ${w.singular} limit`);
        }
        if (error instanceof VpcFull) throw unprocessable('The VPC has no free private address left.');
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
    async (request) =>
      pagedList(
        request,
        w.plural,
        (window) =>
          listMachines(db, {
            // An empty tag_name or name, as some clients send by default, means no filter.
            tag: request.query.tag_name || undefined,
            name: request.query.name || undefined,
            // No size here has a GPU, so `type=gpus` lists none.
            none: request.query.type === 'gpus',
            ...window,
          }),
        (m) => presentMachine(m, settings.provisionMs, clock.now()),
      ),
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
      return { [w.singular]: presentMachine(row, settings.provisionMs, clock.now()) };
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

export const resource: Resource = {
  routes(app, ctx) {
    for (const w of words) {
      machineRoutes(app, ctx, w);
      machineExtraRoutes(app, ctx.db, w);
    }
  },
};
