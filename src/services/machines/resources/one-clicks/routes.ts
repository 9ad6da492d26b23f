import { Type } from '@sinclair/typebox';
import type { Resource } from '../../resource.js';
import { errorResponses } from '../../schemas.js';
import { allScopes } from '../../scopes.js';

/** A fixed catalogue: the 1-Click apps a first project usually picks (droplet images and Kubernetes add-ons). */
const apps = [
  ['docker-20-04', 'droplet'],
  ['wordpress-20-04', 'droplet'],
  ['lamp-20-04', 'droplet'],
  ['nodejs-20-04', 'droplet'],
  ['mysql-20-04', 'droplet'],
  ['postgresql-20-04', 'droplet'],
  ['mongodb-7-0', 'droplet'],
  ['openlitespeed-wordpress-20-04', 'droplet'],
  ['monitoring', 'kubernetes'],
  ['ingress-nginx', 'kubernetes'],
  ['cert-manager', 'kubernetes'],
  ['loki', 'kubernetes'],
].map(([slug, type]) => ({ slug: slug as string, type: type as string }));

/** `GET /v2/1-clicks`: the document requires no scope, so any valid token may read it. */
export const resource: Resource = {
  routes(app) {
    app.get(
      '/v2/1-clicks',
      {
        config: { scopes: allScopes },
        schema: {
          tags: ['1-click applications'],
          summary: 'List 1-Click apps (type droplet or kubernetes)',
          querystring: Type.Object({
            type: Type.Optional(Type.Union([Type.Literal('droplet'), Type.Literal('kubernetes')])),
          }),
          response: {
            200: Type.Object({
              '1_clicks': Type.Array(Type.Object({ slug: Type.String(), type: Type.String() })),
            }),
            ...errorResponses,
          },
        },
      },
      async (request) => ({
        '1_clicks': apps.filter((a) => !request.query.type || a.type === request.query.type),
      }),
    );
  },
};
