import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../../../platform/database.js';
import { publicOrigin } from '../../../../platform/request.js';
import { notFound, unprocessable } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses, Meta, PageLinks } from '../../schemas.js';
import { invalidTagName, TagBadRequest, tagPattern } from './rules.js';
import {
  changeTagging,
  createTag,
  deleteTag,
  listTagNames,
  type ResourceRef,
  type TaggableType,
  type TagStats,
  tagSpelling,
  tagStats,
} from './store.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const Stat = Type.Object({ count: Type.Integer(), last_tagged_uri: Type.Optional(Type.String()) });
const TagSchema = Type.Object({
  name: Type.String(),
  resources: Type.Object({
    count: Type.Integer(),
    last_tagged_uri: Type.Optional(Type.String()),
    droplets: Stat,
    images: Stat,
    volumes: Stat,
    volume_snapshots: Stat,
    databases: Stat,
  }),
});
const TagParams = Type.Object({ tag_id: Type.String({ pattern: tagPattern.source }) });
const ResourcesBody = Type.Object({
  resources: Type.Array(
    Type.Object({ resource_id: Type.Union([Type.String(), Type.Integer()]), resource_type: Type.String() }),
  ),
});

const paths: Record<TaggableType, string> = { droplet: 'droplets', image: 'images', volume: 'volumes' };

/** The provider's tag object; URIs name droplets under the original word, as its clients expect. */
function presentTag(request: FastifyRequest, tag: TagStats) {
  const uri = (type: TaggableType | null, id: string | null) =>
    type && id ? { last_tagged_uri: `${publicOrigin(request)}/v2/${paths[type]}/${id}` } : {};
  const stat = (type: TaggableType) => ({ count: tag.counts[type], ...uri(type, tag.latest[type]) });
  return {
    name: tag.name,
    resources: {
      count: tag.counts.droplet + tag.counts.image + tag.counts.volume,
      ...uri(tag.last_type, tag.last_id),
      droplets: stat('droplet'),
      images: stat('image'),
      volumes: stat('volume'),
      volume_snapshots: { count: 0 },
      databases: { count: 0 },
    },
  };
}

/** `machine` is the service's word for a droplet; volume ids are UUIDs and the others numbers. */
function resourceRefs(body: {
  resources: { resource_id: string | number; resource_type: string }[];
}): ResourceRef[] {
  if (body.resources.length === 0) throw unprocessable('resources must name at least one resource.');
  return body.resources.map((r, index) => {
    const type = r.resource_type === 'machine' ? 'droplet' : r.resource_type;
    const id = String(r.resource_id);
    if (type !== 'droplet' && type !== 'image' && type !== 'volume')
      throw unprocessable(`resources.${index}.resource_type must be droplet, image or volume.`);
    if (type === 'volume' ? !uuidPattern.test(id) : !/^\d{1,10}$/.test(id))
      throw unprocessable(`resources.${index}.resource_id is not a valid ${type} id.`);
    return { type, id };
  });
}

/** `/v2/tags`: tags exist on their own and are put on machines, images (snapshots, backups) and volumes. */
export function tagRoutes(app: TypedApp, db: Database) {
  const tags = ['tags'];
  const one = Type.Object({ tag: TagSchema });
  const found = async (request: FastifyRequest, name: string) => {
    const stats = await tagStats(db, name);
    if (!stats) throw notFound();
    return { tag: presentTag(request, stats) };
  };

  app.post(
    '/v2/tags',
    {
      config: { scopes: ['tag:create'] },
      schema: {
        tags,
        summary: 'Create a tag (creating an existing one answers it)',
        body: Type.Object({ name: Type.Optional(Type.String()) }),
        response: { 201: one, ...errorResponses, 400: TagBadRequest },
      },
    },
    async (request, reply) => {
      const name = request.body.name ?? '';
      if (!tagPattern.test(name)) throw invalidTagName(name);
      const spelled = await tagSpelling(db, name);
      await createTag(db, spelled);
      reply.code(201);
      return found(request, spelled);
    },
  );

  app.get(
    '/v2/tags',
    {
      config: { scopes: ['tag:read'] },
      schema: {
        tags,
        summary: 'List tags',
        querystring: CatalogQuery,
        response: {
          200: Type.Object({ tags: Type.Array(TagSchema), links: PageLinks, meta: Meta }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { names, total } = await listTagNames(db, p.perPage, p.offset);
      const shown = [];
      for (const name of names) {
        const stats = await tagStats(db, name);
        if (stats) shown.push(presentTag(request, stats));
      }
      return { tags: shown, links: pageLinks(request, total, p.page, p.perPage), meta: { total } };
    },
  );

  app.get(
    '/v2/tags/:tag_id',
    {
      config: { scopes: ['tag:read'] },
      schema: { tags, summary: 'Read a tag', params: TagParams, response: { 200: one, ...errorResponses } },
    },
    async (request) => found(request, await tagSpelling(db, request.params.tag_id)),
  );

  app.delete(
    '/v2/tags/:tag_id',
    {
      config: { scopes: ['tag:delete'] },
      schema: {
        tags,
        summary: 'Delete a tag (it is removed from every resource)',
        params: TagParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!(await deleteTag(db, await tagSpelling(db, request.params.tag_id)))) throw notFound();
      return reply.code(204).send(null);
    },
  );

  for (const [method, add] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/v2/tags/:tag_id/resources',
      config: { scopes: [add ? 'tag:create' : 'tag:delete'] },
      schema: {
        tags,
        summary: add ? 'Tag resources' : 'Untag resources',
        params: TagParams,
        body: ResourcesBody,
        response: { 204: Type.Null({ description: add ? 'Tagged' : 'Untagged' }), ...errorResponses },
      },
      handler: async (request, reply) => {
        const refs = resourceRefs(request.body);
        const name = await tagSpelling(db, request.params.tag_id);
        if (!(await changeTagging(db, name, refs, add))) throw notFound();
        return reply.code(204).send(null);
      },
    });
  }
}

export const resource: Resource = { routes: (app, { db }) => tagRoutes(app, db) };
