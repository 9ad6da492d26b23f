import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../platform/database.js';
import { contentRouteSpecs } from './content-specs.js';
import { siteOf } from './http.js';
import { siteOptions } from './options.js';
import { resourceSpecs } from './resources/contract.js';
import { resources } from './resources/index.js';
import { argsOf, contextArg, idArg, itemSchema, type RouteSpec } from './route-spec.js';
import { ForceQuery, IndexSchema, PostSchema, PostWriteBody, responses } from './schemas.js';
import { PostItemQuery, PostsListQuery } from './schemas-posts.js';
import type { ContentSettings } from './settings.js';
import type { Site } from './site.js';
import { siteRouteSpecs } from './site-specs.js';
import { inWordPressForm } from './wordpress-form.js';

/**
 * Every wp/v2 route: posts here, pages, media and revisions (content-specs.ts), the resources on the
 * contract (resources/index.ts: users and their application passwords last), then the site's other routes
 * (site-specs.ts).
 */
export const allRouteSpecs = (): RouteSpec[] => {
  described ??= [...routeSpecs, ...contentRouteSpecs(), ...resourceSpecs(resources), ...siteRouteSpecs()].map(
    inWordPressForm,
  );
  return described;
};
let described: RouteSpec[] | undefined;

/** The site index's own route, `/`. */
export const indexSpec = (): RouteSpec =>
  inWordPressForm({ path: '/', linked: true, endpoints: [{ methods: ['GET'], args: contextArg }] });

const routeSpecs: RouteSpec[] = [
  {
    path: '/wp/v2',
    linked: true,
    endpoints: [
      { methods: ['GET'], args: { namespace: { default: 'wp/v2', required: false }, ...contextArg } },
    ],
  },
  {
    path: '/wp/v2/posts',
    linked: true,
    schema: itemSchema('post', PostSchema),
    endpoints: [
      { methods: ['GET'], args: argsOf(PostsListQuery) },
      { methods: ['POST'], args: argsOf(PostWriteBody) },
    ],
  },
  {
    path: '/wp/v2/posts/(?P<id>[\\d]+)',
    linked: false,
    schema: itemSchema('post', PostSchema),
    endpoints: [
      { methods: ['GET'], args: { ...idArg, ...argsOf(PostItemQuery) } },
      { methods: ['POST', 'PUT', 'PATCH'], args: { ...idArg, ...argsOf(PostWriteBody) } },
      { methods: ['DELETE'], args: { ...idArg, ...argsOf(ForceQuery) } },
    ],
  },
];

/** The namespace core lists a route under: `/batch/v1` is registered by the server itself, with none. */
export const namespaceOf = (path: string) =>
  path.startsWith('/wp/v2') ? 'wp/v2' : path.startsWith('/oembed/1.0') ? 'oembed/1.0' : '';

function routesOf(site: Site, specs: RouteSpec[]) {
  const routes: Record<string, unknown> = {};
  for (const spec of specs) {
    routes[spec.path] = {
      namespace: namespaceOf(spec.path),
      methods: [...new Set(spec.endpoints.flatMap((e) => e.methods))],
      endpoints: spec.endpoints,
      ...(spec.linked ? { _links: { self: [{ href: `${site.api}${spec.path}` }] } } : {}),
    };
  }
  return routes;
}

async function siteFields(site: Site, settings: ContentSettings, db: Database) {
  const options = await siteOptions(db, settings, site.url);
  return {
    name: options.title,
    description: options.description,
    url: site.url,
    home: site.url,
    gmt_offset: 0,
    timezone_string: 'UTC',
    site_logo: options.site_logo ?? 0,
    site_icon: options.site_icon,
    site_icon_url: '',
  };
}

/** `GET /wp-json/` (the site index) and `GET /wp-json/wp/v2` (the namespace index). */
export function discoveryRoutes(settings: ContentSettings, db: Database): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/wp-json',
      {
        schema: {
          tags: ['discovery'],
          summary: 'The site index: name, namespaces, authentication and every route',
          querystring: Type.Object({ context: Type.Optional(Type.String()) }),
          response: responses(IndexSchema),
        },
      },
      async (request) => {
        const site = siteOf(request);
        return {
          ...(await siteFields(site, settings, db)),
          namespaces: ['wp/v2'],
          authentication: { 'application-passwords': { endpoints: {} } },
          routes: {
            '/': { ...(routesOf(site, [indexSpec()])['/'] as object), namespace: '' },
            ...routesOf(site, allRouteSpecs()),
          },
          _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
        };
      },
    );
    app.get(
      '/wp-json/wp/v2',
      {
        schema: {
          tags: ['discovery'],
          summary: 'The wp/v2 namespace: its routes',
          querystring: Type.Object({ context: Type.Optional(Type.String()) }),
          response: responses(IndexSchema),
        },
      },
      async (request) => {
        const site = siteOf(request);
        // WordPress's namespace index has no site fields: only its routes.
        return {
          namespace: 'wp/v2',
          routes: routesOf(
            site,
            allRouteSpecs().filter((spec) => namespaceOf(spec.path) === 'wp/v2'),
          ),
          _links: { up: [{ href: `${site.api}/` }] },
        };
      },
    );
  };
}
