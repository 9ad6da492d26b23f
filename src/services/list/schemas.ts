import { Type } from '@sinclair/typebox';

const open = { additionalProperties: true } as const;

export const ListItem = Type.Object(
  {
    id: Type.Integer({ description: 'Assigned by the service: the largest id plus one.', examples: [3] }),
    item: Type.String({ description: 'Name of the entry.', examples: ['milk'] }),
  },
  { ...open, description: 'A list entry; any other fields a client sent are kept.' },
);

export const NewListItem = Type.Object(
  {
    item: Type.String({ examples: ['milk'] }),
    id: Type.Optional(Type.Integer({ minimum: 1, description: 'Optional; must not be taken already.' })),
  },
  open,
);

export const ListItemReplacement = Type.Object({ item: Type.String({ examples: ['milk'] }) }, open);

export const ListItemChanges = Type.Object(
  { item: Type.Optional(Type.String({ examples: ['milk'] })) },
  open,
);

/** Any JSON object: the body of a write to a resource other than `list`. */
export const AnyObject = Type.Object({}, open);

export const ErrorBody = Type.Object(
  { error: Type.String() },
  { description: 'A client mistake or a failed save.' },
);

export const Empty = Type.Object({}, { description: 'Not found (or, for DELETE, deleted).' });

export const IdParams = Type.Object({ id: Type.String({ description: 'The item id (its string form).' }) });

export const ResourceParams = Type.Object({ resource: Type.String() });

export const ResourceIdParams = Type.Object({ resource: Type.String(), id: Type.String() });

export const NestedParams = Type.Object({
  resource: Type.String(),
  id: Type.String(),
  nested: Type.String(),
});

const text = (description: string) => Type.Optional(Type.String({ description }));

const relations = {
  _embed: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Resources to embed in each item: `_embed=comments` adds the comments whose `<item>Id` is its id.',
    }),
  ),
  _expand: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Items to expand: `_expand=post` adds the `posts` item whose id is the `postId`.',
    }),
  ),
};

/** `_embed` and `_expand` on one item. */
export const ItemQuery = Type.Object(relations, open);

export const CollectionQuery = Type.Object(
  {
    // An array so `q=a&q=b` is accepted: json-server searches for the first one only.
    q: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'Full-text search: items with any value containing this text (case-insensitive). Given twice, the first counts.',
      }),
    ),
    _page: text(
      'Page number (1-based); pages hold `_limit` items (default 10). Adds `X-Total-Count` and `Link`.',
    ),
    _limit: text('Items per page with `_page`, or how many items from `_start`. Adds `X-Total-Count`.'),
    _start: text('Index of the first item, with `_end` or `_limit`.'),
    _end: text('Index after the last item (from `_start`, default 0). Adds `X-Total-Count`.'),
    _sort: text('Field(s) to sort by, comma-separated; dotted paths reach nested fields.'),
    _order: text('`asc` or `desc` for each `_sort` field, comma-separated.'),
    ...relations,
  },
  {
    ...open,
    description:
      'Any other parameter filters by a field: `item=bread`, `id=1&id=2` (either), `id_gte=2`, `id_lte=5`, `item_ne=bread`, `item_like=^br` (regular expression).',
  },
);
