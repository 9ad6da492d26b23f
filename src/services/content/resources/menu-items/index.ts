import { Type } from '@sinclair/typebox';
import { can } from '../../capabilities.js';
import { pickItemFields } from '../../embed-param.js';
import { refused, restError } from '../../errors.js';
import { fieldList, paginate, sendFields, validId } from '../../http.js';
import { attachmentLink, permalink } from '../../post-fields.js';
import { curies, restBase, withoutLinks } from '../../render.js';
import { texturize } from '../../render-text.js';
import { itemSchema } from '../../route-spec.js';
import { ForceQuery, isTrue, StringEnum } from '../../schemas.js';
import type { Site } from '../../site.js';
import { postTypes, taxonomyObjects } from '../../site-types.js';
import type { ContentStore } from '../../store.js';
import { type Call, type Check, defineResource } from '../contract.js';
import { canEditMenus, checkMenuReader } from '../menus/access.js';
import { MenuStore } from '../menus/store.js';
import { type MenuItemFields, type MenuItemRow, MenuItemStore } from './store.js';

// WordPress's `/wp/v2/menu-items` (WP_REST_Menu_Items_Controller, a posts controller for `nav_menu_item`).

const INT_MAX = 2_147_483_647;
const itemTypes = ['taxonomy', 'post_type', 'post_type_archive', 'custom'] as const;
const IdList = Type.Array(Type.Integer({ minimum: 0, maximum: INT_MAX }));

export const MenuItemSchema = Type.Object({
  id: Type.Integer(),
  title: Type.Object({ raw: Type.Optional(Type.String()), rendered: Type.String() }),
  status: Type.String(),
  // false for the archive of a post type without one, as get_post_type_archive_link answers.
  url: Type.Union([Type.String(), Type.Boolean()], { description: 'Where the item links to.' }),
  attr_title: Type.String({ description: 'The link’s title attribute.' }),
  description: Type.String(),
  type: Type.String(),
  type_label: Type.String({ description: 'What kind of item this is, in words.' }),
  object: Type.String({ description: 'The post type or taxonomy linked to, or custom.' }),
  object_id: Type.Integer({ description: 'The id of the post or term linked to.' }),
  parent: Type.Integer(),
  menu_order: Type.Integer(),
  target: Type.String({ description: 'The link’s target attribute (_blank or empty).' }),
  classes: Type.Array(Type.String(), { description: 'CSS classes of the link.' }),
  xfn: Type.Array(Type.String(), { description: 'XFN relationships of the link.' }),
  invalid: Type.Boolean({ description: 'Whether what the item links to is gone.' }),
  meta: Type.Optional(Type.Unknown()),
  menus: Type.Optional(Type.Integer({ description: 'The id of the item’s menu (0 for none).' })),
  _links: Type.Unknown(),
});

const MenuItemListQuery = Type.Object({
  context: Type.Optional(StringEnum(['view', 'embed', 'edit'] as const)),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: INT_MAX })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX })),
  search: Type.Optional(Type.String()),
  include: Type.Optional(IdList),
  exclude: Type.Optional(IdList),
  menus: Type.Optional(
    Type.Array(Type.Integer({ minimum: 0, maximum: INT_MAX }), { description: 'Only items in these menus.' }),
  ),
  menus_exclude: Type.Optional(
    Type.Array(Type.Integer({ minimum: 0, maximum: INT_MAX }), {
      description: 'Leave out items in these menus.',
    }),
  ),
  menu_order: Type.Optional(Type.Integer({ description: 'Only items at this position in their menu.' })),
  status: Type.Optional(
    Type.Array(StringEnum(['publish', 'future', 'draft', 'pending', 'private', 'any'] as const)),
  ),
  orderby: Type.Optional(
    StringEnum(['menu_order', 'id', 'title', 'include', 'date', 'modified', 'slug'] as const),
  ),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  _fields: Type.Optional(Type.String()),
});

const classList = (options: { description: string }) =>
  Type.Union([Type.Array(Type.String()), Type.String()], options);
const MenuItemWriteBody = Type.Object({
  title: Type.Optional(
    Type.Union([Type.String(), Type.Object({ raw: Type.Optional(Type.String()) })], {
      description: 'The text of the link; a post’s or term’s own title when left empty.',
    }),
  ),
  status: Type.Optional(StringEnum(['publish', 'future', 'draft', 'pending', 'private'] as const)),
  type: Type.Optional(
    StringEnum(itemTypes, {
      description: 'What the item links to: taxonomy, post_type, post_type_archive or custom.',
    }),
  ),
  object: Type.Optional(Type.String({ description: 'The post type or taxonomy the item links to.' })),
  object_id: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: INT_MAX,
      description: 'The id of the post or term the item links to.',
    }),
  ),
  url: Type.Optional(Type.String({ description: 'The address a custom link points to.' })),
  attr_title: Type.Optional(Type.String({ description: 'The link’s title attribute.' })),
  description: Type.Optional(Type.String({ description: 'The item’s description.' })),
  parent: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: INT_MAX,
      description: 'The id of the menu item this one is under (0 for none).',
    }),
  ),
  menu_order: Type.Optional(
    Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'The item’s position in its menu, from 1.' }),
  ),
  target: Type.Optional(
    StringEnum(['_blank', ''] as const, { description: 'The link’s target attribute (_blank or empty).' }),
  ),
  classes: Type.Optional(classList({ description: 'CSS classes of the link.' })),
  xfn: Type.Optional(classList({ description: 'XFN relationships of the link.' })),
  menus: Type.Optional(
    Type.Integer({ minimum: 0, maximum: INT_MAX, description: 'The id of the item’s menu (0 for none).' }),
  ),
  meta: Type.Optional(Type.Unknown()),
});
const ItemQuery = Type.Object({
  context: Type.Optional(StringEnum(['view', 'embed', 'edit'] as const)),
  _fields: Type.Optional(Type.String()),
});

const items = (check: Check) => new MenuItemStore(check.store.db);
const base = (site: Site) => `${site.api}/wp/v2/menu-items`;

/** The post types WordPress 6.1 registers, whose archives an item may name. */
const registeredTypes = new Set([
  ...Object.keys(postTypes),
  'revision',
  'nav_menu_item',
  'custom_css',
  'customize_changeset',
  'oembed_cache',
  'user_request',
  'wp_block',
  'wp_template',
  'wp_template_part',
  'wp_global_styles',
  'wp_navigation',
]);
const typeSingular = (type: string): string | undefined =>
  (postTypes as Record<string, { singular: string }>)[type]?.singular ??
  (type === 'nav_menu_item' ? 'Navigation Menu Item' : undefined);
const taxonomySingular = (taxonomy: string): string | undefined =>
  (taxonomyObjects as Record<string, { singular: string }>)[taxonomy]?.singular ??
  (taxonomy === 'nav_menu' ? 'Navigation Menu' : undefined);

/** sanitize_html_class: percent-encoded octets and anything but letters, digits, `_` and `-` go. */
const htmlClass = (name: string) =>
  name.replace(/%[a-fA-F0-9][a-fA-F0-9]/g, '').replace(/[^A-Za-z0-9_-]/g, '');
/** Classes and XFN are kept as WordPress keeps them: the list joined by spaces, then split again. */
const classesOf = (value: string[] | string) =>
  (Array.isArray(value) ? value.join(' ') : value.split(/[\s,]+/).join(' ')).split(' ').map(htmlClass);

/** wp_setup_nav_menu_item: what the item shows, from the post or term it links to. */
async function resolve(store: ContentStore, item: MenuItemRow, site: Site) {
  let title = item.title;
  let url: string | false = item.url;
  let typeLabel = 'Custom Link';
  let invalid = false;
  let objectLink: Record<string, unknown> | undefined;
  if (item.type === 'post_type') {
    const label = typeSingular(item.object);
    typeLabel = label ?? item.object;
    invalid = label === undefined;
    const post = validId(item.object_id) ? await store.findPost(item.object_id) : undefined;
    if (post) {
      if (post.status === 'trash') invalid = true;
      const parent =
        post.type === 'attachment' && post.parent ? await store.findPost(post.parent) : undefined;
      url = post.type === 'attachment' ? attachmentLink(post, parent, site) : permalink(post, site);
      if (title === '') title = post.title === '' ? `#${item.object_id} (no title)` : post.title;
      objectLink = {
        href: `${site.api}/wp/v2/${restBase(post.type)}/${post.id}`,
        post_type: post.type,
        embeddable: true,
      };
    } else {
      url = '';
      invalid = true;
      if (title === '') title = `#${item.object_id} (no title)`;
    }
  } else if (item.type === 'taxonomy') {
    const label = taxonomySingular(item.object);
    typeLabel = label ?? item.object;
    invalid = label === undefined;
    const term = await new MenuItemStore(store.db).termOf(item.object_id);
    if (term && term.taxonomy === item.object) {
      url =
        term.taxonomy === 'category'
          ? `${site.url}/category/${term.slug}/`
          : term.taxonomy === 'post_tag'
            ? `${site.url}/tag/${term.slug}/`
            : `${site.url}/?taxonomy=${term.taxonomy}&term=${term.slug}`;
      if (title === '') title = term.name;
      const rest =
        term.taxonomy === 'category' ? 'categories' : term.taxonomy === 'post_tag' ? 'tags' : 'menus';
      objectLink = {
        href: `${site.api}/wp/v2/${rest}/${term.id}`,
        taxonomy: term.taxonomy,
        embeddable: true,
      };
    } else {
      url = '';
      invalid = true;
      if (title === '') title = `#${item.object_id} (no title)`;
    }
  } else if (item.type === 'post_type_archive') {
    typeLabel = 'Post Type Archive';
    const known = registeredTypes.has(item.object);
    invalid = !known;
    if (title === '' && known) title = item.object === 'page' ? 'Page Archives' : 'Post Archives';
    // Of the types here only posts have an archive: the home page while it lists them.
    url = item.object === 'post' ? site.url : false;
  }
  return { title, url, typeLabel, invalid, objectLink };
}

async function renderItem(call: Check & { site: Site }, item: MenuItemRow, context: string) {
  const { site } = call;
  const shown = await resolve(call.store, item, site);
  const edit = context === 'edit';
  const self = `${base(site)}/${item.id}`;
  const links: Record<string, unknown> = {
    self: [{ href: self }],
    collection: [{ href: base(site) }],
    about: [{ href: `${site.api}/wp/v2/types/nav_menu_item` }],
    'wp:term': [{ taxonomy: 'nav_menu', embeddable: true, href: `${site.api}/wp/v2/menus?post=${item.id}` }],
    ...(shown.objectLink ? { 'wp:menu-item-object': [shown.objectLink] } : {}),
  };
  // get_available_actions in edit context: publishing and the menus taxonomy's create/assign.
  if (edit && canEditMenus(call.me))
    for (const rel of ['action-publish', 'action-create-menus', 'action-assign-menus'])
      links[`wp:${rel}`] = [{ href: self }];
  if (edit && can(call.me, 'unfiltered_html')) links['wp:action-unfiltered-html'] = [{ href: self }];
  links.curies = curies;
  const wordsOf = (text: string) => text.trim().split(/\s+/).filter(Boolean);
  const description = wordsOf(item.description);
  return {
    id: item.id,
    title: { ...(edit ? { raw: shown.title } : {}), rendered: texturize(shown.title) },
    status: item.status,
    url: shown.url,
    attr_title: item.attr_title,
    description: description.slice(0, 200).join(' ') + (description.length > 200 ? '&hellip;' : ''),
    type: item.type,
    type_label: shown.typeLabel,
    object: item.object,
    object_id: item.object_id,
    parent: item.parent,
    menu_order: item.menu_order,
    target: item.target,
    classes: item.classes.length ? item.classes : [''],
    xfn: item.xfn.length ? item.xfn : [''],
    invalid: shown.invalid,
    ...(context === 'embed' ? {} : { meta: [], menus: item.menu_id }),
    _links: links,
  };
}

const invalidItem = () => restError(404, 'rest_post_invalid_id', 'Invalid post ID.');

async function findItem(check: Check) {
  const id = Number(check.params.id);
  const item = validId(id) ? await items(check).find(id) : undefined;
  if (!item) throw invalidItem();
  return item;
}

/** prepare_item_for_database: the stored item with the request's fields, checked as core checks them. */
async function prepare(call: Call, existing: MenuItemRow | undefined): Promise<MenuItemFields> {
  const body = call.body as Record<string, unknown>;
  const item: MenuItemFields = existing
    ? { ...existing, menu_order: existing.menu_order === 0 ? 1 : existing.menu_order }
    : {
        menu_id: 0,
        title: '',
        status: 'publish',
        type: 'custom',
        object: '',
        object_id: 0,
        url: '',
        attr_title: '',
        description: '',
        parent: 0,
        menu_order: 1,
        target: '',
        classes: [],
        xfn: [],
      };
  if (existing) item.title = (await resolve(call.store, existing, call.site)).title;
  for (const key of [
    'object_id',
    'object',
    'parent',
    'menu_order',
    'type',
    'url',
    'description',
    'attr_title',
    'target',
  ] as const)
    if (body[key] !== undefined) (item as Record<string, unknown>)[key] = body[key];
  if (body.status !== undefined) item.status = body.status === 'publish' ? 'publish' : 'draft';
  if (body.classes !== undefined) item.classes = classesOf(body.classes as string[] | string);
  if (body.xfn !== undefined) item.xfn = classesOf(body.xfn as string[] | string);
  if (body.menus) item.menu_id = body.menus as number;
  if (typeof body.title === 'string') item.title = body.title;
  else if (body.title && typeof body.title === 'object' && (body.title as { raw?: string }).raw)
    item.title = (body.title as { raw: string }).raw;
  if (!item.object && item.type === 'taxonomy') {
    const term = await items(call).termOf(item.object_id);
    if (!term) throw restError(400, 'rest_term_invalid_id', 'Invalid term ID.');
    item.object = term.taxonomy;
  } else if (!item.object && item.type === 'post_type') {
    const post = validId(item.object_id) ? await call.store.findPost(item.object_id) : undefined;
    if (!post) throw restError(400, 'rest_post_invalid_id', 'Invalid post ID.');
    item.object = post.type;
  }
  if (item.type === 'post_type_archive' && !registeredTypes.has(item.object))
    throw restError(400, 'rest_post_invalid_type', 'Invalid post type.');
  if (item.type === 'custom' && item.title === '')
    throw restError(400, 'rest_title_required', 'The title is required when using a custom menu item type.');
  if (item.type === 'custom' && !item.url)
    throw restError(400, 'rest_url_required', 'The url is required when using a custom menu item type.');
  if (item.menu_id && !(await new MenuStore(call.store.db).find(item.menu_id)))
    throw restError(400, 'invalid_menu_id', 'Invalid menu ID.');
  if (!item.menu_id) item.menu_order = 1;
  if (item.type === 'custom') item.url = item.url.trim();
  else {
    item.url = '';
    // A title equal to the object's own is not kept: the item follows the object's title.
    const own = await resolve(call.store, { ...item, id: 0, title: '' }, call.site);
    if (item.title === own.title) item.title = '';
  }
  return item;
}

async function list(call: Call) {
  const { query: q, request, reply } = call;
  const perPage = Number(q.per_page ?? 100);
  const page = Number(q.page ?? 1);
  const statuses = (q.status as string[] | undefined) ?? ['publish'];
  if (statuses.some((s) => s !== 'publish') && !canEditMenus(call.me))
    throw restError(400, 'rest_invalid_param', 'Invalid parameter(s): status', {
      status: 'Status is forbidden.',
    });
  const orderby = String(q.orderby ?? 'menu_order');
  const { rows, total } = await items(call).list({
    menus: q.menus as number[] | undefined,
    menusExclude: q.menus_exclude as number[] | undefined,
    include: q.include as number[] | undefined,
    exclude: q.exclude as number[] | undefined,
    search: q.search as string | undefined,
    statuses: statuses.includes('any') ? ['publish', 'draft'] : statuses,
    menuOrder: q.menu_order as number | undefined,
    orderby: (['id', 'title', 'include'].includes(orderby) ? orderby : 'menu_order') as 'id',
    order: q.order === 'desc' ? 'desc' : 'asc',
    limit: perPage,
    offset: q.offset === undefined ? (page - 1) * perPage : Number(q.offset),
  });
  const totalPages = Math.ceil(total / perPage);
  paginate(request, reply, total, page, totalPages, 'rest_post_invalid_page_number', true, [
    'menus',
    'menus_exclude',
    'include',
    'exclude',
    'status',
  ]);
  const fields = fieldList(q._fields as string | undefined);
  sendFields(reply, fields);
  const context = String(q.context ?? 'view');
  return Promise.all(
    rows.map(async (item) => pickItemFields(request, await renderItem(call, item, context), fields, true)),
  );
}

export const menuItemsResource = defineResource({
  name: 'menu-items',
  schema: itemSchema('nav_menu_item', MenuItemSchema),
  routes: [
    {
      path: '/wp/v2/menu-items',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'List menu items (contributors and up; menus=<id> for one menu)',
          querystring: MenuItemListQuery,
          response: Type.Array(MenuItemSchema),
          check({ me, context }) {
            if (context === 'edit' && !canEditMenus(me))
              throw refused(
                !!me,
                'rest_forbidden_context',
                'Sorry, you are not allowed to edit posts in this post type.',
              );
            checkMenuReader(me, 'menu items');
          },
          handle: list,
        },
        {
          methods: ['POST'],
          summary: 'Add a menu item (administrators)',
          body: MenuItemWriteBody,
          response: MenuItemSchema,
          status: 201,
          check({ me }) {
            if (!canEditMenus(me))
              throw refused(
                !!me,
                'rest_cannot_create',
                'Sorry, you are not allowed to create posts as this user.',
              );
          },
          async handle(call) {
            const id = await items(call).create(await prepare(call, undefined));
            call.reply.header('location', `${base(call.site)}/${id}`);
            return renderItem(call, (await items(call).find(id)) as MenuItemRow, 'edit');
          },
        },
      ],
    },
    {
      path: '/wp/v2/menu-items/(?P<id>[\\d]+)',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Read a menu item (contributors and up)',
          querystring: ItemQuery,
          response: MenuItemSchema,
          async check(check) {
            const item = await findItem(check);
            if (check.context === 'edit' && !canEditMenus(check.me))
              throw refused(
                !!check.me,
                'rest_forbidden_context',
                'Sorry, you are not allowed to edit this post.',
              );
            if (item.status !== 'publish' && !canEditMenus(check.me))
              throw refused(!!check.me, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
            checkMenuReader(check.me, 'menu items');
          },
          async handle(call) {
            const fields = fieldList(call.query._fields as string | undefined);
            sendFields(call.reply, fields);
            return pickItemFields(
              call.request,
              await renderItem(call, await findItem(call), call.context),
              fields,
            );
          },
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: 'Update a menu item (administrators)',
          body: Type.Partial(MenuItemWriteBody),
          response: MenuItemSchema,
          async check(check) {
            await findItem(check);
            if (!canEditMenus(check.me))
              throw refused(!!check.me, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
          },
          async handle(call) {
            const existing = await findItem(call);
            await items(call).update(existing.id, await prepare(call, existing));
            return renderItem(call, (await items(call).find(existing.id)) as MenuItemRow, 'edit');
          },
        },
        {
          methods: ['DELETE'],
          summary: 'Delete a menu item (administrators; force=true: items have no trash)',
          querystring: ForceQuery,
          body: Type.Optional(ForceQuery) as unknown as typeof ForceQuery,
          response: Type.Object({ deleted: Type.Boolean(), previous: Type.Omit(MenuItemSchema, ['_links']) }),
          async check(check) {
            await findItem(check);
            if (!canEditMenus(check.me))
              throw refused(
                !!check.me,
                'rest_cannot_delete',
                'Sorry, you are not allowed to delete this post.',
              );
          },
          async handle(call) {
            const item = await findItem(call);
            const force = (call.body as { force?: string | boolean }).force ?? call.query.force;
            if (!isTrue(force as string | boolean | undefined))
              throw restError(
                501,
                'rest_trash_not_supported',
                "Menu items do not support trashing. Set 'force=true' to delete.",
              );
            const previous = withoutLinks(await renderItem(call, item, 'view'));
            await items(call).delete(item.id);
            return { deleted: true, previous };
          },
        },
      ],
    },
  ],
});
