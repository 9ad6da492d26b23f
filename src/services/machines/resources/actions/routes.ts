import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import type { Resource, ResourceContext } from '../../resource.js';
import { pagedList, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses, IdParams } from '../../schemas.js';
import { presentAction } from './present.js';
import { findAction } from './row.js';
import { ActionSchema, actionList } from './schemas.js';
import { listActions } from './store.js';

/** `/v2/actions`: every action of the account (machines and volumes), newest first, and one by id. */
export function accountActionRoutes(app: TypedApp, { db, settings, clock }: ResourceContext) {
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
    async (request) =>
      pagedList(
        request,
        'actions',
        (window) => listActions(db, window),
        (a) => presentAction(a, settings.provisionMs, clock.now()),
      ),
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
      return { action: presentAction(action, settings.provisionMs, clock.now()) };
    },
  );
}

export const resource: Resource = {
  routes: (app, ctx) => accountActionRoutes(app, ctx),
};
