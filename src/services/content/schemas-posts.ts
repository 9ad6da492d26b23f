import { Type } from '@sinclair/typebox';
import { deletedSchema, ItemQuery, PostListQuery, PostSchema, PostWriteBody, StringEnum } from './schemas.js';

const INT_MAX = 2_147_483_647;
const IdList = Type.Array(Type.Integer({ minimum: 0, maximum: INT_MAX }));
const DateTime = Type.String({
  description: 'A date in RFC 3339 form (checked by the handler, as core does).',
});

/** Filters posts and pages share beyond the seed's list (before/after, exclusions, tax_relation). */
export const sharedListFilters = {
  before: Type.Optional(DateTime),
  after: Type.Optional(DateTime),
  modified_before: Type.Optional(DateTime),
  modified_after: Type.Optional(DateTime),
};

export const PostsListQuery = Type.Composite([
  PostListQuery,
  Type.Object({
    ...sharedListFilters,
    categories_exclude: Type.Optional(IdList),
    tags_exclude: Type.Optional(IdList),
    tax_relation: Type.Optional(StringEnum(['AND', 'OR'] as const)),
  }),
]);

export const PagesListQuery = Type.Composite([
  Type.Omit(PostListQuery, ['categories', 'tags', 'sticky', 'orderby']),
  Type.Object({
    ...sharedListFilters,
    parent: Type.Optional(IdList),
    parent_exclude: Type.Optional(IdList),
    menu_order: Type.Optional(Type.Integer()),
    orderby: Type.Optional(
      StringEnum([
        'author',
        'date',
        'id',
        'include',
        'modified',
        'parent',
        'relevance',
        'slug',
        'include_slugs',
        'title',
        'menu_order',
      ] as const),
    ),
  }),
]);

export const PostItemQuery = Type.Composite([
  ItemQuery,
  Type.Object({ password: Type.Optional(Type.String()) }),
]);

export const PageSchema = Type.Composite([
  Type.Omit(PostSchema, ['sticky', 'format', 'categories', 'tags']),
  Type.Object({ parent: Type.Integer(), menu_order: Type.Integer() }),
]);
export const DeletedPageSchema = deletedSchema(PageSchema);

export const PageWriteBody = Type.Composite([
  Type.Omit(PostWriteBody, ['sticky', 'format', 'categories', 'tags']),
  Type.Object({
    parent: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX })),
    menu_order: Type.Optional(Type.Integer({ minimum: -INT_MAX, maximum: INT_MAX })),
  }),
]);
