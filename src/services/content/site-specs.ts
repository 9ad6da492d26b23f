import { settingSpecs } from './options.js';
import { argsOf, contextArg, type RouteSpec } from './route-spec.js';
import { SearchQuery } from './search.js';

const param = (name: string, description: string) => ({
  [name]: { description, type: 'string', required: false },
});

/** Schemas of the site resources, for the index and `OPTIONS`. */
const objectSchema = (title: string, fields: Record<string, string>) => ({
  $schema: 'http://json-schema.org/draft-04/schema#',
  title,
  type: 'object',
  properties: Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, { type }])),
});
const typeSchema = objectSchema('type', {
  capabilities: 'object',
  description: 'string',
  hierarchical: 'boolean',
  viewable: 'boolean',
  labels: 'object',
  name: 'string',
  slug: 'string',
  supports: 'object',
  has_archive: 'boolean',
  taxonomies: 'array',
  rest_base: 'string',
  rest_namespace: 'string',
  icon: 'string',
});
const statusSchema = objectSchema('status', {
  name: 'string',
  private: 'boolean',
  protected: 'boolean',
  public: 'boolean',
  queryable: 'boolean',
  show_in_list: 'boolean',
  slug: 'string',
  date_floating: 'boolean',
});
const taxonomySchema = objectSchema('taxonomy', {
  capabilities: 'object',
  description: 'string',
  hierarchical: 'boolean',
  labels: 'object',
  name: 'string',
  slug: 'string',
  show_cloud: 'boolean',
  types: 'array',
  rest_base: 'string',
  rest_namespace: 'string',
  visibility: 'object',
});
const searchSchema = objectSchema('search-result', {
  id: 'integer',
  title: 'string',
  url: 'string',
  type: 'string',
  subtype: 'string',
});
const settingsSchema = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'settings',
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(settingSpecs).map(([name, spec]) => [
      name,
      { type: spec.type, description: spec.description },
    ]),
  ),
};
const settingArgs = Object.fromEntries(
  Object.entries(settingSpecs).map(([name, spec]) => [
    name,
    {
      type: spec.type,
      description: spec.description,
      ...(spec.enum ? { enum: spec.enum } : {}),
      required: false,
    },
  ]),
);

/** Types, statuses, taxonomies, settings and search (built on first use). */
export function siteRouteSpecs(): RouteSpec[] {
  const get = { methods: ['GET'], args: contextArg };
  return [
    { path: '/wp/v2/types', linked: true, schema: typeSchema, endpoints: [get] },
    {
      path: '/wp/v2/types/(?P<type>[\\w-]+)',
      linked: false,
      schema: typeSchema,
      endpoints: [
        {
          methods: ['GET'],
          args: { ...param('type', 'The post type’s slug.'), ...contextArg },
        },
      ],
    },
    { path: '/wp/v2/statuses', linked: true, schema: statusSchema, endpoints: [get] },
    {
      path: '/wp/v2/statuses/(?P<status>[\\w-]+)',
      linked: false,
      schema: statusSchema,
      endpoints: [
        {
          methods: ['GET'],
          args: { ...param('status', 'The status’s slug.'), ...contextArg },
        },
      ],
    },
    {
      path: '/wp/v2/taxonomies',
      linked: true,
      schema: taxonomySchema,
      endpoints: [
        {
          methods: ['GET'],
          args: {
            ...contextArg,
            ...param('type', 'Only taxonomies of this post type.'),
          },
        },
      ],
    },
    {
      path: '/wp/v2/taxonomies/(?P<taxonomy>[\\w-]+)',
      linked: false,
      schema: taxonomySchema,
      endpoints: [
        {
          methods: ['GET'],
          args: { ...param('taxonomy', 'The taxonomy’s slug.'), ...contextArg },
        },
      ],
    },
    {
      path: '/wp/v2/settings',
      linked: true,
      schema: settingsSchema,
      endpoints: [
        { methods: ['GET'], args: {} },
        { methods: ['POST', 'PUT', 'PATCH'], args: settingArgs },
      ],
    },
    {
      path: '/wp/v2/search',
      linked: true,
      schema: searchSchema,
      endpoints: [{ methods: ['GET'], args: argsOf(SearchQuery) }],
    },
  ];
}
