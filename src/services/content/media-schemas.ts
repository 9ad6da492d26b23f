import { Type } from '@sinclair/typebox';
import { PostListQuery, StringEnum } from './schemas.js';
import { sharedListFilters } from './schemas-posts.js';

const Int = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

export const MediaFields = Type.Object({
  title: Type.Optional(Type.Union([Type.String(), Type.Object({ raw: Type.String() })])),
  caption: Type.Optional(Type.Union([Type.String(), Type.Object({ raw: Type.String() })])),
  description: Type.Optional(Type.Union([Type.String(), Type.Object({ raw: Type.String() })])),
  alt_text: Type.Optional(Type.String()),
  post: Type.Optional(Type.Union([Int, Type.Null()])),
  author: Type.Optional(Int),
  slug: Type.Optional(Type.String({ maxLength: 200 })),
  date: Type.Optional(Type.String()),
  comment_status: Type.Optional(StringEnum(['open', 'closed'] as const)),
  ping_status: Type.Optional(StringEnum(['open', 'closed'] as const)),
});
export const MediaListQuery = Type.Composite([
  Type.Omit(PostListQuery, ['categories', 'tags', 'sticky', 'status']),
  Type.Object({
    ...sharedListFilters,
    parent: Type.Optional(Type.Array(Int)),
    parent_exclude: Type.Optional(Type.Array(Int)),
    media_type: Type.Optional(StringEnum(['image', 'video', 'text', 'application', 'audio'] as const)),
    mime_type: Type.Optional(Type.String()),
    status: Type.Optional(Type.Array(StringEnum(['inherit', 'private', 'trash'] as const))),
  }),
]);
export const MediaItem = Type.Object({}, { additionalProperties: true });
