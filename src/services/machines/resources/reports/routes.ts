import { Type } from '@sinclair/typebox';
import type { Resource } from '../../resource.js';
import { errorResponses } from '../../schemas.js';

/**
 * `/v2/reports/droplet_neighbors_ids`: groups of droplets sharing a physical host. Every droplet runs on a host of
 * its own here, so there are no groups, which is what the provider answers for droplets on separate hosts.
 */
export const resource: Resource = {
  routes(app) {
    app.get(
      '/v2/reports/droplet_neighbors_ids',
      {
        config: { scopes: ['droplet:read'] },
        schema: {
          tags: ['droplets (original word)'],
          summary: 'Droplets sharing a host, grouped by id (none: each droplet has its own host)',
          response: {
            200: Type.Object({ neighbor_ids: Type.Array(Type.Array(Type.Integer())) }),
            ...errorResponses,
          },
        },
      },
      async () => ({ neighbor_ids: [] }),
    );
  },
};
