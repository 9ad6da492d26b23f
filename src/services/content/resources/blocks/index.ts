import { Type } from '@sinclair/typebox';
import { blockVersion } from '../../post-fields.js';
import type { PostKind } from '../../post-write.js';
import { type Context, wpDate } from '../../render.js';
import { deletedSchema, PostListQuery, PostSchema, PostWriteBody, postBaseFields } from '../../schemas.js';
import { sharedListFilters } from '../../schemas-posts.js';
import type { PostRow } from '../../store.js';

/**
 * `/wp/v2/blocks`: WordPress's reusable blocks, served by the posts' routes (posts.ts) with this kind. Creating
 * one needs `publish_posts` (wp_block's `create_posts`), so a contributor may not.
 */
export const blockKind: PostKind = {
  type: 'wp_block',
  rest: 'blocks',
  caps: 'blocks',
  create: 'publish_posts',
};

const Raw = Type.Object({ raw: Type.String() });
/** The block controller drops `rendered`: a block's title and content are raw in every context (in core's order). */
const fields = PostSchema.properties;
export const BlockSchema = Type.Object({
  ...postBaseFields,
  // Embed context: neither raw nor rendered, so core's empty PHP array.
  title: Type.Union([Raw, Type.Array(Type.Never())]),
  content: Type.Optional(
    Type.Object({
      raw: Type.String(),
      protected: Type.Boolean(),
      block_version: Type.Optional(Type.Integer()),
    }),
  ),
  template: Type.Optional(fields.template),
  _links: fields._links,
  _embedded: fields._embedded,
});
export const DeletedBlockSchema = deletedSchema(BlockSchema);

/** wp_block supports title, editor and revisions: no author, terms, sticky or parent filters. */
export const BlocksListQuery = Type.Composite([
  Type.Omit(PostListQuery, ['author', 'author_exclude', 'categories', 'tags', 'sticky', 'per_page']),
  Type.Object({
    ...sharedListFilters,
    // Pages of 10 as in WordPress: the full-list rule is the spec's for posts, pages and media only.
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  }),
]);

export const BlockWriteBody = Type.Pick(PostWriteBody, [
  'title',
  'content',
  'status',
  'slug',
  'date',
  'date_gmt',
  'password',
  'template',
]);

/**
 * A reusable block as WP_REST_Blocks_Controller answers: the post fields its supports give, title and content
 * raw only, made from what renderPost gave (its guid, link and links, less the author's and replies').
 */
export function renderBlock(
  post: PostRow,
  context: Context,
  rendered: { guid?: unknown; link: string; _links: Record<string, unknown> },
) {
  const common = rendered;
  const { author: _, replies: __, curies, ...own } = rendered._links;
  const _links = { ...own, curies };
  if (context === 'embed')
    return {
      id: post.id,
      date: wpDate(post.date),
      slug: post.slug,
      type: post.type,
      link: common.link,
      title: [],
      _links,
    };
  return {
    id: post.id,
    date: wpDate(post.date),
    date_gmt: wpDate(post.date),
    guid: common.guid,
    modified: wpDate(post.modified),
    modified_gmt: wpDate(post.modified),
    ...(context === 'edit' ? { password: post.password } : {}),
    slug: post.slug,
    status: post.status,
    type: post.type,
    link: common.link,
    title: { raw: post.title },
    content: {
      raw: post.content,
      protected: post.password !== '',
      ...(context === 'edit' ? { block_version: blockVersion(post.content) } : {}),
    },
    template: post.template,
    _links,
  };
}
