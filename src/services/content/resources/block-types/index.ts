import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { can } from '../../capabilities.js';
import { pickItemFields } from '../../embed-param.js';
import { refused, restError } from '../../errors.js';
import { fieldList, sendFields } from '../../http.js';
import { itemSchema } from '../../route-spec.js';
import { ContextEnum } from '../../schemas.js';
import type { Site } from '../../site.js';
import { type Call, type Check, defineResource } from '../contract.js';

// WordPress's `/wp/v2/block-types` (WP_REST_Block_Types_Controller): the blocks the editor knows, read-only. The
// list is data recorded from WordPress 6.1 (test/wordpress-block-types.ts writes core.json), in its order.

interface BlockType {
  name: string;
  is_dynamic: boolean;
  [field: string]: unknown;
}

const recorded = JSON.parse(readFileSync(new URL('./core.json', import.meta.url), 'utf8')) as {
  wordpress: string;
  blockTypes: BlockType[];
};
export const blockTypes: readonly BlockType[] = recorded.blockTypes;

// WordPress's fields are many (supports, styles, script handles…): the answer passes them all through.
const BlockTypeSchema = Type.Object(
  {
    name: Type.String({ description: 'The block’s name: `namespace/name`.' }),
    title: Type.String({ description: 'Its name as the editor shows it.' }),
    description: Type.String({
      description: 'What the block is for (empty here: WordPress’s words are its own).',
    }),
    category: Type.Union([Type.String(), Type.Null()], {
      description: 'The inserter group it is listed in.',
    }),
    is_dynamic: Type.Boolean({ description: 'Whether the server renders it on each view.' }),
    attributes: Type.Unknown({ description: 'Its attributes with their types and defaults.' }),
    _links: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);
const Query = Type.Object({
  context: Type.Optional(ContextEnum),
  _fields: Type.Optional(Type.String()),
});
const ListQuery = Type.Object({
  ...Query.properties,
  namespace: Type.Optional(Type.String({ description: 'Only the blocks of this namespace (`core`).' })),
});
const Namespace = Type.String({
  description: 'The blocks’ namespace (`core`).',
  pattern: '^[a-zA-Z0-9_-]+$',
});

/** check_read_permission: anyone who may edit posts (or any type shown in the REST API), so contributors up. */
function checkReader({ me }: Check) {
  if (can(me, 'edit_posts') || can(me, 'edit_pages')) return;
  throw refused(!!me, 'rest_block_type_cannot_view', 'Sorry, you are not allowed to manage block types.');
}

function render(type: BlockType, site: Site) {
  const namespace = type.name.split('/')[0];
  const base = `${site.api}/wp/v2/block-types`;
  return {
    ...type,
    _links: {
      collection: [{ href: base }],
      self: [{ href: `${base}/${type.name}` }],
      up: [{ href: `${base}/${namespace}` }],
      // Server-rendered blocks link their renderer (which backlot does not serve; docs/content.md); only that
      // relation is WordPress's own, so only then are there curies.
      ...(type.is_dynamic
        ? {
            'wp:render-block': [{ href: `${site.api}/wp/v2/block-renderer/${type.name}?context=edit` }],
            curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
          }
        : {}),
    },
  };
}

/** get_block: after the read check, so a subscriber asking for a missing block is refused, not told. */
function findType(params: Record<string, string>): BlockType {
  const type = blockTypes.find((t) => t.name === `${params.namespace}/${params.name}`);
  if (!type) throw restError(404, 'rest_block_type_invalid', 'Invalid block type.');
  return type;
}

/** get_items: every block type, or those of a namespace (from the path, else `?namespace=`). */
function list(namespace: unknown, call: Call) {
  const fields = fieldList(call.query._fields as string | undefined);
  sendFields(call.reply, fields);
  return blockTypes
    .filter((type) => !namespace || type.name.split('/')[0] === namespace)
    .map((type) => pickItemFields(call.request, render(type, call.site), fields, true));
}

export const blockTypesResource = defineResource({
  name: 'block-types',
  schema: itemSchema('block-type', BlockTypeSchema),
  routes: [
    {
      path: '/wp/v2/block-types',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The block types WordPress 6.1 registers (contributors and up)',
          querystring: ListQuery,
          response: Type.Array(BlockTypeSchema),
          check: checkReader,
          handle: async (call) => list(call.query.namespace, call),
        },
      ],
    },
    {
      path: '/wp/v2/block-types/(?P<namespace>[a-zA-Z0-9_-]+)',
      params: Type.Object({ namespace: Namespace }),
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The block types of one namespace',
          querystring: ListQuery,
          response: Type.Array(BlockTypeSchema),
          check: checkReader,
          handle: async (call) => list(call.params.namespace || call.query.namespace, call),
        },
      ],
    },
    {
      path: '/wp/v2/block-types/(?P<namespace>[a-zA-Z0-9_-]+)/(?P<name>[a-zA-Z0-9_-]+)',
      params: Type.Object({
        namespace: Namespace,
        name: Type.String({ description: 'The block’s name in its namespace.', pattern: '^[a-zA-Z0-9_-]+$' }),
      }),
      endpoints: [
        {
          methods: ['GET'],
          summary: 'One block type',
          querystring: Query,
          response: BlockTypeSchema,
          check: (check) => {
            checkReader(check);
            findType(check.params);
          },
          async handle({ params, query, site, reply, request }) {
            const type = findType(params);
            const fields = fieldList(query._fields as string | undefined);
            sendFields(reply, fields);
            return pickItemFields(request, render(type, site), fields);
          },
        },
      ],
    },
  ],
});
