import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { can } from './capabilities.js';
import { refused, restError } from './errors.js';
import { caller, siteOf } from './http.js';
import type { Context } from './render.js';
import { ContextEnum, responses } from './schemas.js';
import { taxonomyLabels } from './site-taxonomy-labels.js';
import { postTypeLabels, postTypeVisibility } from './site-type-labels.js';
import {
  type PostTypeName,
  postStatusObjects,
  postTypes,
  type TaxonomyName,
  taxonomyObjects,
} from './site-types.js';
import type { UserRow } from './store.js';

const curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
const Query = Type.Object({ context: Type.Optional(ContextEnum) });
const TaxonomyQuery = Type.Object({
  context: Type.Optional(ContextEnum),
  type: Type.Optional(Type.String({ description: 'Only taxonomies of this post type.' })),
});
const AnyObject = Type.Object({}, { additionalProperties: true });
const tags = ['site'];

/** `$type->cap->edit_posts`: pages need edit_pages, posts and media edit_posts, menu items edit_theme_options. */
const editCapability = (type: PostTypeName) =>
  ({ pages: 'edit_pages', posts: 'edit_posts', theme: 'edit_theme_options', blocks: 'edit_posts' })[
    postTypes[type].capability
  ];
/** wp_block registers these primitives under the posts' names; its others stay `*_blocks`. */
const blockAsPosts = ['edit', 'edit_others', 'delete_published', 'delete_others', 'edit_published'];
const canEditType = (user: UserRow | undefined, type: PostTypeName) => can(user, editCapability(type));
const canEditAnyType = (user: UserRow | undefined) =>
  (Object.keys(postTypes) as PostTypeName[]).some((type) => canEditType(user, type));

/** Keeps the fields core shows in a context: embed ⊂ view ⊂ edit. */
function inContext<T extends Record<string, unknown>>(
  context: Context,
  embed: string[],
  edit: string[],
  data: T,
): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data))
    if (
      key === '_links' ||
      context === 'edit' ||
      embed.includes(key) ||
      (context === 'view' && !edit.includes(key))
    )
      out[key] = value;
  return out as Partial<T>;
}

function renderType(request: FastifyRequest, slug: PostTypeName, context: Context) {
  const type = postTypes[slug];
  const api = siteOf(request).api;
  const cap = type.capability;
  const one = cap === 'pages' ? 'page' : cap === 'blocks' ? 'block' : 'post';
  // Menu items' primitives are all edit_theme_options (their meta capabilities stay the posts').
  const primitive = (name: string) =>
    cap === 'theme'
      ? 'edit_theme_options'
      : cap === 'blocks' && blockAsPosts.includes(name)
        ? `${name}_posts`
        : `${name}_${cap}`;
  return inContext(
    context,
    ['name', 'slug', 'rest_base', 'rest_namespace'],
    ['capabilities', 'labels', 'supports', 'viewable', 'visibility'],
    {
      // get_post_type_capabilities: the meta capabilities, then the primitives map_meta_cap uses.
      capabilities: {
        edit_post: `edit_${one}`,
        read_post: `read_${one}`,
        delete_post: `delete_${one}`,
        edit_posts: primitive('edit'),
        edit_others_posts: primitive('edit_others'),
        delete_posts: primitive('delete'),
        publish_posts: primitive('publish'),
        read_private_posts: primitive('read_private'),
        read: cap === 'blocks' ? 'edit_posts' : 'read',
        delete_private_posts: primitive('delete_private'),
        delete_published_posts: primitive('delete_published'),
        delete_others_posts: primitive('delete_others'),
        edit_private_posts: primitive('edit_private'),
        edit_published_posts: primitive('edit_published'),
        create_posts:
          slug === 'attachment' ? 'upload_files' : cap === 'blocks' ? 'publish_posts' : primitive('edit'),
      },
      description: 'description' in type ? type.description : '',
      hierarchical: type.hierarchical,
      has_archive: false,
      visibility: postTypeVisibility[slug],
      viewable: !['nav_menu_item', 'wp_block', 'wp_navigation'].includes(slug),
      labels: postTypeLabels[slug],
      name: type.name,
      slug,
      icon: type.icon,
      supports: Object.fromEntries(type.supports.map((s) => [s, true])),
      taxonomies: [...type.taxonomies],
      rest_base: type.rest_base,
      rest_namespace: 'wp/v2',
      _links: {
        collection: [{ href: `${api}/wp/v2/types` }],
        'wp:items': [{ href: `${api}/wp/v2/${type.rest_base}` }],
        curies,
      },
    },
  );
}

function renderStatus(request: FastifyRequest, slug: keyof typeof postStatusObjects, context: Context) {
  const status = postStatusObjects[slug];
  const posts = `${siteOf(request).api}/wp/v2/posts`;
  return inContext(context, ['name', 'slug'], ['private', 'protected', 'show_in_list'], {
    name: status.name,
    private: status.private,
    protected: status.protected,
    public: status.public,
    queryable: status.queryable,
    show_in_list: status.show_in_list,
    slug,
    date_floating: status.date_floating,
    _links: { archives: [{ href: slug === 'publish' ? posts : `${posts}?status=${slug}` }] },
  });
}

/** The post type a taxonomy is registered for: menus' for nav_menu, posts' for categories and tags. */
const typeOfTaxonomy = (slug: TaxonomyName) => (slug === 'nav_menu' ? 'nav_menu_item' : 'post');

/** `$taxonomy->cap->assign_terms` as a primitive: edit_theme_options for menus, edit_posts for the others. */
const canAssign = (user: UserRow | undefined, slug: TaxonomyName) =>
  can(user, slug === 'nav_menu' ? 'edit_theme_options' : 'edit_posts');

/** The single taxonomy route's permission check (so also its Allow): edit context needs assign_terms. */
export const taxonomyReadable = (user: UserRow | undefined, slug: string, context: string) =>
  context !== 'edit' || !Object.hasOwn(taxonomyObjects, slug) || canAssign(user, slug as TaxonomyName);

function renderTaxonomy(request: FastifyRequest, slug: TaxonomyName, context: Context) {
  const taxonomy = taxonomyObjects[slug];
  const api = siteOf(request).api;
  const menus = slug === 'nav_menu';
  return inContext(
    context,
    ['name', 'slug', 'rest_base', 'rest_namespace'],
    ['capabilities', 'labels', 'show_cloud', 'visibility'],
    {
      name: taxonomy.name,
      slug,
      capabilities: menus
        ? {
            manage_terms: 'edit_theme_options',
            edit_terms: 'edit_theme_options',
            delete_terms: 'edit_theme_options',
            assign_terms: 'edit_theme_options',
          }
        : {
            manage_terms: slug === 'category' ? 'manage_categories' : 'manage_post_tags',
            edit_terms: slug === 'category' ? 'edit_categories' : 'edit_post_tags',
            delete_terms: slug === 'category' ? 'delete_categories' : 'delete_post_tags',
            assign_terms: slug === 'category' ? 'assign_categories' : 'assign_post_tags',
          },
      description: '',
      labels: taxonomyLabels[slug],
      types: [typeOfTaxonomy(slug)],
      show_cloud: taxonomy.show_cloud,
      hierarchical: taxonomy.hierarchical,
      rest_base: taxonomy.rest_base,
      rest_namespace: 'wp/v2',
      // nav_menu is registered with public and show_ui false, and the rest follow from those.
      visibility: {
        public: !menus,
        publicly_queryable: !menus,
        show_admin_column: !menus,
        show_in_nav_menus: !menus,
        show_in_quick_edit: !menus,
        show_ui: !menus,
      },
      _links: {
        collection: [{ href: `${api}/wp/v2/taxonomies` }],
        'wp:items': [{ href: `${api}/wp/v2/${taxonomy.rest_base}` }],
        curies,
      },
    },
  );
}

/** Core's status visibility: public ones for everyone, the rest (and trash) for anyone who may edit posts. */
const canSeeStatus = (user: UserRow | undefined, slug: string) =>
  slug === 'publish' || (slug in postStatusObjects && canEditAnyType(user));

/** `/types`, `/statuses` and `/taxonomies` (and one of each), as WordPress 6.1 answers them. */
export function siteRoutes(): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const base = '/wp-json/wp/v2';
    const single = { response: responses(AnyObject), tags };

    app.get(
      `${base}/types`,
      { schema: { ...single, summary: 'Post types', querystring: Query } },
      async (request) => {
        const me = caller(request);
        const context = request.query.context ?? 'view';
        if (context === 'edit' && !canEditAnyType(me))
          throw refused(
            !!me,
            'rest_cannot_view',
            'Sorry, you are not allowed to edit posts in this post type.',
          );
        const types = (Object.keys(postTypes) as PostTypeName[]).filter(
          (t) => context !== 'edit' || canEditType(me, t),
        );
        return Object.fromEntries(types.map((t) => [t, renderType(request, t, context)]));
      },
    );

    app.get(
      `${base}/types/:type`,
      {
        schema: {
          ...single,
          summary: 'One post type',
          querystring: Query,
          params: Type.Object({ type: Type.String() }),
        },
      },
      async (request) => {
        const slug = request.params.type.toLowerCase();
        if (!Object.hasOwn(postTypes, slug)) throw restError(404, 'rest_type_invalid', 'Invalid post type.');
        const me = caller(request);
        const context = request.query.context ?? 'view';
        if (context === 'edit' && !canEditType(me, slug as PostTypeName))
          throw refused(
            !!me,
            'rest_forbidden_context',
            'Sorry, you are not allowed to edit posts in this post type.',
          );
        return renderType(request, slug as PostTypeName, context);
      },
    );

    app.get(
      `${base}/statuses`,
      { schema: { ...single, summary: 'Post statuses', querystring: Query } },
      async (request) => {
        const me = caller(request);
        const context = request.query.context ?? 'view';
        if (context === 'edit' && !canEditAnyType(me))
          throw refused(!!me, 'rest_cannot_view', 'Sorry, you are not allowed to manage post statuses.');
        const visible = (Object.keys(postStatusObjects) as (keyof typeof postStatusObjects)[]).filter((s) =>
          canSeeStatus(me, s),
        );
        return Object.fromEntries(visible.map((s) => [s, renderStatus(request, s, context)]));
      },
    );

    app.get(
      `${base}/statuses/:status`,
      {
        schema: {
          ...single,
          summary: 'One post status',
          querystring: Query,
          params: Type.Object({ status: Type.String() }),
        },
      },
      async (request) => {
        const slug = request.params.status.toLowerCase();
        const internal = slug === 'inherit' || slug === 'auto-draft';
        if (!Object.hasOwn(postStatusObjects, slug) && !internal)
          throw restError(404, 'rest_status_invalid', 'Invalid status.');
        const me = caller(request);
        if (internal || !canSeeStatus(me, slug))
          throw refused(!!me, 'rest_cannot_read_status', 'Cannot view status.');
        return renderStatus(request, slug as keyof typeof postStatusObjects, request.query.context ?? 'view');
      },
    );

    app.get(
      `${base}/taxonomies`,
      {
        schema: {
          tags,
          summary: 'Taxonomies',
          querystring: TaxonomyQuery,
          response: responses(AnyObject),
        },
      },
      async (request) => {
        const me = caller(request);
        const context = request.query.context ?? 'view';
        if (context === 'edit' && !can(me, 'edit_posts'))
          throw refused(
            !!me,
            'rest_cannot_view',
            'Sorry, you are not allowed to manage terms in this taxonomy.',
          );
        const type = request.query.type;
        // get_items leaves out, in edit context, the taxonomies whose terms the caller may not assign.
        const names = (Object.keys(taxonomyObjects) as TaxonomyName[]).filter(
          (n) => (!type || typeOfTaxonomy(n) === type) && (context !== 'edit' || canAssign(me, n)),
        );
        // Core casts an empty list to an object, so a type without taxonomies answers `{}`.
        if (names.length === 0) return {};
        return Object.fromEntries(names.map((n) => [n, renderTaxonomy(request, n, context)]));
      },
    );

    app.get(
      `${base}/taxonomies/:taxonomy`,
      {
        schema: {
          ...single,
          summary: 'One taxonomy',
          querystring: Query,
          params: Type.Object({ taxonomy: Type.String() }),
        },
      },
      async (request) => {
        const slug = request.params.taxonomy.toLowerCase();
        if (!Object.hasOwn(taxonomyObjects, slug))
          throw restError(404, 'rest_taxonomy_invalid', 'Invalid taxonomy.');
        const me = caller(request);
        const context = request.query.context ?? 'view';
        if (context === 'edit' && !canAssign(me, slug as TaxonomyName))
          throw refused(
            !!me,
            'rest_forbidden_context',
            'Sorry, you are not allowed to manage terms in this taxonomy.',
          );
        return renderTaxonomy(request, slug as TaxonomyName, context);
      },
    );
  };
}
