import { type TSchema, Type } from '@sinclair/typebox';
import type { ResourceName } from './dataset.js';

const Id = Type.Integer({ minimum: 1 });

export const Post = Type.Object(
  { userId: Id, id: Id, title: Type.String(), body: Type.String() },
  { $id: 'Post', additionalProperties: true },
);
export const Comment = Type.Object(
  { postId: Id, id: Id, name: Type.String(), email: Type.String(), body: Type.String() },
  { $id: 'Comment', additionalProperties: true },
);
export const Album = Type.Object(
  { userId: Id, id: Id, title: Type.String() },
  { $id: 'Album', additionalProperties: true },
);
export const Photo = Type.Object(
  {
    albumId: Id,
    id: Id,
    title: Type.String(),
    url: Type.String({ description: 'A 600x600 PNG served by this service' }),
    thumbnailUrl: Type.String({ description: 'A 150x150 PNG served by this service' }),
  },
  { $id: 'Photo', additionalProperties: true },
);
export const Todo = Type.Object(
  { userId: Id, id: Id, title: Type.String(), completed: Type.Boolean() },
  { $id: 'Todo', additionalProperties: true },
);
export const User = Type.Object(
  {
    id: Id,
    name: Type.String(),
    username: Type.String(),
    email: Type.String(),
    address: Type.Object({
      street: Type.String(),
      suite: Type.String(),
      city: Type.String(),
      zipcode: Type.String(),
      geo: Type.Object({ lat: Type.String(), lng: Type.String() }),
    }),
    phone: Type.String(),
    website: Type.String(),
    company: Type.Object({ name: Type.String(), catchPhrase: Type.String(), bs: Type.String() }),
  },
  { $id: 'User', additionalProperties: true },
);

export const itemSchemas: Record<ResourceName, TSchema> = {
  posts: Post,
  comments: Comment,
  albums: Album,
  photos: Photo,
  todos: Todo,
  users: User,
};

/** `{}`: every error of this API (unknown id, unknown route) has this body. */
export const Empty = Type.Object({}, { description: 'An empty JSON object', additionalProperties: false });

export const IdParams = Type.Object({
  id: Type.String({ description: 'The numeric id; anything that is not an existing id gives 404 `{}`' }),
});

/** Strings or repeated strings: query values are never rejected (the API does no validation). */
const QueryValue = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description }));

export const ListQuery = Type.Object(
  {
    _limit: QueryValue('At most this many items (a whole number; anything else is ignored)'),
    _start: QueryValue('Index of the first item, with `_end` or `_limit`'),
    _end: QueryValue('Index after the last item'),
    _page: QueryValue('Page number (1-based), `_limit` items per page (10 by default); adds a `Link` header'),
    _sort: QueryValue('Field(s) to sort by, comma-separated (`userId,title`)'),
    _order: QueryValue('`asc` or `desc` for each `_sort` field'),
    q: QueryValue('Case-insensitive full-text search in every field'),
    _embed: QueryValue('Child resource to include (`comments` on posts)'),
    _expand: QueryValue('Parent resource to include (`user` on posts)'),
  },
  {
    additionalProperties: Type.Union([Type.String(), Type.Array(Type.String())]),
    description:
      'Any field is a filter (`userId=1`, repeated = OR; `field_gte`, `field_lte`, `field_ne`, `field_like`)',
  },
);

export const RelationQuery = Type.Object(
  { _embed: QueryValue('Child resource to include'), _expand: QueryValue('Parent resource to include') },
  { additionalProperties: Type.Union([Type.String(), Type.Array(Type.String())]) },
);

export const WriteBody = Type.Unknown({
  description: 'Any JSON object; not validated and not kept. Anything else is treated as `{}`.',
});

export const Written = Type.Object({ id: Id }, { additionalProperties: true });

export const ImageParams = Type.Object({
  size: Type.String({ description: '`600` or `150`' }),
  file: Type.String({ description: 'Colour as six hex digits, then `.png` (`92c952.png`)' }),
});
