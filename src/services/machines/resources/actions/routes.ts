import { Type } from '@sinclair/typebox';
import type { Database } from '../../../../platform/database.js';
import { notFound } from '../../errors.js';
import type { Resource } from '../../resource.js';
import { page, pageLinks, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses, IdParams } from '../../schemas.js';
import type { MachinesSettings } from '../../settings.js';
import { presentAction } from './present.js';
import { findAction } from './row.js';
import { ActionSchema, actionList } from './schemas.js';
import { listActions } from './store.js';

/** `/v2/actions`: every action of the account (machines and volumes), newest first, and one by id. */
export function accountActionRoutes(app: TypedApp, db: Database, settings: MachinesSettings) {
  const tags = ['actions'];
  app.get(
    '/v2/actions',
    {
      config: { scopes: ['actions:read'] },
      schema: {
        tags,
        summary: 'All actions, newest first',
        querystring: CatalogQuery,
        response: { 200: actionList, ...errorResponses },
      },
    },
    async (request) => {
      const p = page(request.query);
      const { rows, total } = await listActions(db, { limit: p.perPage, offset: p.offset });
      return {
        actions: rows.map((a) => presentAction(a, settings.provisionMs)),
        links: pageLinks(request, total, p.page, p.perPage),
        meta: { total },
      };
    },
  );
  app.get(
    '/v2/actions/:id',
    {
      config: { scopes: ['actions:read'] },
      schema: {
        tags,
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

export const resource: Resource = {
  routes: (app, { db, settings }) => accountActionRoutes(app, db, settings),
};
