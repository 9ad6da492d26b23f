import { MediaFields, MediaListQuery } from './media-schemas.js';
import { BlockSchema, BlocksListQuery, BlockWriteBody } from './resources/blocks/index.js';
import { NavigationSchema } from './resources/navigation/index.js';
import { argsOf, contextArg, idArg, itemSchema, type RouteSpec } from './route-spec.js';
import { ForceQuery, ItemQuery } from './schemas.js';
import { PageSchema, PagesListQuery, PageWriteBody, PostItemQuery } from './schemas-posts.js';

/** A core-form schema from field names and JSON types, for resources whose TypeBox schema is open. */
const objectSchema = (title: string, fields: Record<string, string>) => ({
  $schema: 'http://json-schema.org/draft-04/schema#',
  title,
  type: 'object',
  properties: Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, { type }])),
});

const postCommon = {
  date: 'string',
  date_gmt: 'string',
  guid: 'object',
  id: 'integer',
  link: 'string',
  modified: 'string',
  modified_gmt: 'string',
  slug: 'string',
  status: 'string',
  type: 'string',
  title: 'object',
  author: 'integer',
  comment_status: 'string',
  ping_status: 'string',
  meta: 'object',
  template: 'string',
};
const mediaSchema = objectSchema('attachment', {
  ...postCommon,
  permalink_template: 'string',
  generated_slug: 'string',
  alt_text: 'string',
  caption: 'object',
  description: 'object',
  media_type: 'string',
  mime_type: 'string',
  media_details: 'object',
  post: 'integer',
  source_url: 'string',
});
const revisionSchema = (type: string) =>
  objectSchema(`${type}-revision`, {
    author: 'integer',
    date: 'string',
    date_gmt: 'string',
    guid: 'object',
    id: 'integer',
    modified: 'string',
    modified_gmt: 'string',
    parent: 'integer',
    slug: 'string',
    title: 'object',
    content: 'object',
    excerpt: 'object',
  });

const parentArg = {
  parent: {
    description: 'The id of the post or page the revisions belong to.',
    type: 'integer',
    required: true,
  },
};
// Functions, not constants: discovery.ts and this module import each other (contextArg is not ready at load).
const revisionListArgs = () => ({
  ...parentArg,
  ...contextArg,
  page: { type: 'integer', default: 1, minimum: 1, required: false },
  per_page: { type: 'integer', minimum: 1, maximum: 100, required: false },
  offset: { type: 'integer', required: false },
  order: { type: 'string', enum: ['asc', 'desc'], default: 'desc', required: false },
});
const itemArgs = (query = ItemQuery) => ({ ...idArg, ...argsOf(query) });
const deleteArgs = () => ({ ...idArg, ...argsOf(ForceQuery) });

function revisionSpecs(rest: 'posts' | 'pages' | 'blocks' | 'navigation', type: string): RouteSpec[] {
  const schema = revisionSchema(type);
  const base = `/wp/v2/${rest}/(?P<parent>[\\d]+)/revisions`;
  return [
    { path: base, linked: false, schema, endpoints: [{ methods: ['GET'], args: revisionListArgs() }] },
    {
      path: `${base}/(?P<id>[\\d]+)`,
      linked: false,
      schema,
      endpoints: [
        { methods: ['GET'], args: { ...parentArg, ...idArg, ...contextArg } },
        { methods: ['DELETE'], args: { ...parentArg, ...idArg, ...argsOf(ForceQuery) } },
      ],
    },
  ];
}

/** Pages, media and revisions: the index lists them and `OPTIONS` describes them. */
export function contentRouteSpecs(): RouteSpec[] {
  const page = itemSchema('page', PageSchema);
  const block = itemSchema('wp_block', BlockSchema);
  const navigation = itemSchema('wp_navigation', NavigationSchema);
  return [
    ...revisionSpecs('posts', 'post'),
    {
      path: '/wp/v2/pages',
      linked: true,
      schema: page,
      endpoints: [
        { methods: ['GET'], args: argsOf(PagesListQuery) },
        { methods: ['POST'], args: argsOf(PageWriteBody) },
      ],
    },
    {
      path: '/wp/v2/pages/(?P<id>[\\d]+)',
      linked: false,
      schema: page,
      endpoints: [
        { methods: ['GET'], args: itemArgs(PostItemQuery) },
        { methods: ['POST', 'PUT', 'PATCH'], args: { ...idArg, ...argsOf(PageWriteBody) } },
        { methods: ['DELETE'], args: deleteArgs() },
      ],
    },
    ...revisionSpecs('pages', 'page'),
    ...revisionSpecs('blocks', 'wp_block'),
    {
      path: '/wp/v2/navigation',
      linked: true,
      schema: navigation,
      endpoints: [
        { methods: ['GET'], args: argsOf(BlocksListQuery) },
        { methods: ['POST'], args: argsOf(BlockWriteBody) },
      ],
    },
    {
      path: '/wp/v2/navigation/(?P<id>[\\d]+)',
      linked: false,
      schema: navigation,
      endpoints: [
        { methods: ['GET'], args: itemArgs(PostItemQuery) },
        { methods: ['POST', 'PUT', 'PATCH'], args: { ...idArg, ...argsOf(BlockWriteBody) } },
        { methods: ['DELETE'], args: deleteArgs() },
      ],
    },
    ...revisionSpecs('navigation', 'wp_navigation'),
    {
      path: '/wp/v2/blocks',
      linked: true,
      schema: block,
      endpoints: [
        { methods: ['GET'], args: argsOf(BlocksListQuery) },
        { methods: ['POST'], args: argsOf(BlockWriteBody) },
      ],
    },
    {
      path: '/wp/v2/blocks/(?P<id>[\\d]+)',
      linked: false,
      schema: block,
      endpoints: [
        { methods: ['GET'], args: itemArgs(PostItemQuery) },
        { methods: ['POST', 'PUT', 'PATCH'], args: { ...idArg, ...argsOf(BlockWriteBody) } },
        { methods: ['DELETE'], args: deleteArgs() },
      ],
    },
    {
      path: '/wp/v2/media',
      linked: true,
      schema: mediaSchema,
      endpoints: [
        { methods: ['GET'], args: argsOf(MediaListQuery) },
        { methods: ['POST'], args: argsOf(MediaFields) },
      ],
    },
    {
      path: '/wp/v2/media/(?P<id>[\\d]+)',
      linked: false,
      schema: mediaSchema,
      endpoints: [
        { methods: ['GET'], args: itemArgs() },
        { methods: ['POST', 'PUT', 'PATCH'], args: { ...idArg, ...argsOf(MediaFields) } },
        { methods: ['DELETE'], args: deleteArgs() },
      ],
    },
  ];
}
