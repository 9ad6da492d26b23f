import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../../../platform/database.js';
import { publicOrigin } from '../../../../platform/request.js';
import type { Clock } from '../../../../platform/service.js';
import { apiError, badRequest, notFound } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses } from '../../schemas.js';
import { isoSeconds } from '../../time.js';
import { presentProject } from './present.js';
import { checkProject } from './rules.js';
import {
  AssignBody,
  assignedList,
  ProjectBody,
  ProjectParams,
  projectList,
  projectOne,
  resourceList,
} from './schemas.js';
import {
  type AssignedRow,
  assignResources,
  deleteProject,
  findProject,
  listProjects,
  listResources,
  NameTaken,
  resourceCount,
  saveProject,
} from './store.js';
import { checkUrn, selfLink } from './urns.js';

const present = (request: FastifyRequest, r: AssignedRow, status = 'ok') => ({
  urn: r.urn,
  assigned_at: isoSeconds(new Date(r.assigned_at)),
  links: { self: selfLink(publicOrigin(request), r.urn) },
  status,
});

/**
 * `/v2/projects/{project_id}` and its `/v2/projects/default` twin are one route each: `default` names the account's
 * default project, as the provider's paths do.
 */
function projectRoutes(app: TypedApp, db: Database, clock: Clock) {
  const tags = ['projects'];
  const load = async (id: string) => {
    const project = await findProject(db, id);
    if (!project) throw notFound();
    return project;
  };
  const save = async (...args: Parameters<typeof saveProject>) => {
    try {
      return await saveProject(...args);
    } catch (error) {
      if (error instanceof NameTaken)
        throw apiError(409, 'conflict', 'A project with this name already exists.');
      throw error;
    }
  };

  app.post(
    '/v2/projects',
    {
      config: { scopes: ['project:create'] },
      schema: {
        tags,
        summary: 'Create a project',
        body: ProjectBody,
        response: { 201: projectOne, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = await save(db, checkProject(request.body, 'create'), new Date(clock.now()));
      reply.code(201);
      return { project: presentProject(await load(id)) };
    },
  );
  app.get(
    '/v2/projects',
    {
      config: { scopes: ['project:read'] },
      schema: {
        tags,
        summary: 'List projects',
        querystring: CatalogQuery,
        response: { 200: projectList, ...errorResponses },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { rows, total } = await listProjects(db, p.perPage, p.offset);
      return {
        projects: rows.map(presentProject),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );
  app.get(
    '/v2/projects/:project_id',
    {
      config: { scopes: ['project:read'] },
      schema: {
        tags,
        summary: 'Read a project (`default`: the default project)',
        params: ProjectParams,
        response: { 200: projectOne, ...errorResponses },
      },
    },
    async (request) => ({ project: presentProject(await load(request.params.project_id)) }),
  );
  for (const [method, mode] of [
    ['put', 'replace'],
    ['patch', 'patch'],
  ] as const) {
    app[method](
      '/v2/projects/:project_id',
      {
        config: { scopes: ['project:update'] },
        schema: {
          tags,
          summary:
            mode === 'replace'
              ? 'Replace a project: name, description, purpose, environment and is_default, all required'
              : 'Change some of a project’s fields',
          params: ProjectParams,
          body: ProjectBody,
          response: { 200: projectOne, ...errorResponses },
        },
      },
      async (request) => {
        const stored = await load(request.params.project_id);
        await save(db, checkProject(request.body, mode, stored), new Date(clock.now()), stored.id);
        return { project: presentProject(await load(stored.id)) };
      },
    );
  }
  app.delete(
    '/v2/projects/:project_id',
    {
      config: { scopes: ['project:delete'] },
      schema: {
        tags,
        summary: 'Delete a project without resources (not the default one)',
        params: ProjectParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const project = await load(request.params.project_id);
      if (project.is_default) throw apiError(403, 'forbidden', 'The default project cannot be deleted.');
      // The document: a project with resources is a 412 until they are moved or destroyed.
      if ((await resourceCount(db, project.id)) > 0)
        throw apiError(
          412,
          'precondition_failed',
          'cannot delete a project with resources. Move or remove the resources first',
        );
      await deleteProject(db, project.id);
      reply.code(204);
      return null;
    },
  );

  app.get(
    '/v2/projects/:project_id/resources',
    {
      config: { scopes: ['project:read'] },
      schema: {
        tags,
        summary: 'List the resources assigned to a project',
        params: ProjectParams,
        querystring: CatalogQuery,
        response: { 200: resourceList, ...errorResponses },
      },
    },
    async (request) => {
      const project = await load(request.params.project_id);
      const p = page(request.query);
      const { rows, total } = await listResources(db, project.id, p.perPage, p.offset);
      return {
        resources: rows.map((r) => present(request, r)),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );
  app.post(
    '/v2/projects/:project_id/resources',
    {
      // The document: project:update also grants project:assign_resource.
      config: { scopes: ['project:assign_resource', 'project:update'] },
      schema: {
        tags,
        summary: 'Assign resources (URNs) to a project, moving them from their project',
        params: ProjectParams,
        body: AssignBody,
        response: { 200: assignedList, ...errorResponses },
      },
    },
    async (request) => {
      const project = await load(request.params.project_id);
      const urns = [...new Set(request.body.resources)];
      if (urns.length === 0) throw badRequest('resources must name at least one resource.');
      for (const urn of urns) {
        const { problem } = await checkUrn(db, urn);
        if (problem === 'malformed')
          throw badRequest(`${JSON.stringify(urn)} is not a valid URN (do:<type>:<id>).`);
        if (problem === 'kind')
          throw badRequest(`${JSON.stringify(urn)} is not a kind of resource projects hold here.`);
        if (problem === 'missing')
          throw apiError(404, 'not_found', `The resource ${urn} could not be found.`);
      }
      await assignResources(db, project.id, urns, new Date(clock.now()));
      // The document's answer: every resource of the project, those of this request marked `assigned`.
      const { rows } = await listResources(db, project.id, 10_000, 0);
      return { resources: rows.map((r) => present(request, r, urns.includes(r.urn) ? 'assigned' : 'ok')) };
    },
  );
}

export const resource: Resource = { routes: (app, { db, clock }) => projectRoutes(app, db, clock) };
