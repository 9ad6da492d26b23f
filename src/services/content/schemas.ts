import { type TLiteral, type TObject, type TSchema, type TUnion, Type } from '@sinclair/typebox';

/** A string enum (a union of literals, which the type provider can infer). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: object = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;

/** WordPress booleans also arrive as `1`/`0` in query strings. */
export const WpBoolean = Type.Union([Type.Boolean(), StringEnum(['true', 'false', '1', '0', ''] as const)]);
export const isTrue = (value: boolean | string | undefined) =>
  value === true || value === 'true' || value === '1';

/** Ids and counts stay within Postgres `integer`, so no value can overflow in SQL. */
const INT_MAX = 2_147_483_647;
const Id = Type.Integer({ minimum: 1, maximum: INT_MAX });
const IdList = Type.Array(Type.Integer({ minimum: 0, maximum: INT_MAX }));
const Page = Type.Integer({ minimum: 1, maximum: INT_MAX, default: 1 });
const Offset = Type.Integer({ minimum: 0, maximum: INT_MAX });

export const ContextEnum = StringEnum(['view', 'embed', 'edit'] as const, { default: 'view' });
/** `_embed`, `_embed=author,wp:term` or `_embed[]=author`: which linked resources to embed (`_embedded`). */
export const EmbedParam = Type.Union([Type.String(), Type.Array(Type.String())], {
  description: 'Embed the linked resources (`_embedded`): all of them, or the named link relations.',
});
export const postStatuses = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export const allPostStatuses = [...postStatuses, 'inherit'] as const;
export const writableStatuses = ['publish', 'future', 'draft', 'pending', 'private'] as const;

export const IdParams = Type.Object({ id: Type.Integer() });

export const RestErrorSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  // Core adds `details` to parameter errors and `term_id` to term_exists.
  data: Type.Object(
    { status: Type.Integer(), params: Type.Optional(Type.Unknown()) },
    { additionalProperties: true },
  ),
});

const Link = Type.Object({
  href: Type.String(),
  embeddable: Type.Optional(Type.Boolean()),
  taxonomy: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  templated: Type.Optional(Type.Boolean()),
  count: Type.Optional(Type.Integer()),
  id: Type.Optional(Type.Integer()),
});
const Links = Type.Record(Type.String(), Type.Array(Link));
const Rendered = Type.Object({ raw: Type.Optional(Type.String()), rendered: Type.String() });
const RenderedProtected = Type.Object({
  raw: Type.Optional(Type.String()),
  rendered: Type.String(),
  protected: Type.Boolean(),
});
const Content = Type.Composite([
  RenderedProtected,
  Type.Object({ block_version: Type.Optional(Type.Integer()) }),
]);
/** Core sends `meta` as an empty PHP array, `[]`, unless registered meta has values: written as it is. */
const Meta = Type.Unknown();

export const PostSchema = Type.Object({
  id: Type.Integer(),
  date: Type.String(),
  date_gmt: Type.String(),
  guid: Rendered,
  modified: Type.String(),
  modified_gmt: Type.String(),
  slug: Type.String(),
  status: StringEnum(allPostStatuses),
  type: Type.String(),
  password: Type.Optional(Type.String()),
  link: Type.String(),
  title: Rendered,
  content: Content,
  excerpt: RenderedProtected,
  author: Type.Integer(),
  featured_media: Type.Integer(),
  comment_status: Type.String(),
  ping_status: Type.String(),
  sticky: Type.Boolean(),
  template: Type.String(),
  format: Type.String(),
  meta: Meta,
  categories: Type.Array(Type.Integer()),
  tags: Type.Array(Type.Integer()),
  permalink_template: Type.Optional(Type.String()),
  generated_slug: Type.Optional(Type.String()),
  _links: Links,
  _embedded: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

/** The fields every post type's answer starts with, in core's order (blocks and navigation menus add their own). */
export const postBaseFields = {
  id: PostSchema.properties.id,
  date: PostSchema.properties.date,
  date_gmt: PostSchema.properties.date_gmt,
  guid: PostSchema.properties.guid,
  modified: PostSchema.properties.modified,
  modified_gmt: PostSchema.properties.modified_gmt,
  password: PostSchema.properties.password,
  slug: PostSchema.properties.slug,
  status: PostSchema.properties.status,
  type: PostSchema.properties.type,
  link: PostSchema.properties.link,
};

/** What a delete answers: the item as it was, without links (core sends the data of the item's response). */
export const deletedSchema = <T extends TObject>(item: T) =>
  Type.Object({ deleted: Type.Boolean(), previous: Type.Omit(item, ['_links']) });
export const DeletedPostSchema = deletedSchema(PostSchema);

export const PostListQuery = Type.Object({
  context: Type.Optional(ContextEnum),
  // No default: `page` without `per_page` means pages of 10, no `page` and no `per_page` the full list.
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: INT_MAX })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Absent: the full list.' })),
  offset: Type.Optional(Offset),
  search: Type.Optional(Type.String()),
  author: Type.Optional(IdList),
  author_exclude: Type.Optional(IdList),
  categories: Type.Optional(IdList),
  tags: Type.Optional(IdList),
  include: Type.Optional(IdList),
  exclude: Type.Optional(IdList),
  slug: Type.Optional(Type.Array(Type.String())),
  status: Type.Optional(Type.Array(StringEnum([...postStatuses, 'any'] as const))),
  sticky: Type.Optional(WpBoolean),
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
    ] as const),
  ),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  _fields: Type.Optional(Type.String()),
  _embed: Type.Optional(EmbedParam),
});

export const ItemQuery = Type.Object({
  context: Type.Optional(ContextEnum),
  _fields: Type.Optional(Type.String()),
  _embed: Type.Optional(EmbedParam),
});

const TextField = Type.Union([Type.String(), Type.Object({ raw: Type.String() })]);

export const PostWriteBody = Type.Object({
  title: Type.Optional(TextField),
  content: Type.Optional(TextField),
  excerpt: Type.Optional(TextField),
  status: Type.Optional(StringEnum(writableStatuses)),
  categories: Type.Optional(IdList),
  tags: Type.Optional(IdList),
  slug: Type.Optional(Type.String({ maxLength: 200 })),
  author: Type.Optional(Id),
  date: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  date_gmt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  password: Type.Optional(Type.String()),
  featured_media: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX })),
  template: Type.Optional(Type.String()),
  sticky: Type.Optional(WpBoolean),
  comment_status: Type.Optional(StringEnum(['open', 'closed'] as const)),
  ping_status: Type.Optional(StringEnum(['open', 'closed'] as const)),
  format: Type.Optional(
    StringEnum([
      'standard',
      'aside',
      'chat',
      'gallery',
      'link',
      'image',
      'quote',
      'status',
      'video',
      'audio',
    ] as const),
  ),
});

export const ForceQuery = Type.Object({ force: Type.Optional(WpBoolean) });
export const UserDeleteArgs = Type.Object({
  force: Type.Optional(WpBoolean),
  // An id, or false to delete the user's posts with them (checked by the route, as core's check_reassign).
  reassign: Type.Optional(
    Type.Unknown({ description: 'Moves the deleted user’s posts to this user; false deletes them.' }),
  ),
});

export const UserSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  description: Type.String(),
  link: Type.String(),
  slug: Type.String(),
  avatar_urls: Type.Record(Type.String(), Type.String()),
  meta: Meta,
  _links: Links,
  username: Type.Optional(Type.String()),
  first_name: Type.Optional(Type.String()),
  last_name: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  locale: Type.Optional(Type.String()),
  nickname: Type.Optional(Type.String()),
  registered_date: Type.Optional(Type.String()),
  roles: Type.Optional(Type.Array(Type.String())),
  capabilities: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
  extra_capabilities: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
});

export const UserListQuery = Type.Object({
  context: Type.Optional(ContextEnum),
  page: Type.Optional(Page),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  offset: Type.Optional(Offset),
  search: Type.Optional(Type.String()),
  include: Type.Optional(IdList),
  exclude: Type.Optional(IdList),
  slug: Type.Optional(Type.Array(Type.String())),
  roles: Type.Optional(Type.Array(Type.String())),
  capabilities: Type.Optional(Type.Array(Type.String())),
  who: Type.Optional(StringEnum(['authors'] as const)),
  has_published_posts: Type.Optional(
    Type.Array(Type.String(), { description: 'true, or post types (post, page, attachment).' }),
  ),
  orderby: Type.Optional(
    StringEnum([
      'id',
      'include',
      'name',
      'registered_date',
      'slug',
      'include_slugs',
      'email',
      'url',
      'username',
    ] as const),
  ),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  _fields: Type.Optional(Type.String()),
});

const termFields = {
  id: Type.Integer(),
  count: Type.Integer(),
  description: Type.String(),
  link: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  taxonomy: Type.String(),
};
export const TagSchema = Type.Object({ ...termFields, meta: Meta, _links: Links });
export const CategorySchema = Type.Object({
  ...termFields,
  parent: Type.Integer(),
  meta: Meta,
  _links: Links,
});

export const TermListQuery = Type.Object({
  context: Type.Optional(ContextEnum),
  page: Type.Optional(Page),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  offset: Type.Optional(Offset),
  search: Type.Optional(Type.String()),
  include: Type.Optional(IdList),
  exclude: Type.Optional(IdList),
  slug: Type.Optional(Type.Array(Type.String())),
  hide_empty: Type.Optional(WpBoolean),
  post: Type.Optional(Id),
  parent: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX, description: 'Categories only.' })),
  orderby: Type.Optional(
    StringEnum([
      'id',
      'include',
      'name',
      'slug',
      'include_slugs',
      'count',
      'term_group',
      'description',
    ] as const),
  ),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  _fields: Type.Optional(Type.String()),
});

export const TermWriteBody = Type.Object({
  // No minLength: a blank name is core's empty_term_name, which the handler answers.
  name: Type.String({ maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  slug: Type.Optional(Type.String({ maxLength: 200 })),
  parent: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX, description: 'Categories only.' })),
});

export const SettingsSchema = Type.Object({
  user_login: Type.String(),
  display_name: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  description: Type.String(),
  user_email: Type.String(),
  user_URL: Type.String(),
  language: Type.String(),
  avatar_URL: Type.String(),
});

export const SettingsErrorSchema = Type.Object({ error: Type.String(), message: Type.String() });

export const IndexSchema = Type.Object({}, { additionalProperties: true });

/** Response map for a route: the success schema plus the REST error shape for client errors. */
export const responses = (ok: TSchema, status = 200) => ({
  [status]: ok,
  '4xx': RestErrorSchema,
});
