import { Type } from '@sinclair/typebox';
import type { Resource } from '../../resource.js';
import { paginated, type TypedApp } from '../../routing.js';
import { CatalogQuery, errorResponses, Meta, PageLinks } from '../../schemas.js';
import { regions, sizes } from './data.js';
import { RegionSchema, SizeSchema } from './schemas.js';

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

export const resource: Resource = { routes: (app) => catalogRoutes(app) };
