import { Type } from '@sinclair/typebox';
import { pickItemFields } from '../../embed-param.js';
import { refused, restError } from '../../errors.js';
import { fieldList, paginate, sendFields, validId } from '../../http.js';
import { slugify } from '../../post-write.js';
import { curies, withoutLinks } from '../../render.js';
import { itemSchema } from '../../route-spec.js';
import { ForceQuery, ItemQuery, isTrue, TermListQuery, WpBoolean } from '../../schemas.js';
import type { Site } from '../../site.js';
import { type Call, type Check, defineResource } from '../contract.js';
import { registeredLocations } from '../menu-locations/index.js';
import { canEditMenus, checkMenuReader } from './access.js';
import { type MenuRow, MenuStore } from './store.js';

// WordPress's `/wp/v2/menus` (WP_REST_Menus_Controller, a terms controller for the `nav_menu` taxonomy).

const Links = Type.Unknown();
export const MenuSchema = Type.Object({
  id: Type.Integer(),
  description: Type.String({ description: 'What the menu is for.' }),
  name: Type.String({ description: 'The menu’s name.' }),
  slug: Type.String(),
  meta: Type.Unknown(),
  locations: Type.Array(Type.String(), { description: 'The theme locations showing this menu.' }),
  auto_add: Type.Boolean({ description: 'Whether new top-level pages join this menu.' }),
  _links: Links,
});

const MenuWriteBody = Type.Object({
  name: Type.String({ maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  slug: Type.Optional(Type.String({ maxLength: 200 })),
  meta: Type.Optional(Type.Unknown()),
  locations: Type.Optional(
    Type.Array(Type.String(), {
      description: 'The theme locations showing this menu (none are registered).',
    }),
  ),
  auto_add: Type.Optional(
    Type.Union(WpBoolean.anyOf, { description: 'Whether new top-level pages join this menu.' }),
  ),
  // Not an argument: menus are not hierarchical, and a parent is answered rest_taxonomy_not_hierarchical.
  parent: Type.Optional(Type.Integer()),
});
const MenuUpdateBody = Type.Partial(MenuWriteBody);

const menus = (check: Check) => new MenuStore(check.store.db);
const base = (site: Site) => `${site.api}/wp/v2/menus`;

export function renderMenu(menu: MenuRow, site: Site, context = 'view') {
  const links = {
    self: [{ href: `${base(site)}/${menu.id}` }],
    collection: [{ href: base(site) }],
    about: [{ href: `${site.api}/wp/v2/taxonomies/nav_menu` }],
    'wp:post_type': [{ href: `${site.api}/wp/v2/menu-items?menus=${menu.id}` }],
    curies,
  };
  if (context === 'embed') return { id: menu.id, name: menu.name, slug: menu.slug, _links: links };
  return {
    id: menu.id,
    description: menu.description,
    name: menu.name,
    slug: menu.slug,
    meta: [],
    // No theme location is registered, so a menu is shown in none.
    locations: [] as string[],
    auto_add: menu.auto_add,
    _links: links,
  };
}

const invalidMenu = () => restError(404, 'rest_term_invalid', 'Term does not exist.');

async function findMenu(check: Check) {
  const id = Number(check.params.id);
  const menu = validId(id) ? await menus(check).find(id) : undefined;
  if (!menu) throw invalidMenu();
  return menu;
}

/** Edit context needs edit_terms (edit_theme_options), as the terms controller checks it. */
function checkContext(check: Check, message: string) {
  if (check.context === 'edit' && !canEditMenus(check.me))
    throw refused(!!check.me, 'rest_forbidden_context', message);
}

/** Locations must be ones the theme registered (none are): core's validate_callback of `locations`. */
function checkLocations(locations: unknown) {
  if (!Array.isArray(locations)) return;
  const unknown = locations.find((name) => !registeredLocations.some((l) => l.name === name));
  if (unknown !== undefined)
    throw restError(400, 'rest_invalid_param', 'Invalid parameter(s): locations', {
      locations: 'Invalid menu location.',
    });
}

const notHierarchical = () =>
  restError(400, 'rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.');

function menuExists(name: string, id: number) {
  const error = restError(
    400,
    'menu_exists',
    `The menu name <strong>${name.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</strong> conflicts with another menu name. Please try another.`,
  );
  (error.body as { data: Record<string, unknown> }).data.term_id = id;
  return error;
}

async function list(call: Call) {
  const { query: q, request, reply, site } = call;
  const perPage = Number(q.per_page ?? 10);
  const page = Number(q.page ?? 1);
  const include = q.include as number[] | undefined;
  const slugs = q.slug as string[] | undefined;
  const orderby = String(q.orderby ?? 'name');
  const listOrder =
    orderby === 'include' && include?.length
      ? { ids: include }
      : orderby === 'include_slugs' && slugs?.length
        ? { slugs }
        : undefined;
  const { rows, total } = await menus(call).list({
    search: q.search as string | undefined,
    include,
    exclude: q.exclude as number[] | undefined,
    slugs,
    hideEmpty: isTrue(q.hide_empty as string | boolean | undefined),
    item: q.post === undefined ? undefined : Number(q.post),
    orderby: (['id', 'slug', 'count', 'description'].includes(orderby)
      ? orderby
      : orderby === 'term_group'
        ? 'id'
        : 'name') as 'name',
    order: q.order === 'desc' ? 'desc' : 'asc',
    listOrder,
    limit: perPage,
    offset: q.offset === undefined ? (page - 1) * perPage : Number(q.offset),
  });
  paginate(request, reply, total, page, Math.ceil(total / perPage));
  const fields = fieldList(q._fields as string | undefined);
  const context = q.context === 'embed' ? 'embed' : 'view';
  sendFields(reply, context === 'embed' ? ['embed'] : fields);
  return rows.map((menu) => pickItemFields(request, renderMenu(menu, site, context), fields, true));
}

async function create(call: Call) {
  const body = call.body as {
    name: string;
    description?: string;
    slug?: string;
    auto_add?: boolean | string;
  };
  if (call.body.parent !== undefined) throw notHierarchical();
  checkLocations(call.body.locations);
  const store = menus(call);
  const name = body.name.trim();
  if (!name) throw restError(400, 'empty_term_name', 'A name is required for this term.');
  const existing = await store.named(name);
  if (existing !== undefined) throw menuExists(name, existing);
  // wp_update_nav_menu_object passes no slug on: it is always made from the name.
  const slug = await store.uniqueSlug(slugify(name) || 'menu', 0);
  const id = await store.create({
    name,
    slug,
    description: body.description ?? '',
    auto_add: isTrue(body.auto_add),
  });
  call.reply.header('location', `${base(call.site)}/${id}`);
  return renderMenu((await store.find(id)) as MenuRow, call.site);
}

async function update(call: Call) {
  const menu = await findMenu(call);
  const body = call.body as {
    name?: string;
    description?: string;
    slug?: string;
    auto_add?: boolean | string;
  };
  if (call.body.parent !== undefined) throw notHierarchical();
  checkLocations(call.body.locations);
  const store = menus(call);
  const name = body.name?.trim() ?? menu.name;
  if (name === '') throw restError(400, 'empty_term_name', 'A name is required for this term.');
  const existing = await store.named(name, menu.id);
  if (existing !== undefined) throw menuExists(name, existing);
  // As wp_update_nav_menu_object: the slug follows the name, and a description left out is emptied.
  await store.update(menu.id, {
    name,
    slug: await store.uniqueSlug(slugify(name) || 'menu', menu.id),
    description: body.description ?? '',
    auto_add: body.auto_add === undefined ? undefined : isTrue(body.auto_add),
  });
  return renderMenu((await store.find(menu.id)) as MenuRow, call.site);
}

async function remove(call: Call) {
  const menu = await findMenu(call);
  const force = (call.body as { force?: string | boolean }).force ?? call.query.force;
  if (!isTrue(force as string | boolean | undefined))
    throw restError(
      501,
      'rest_trash_not_supported',
      "Menus do not support trashing. Set 'force=true' to delete.",
    );
  const previous = withoutLinks(renderMenu(menu, call.site));
  await menus(call).delete(menu.id);
  return { deleted: true, previous };
}

export const menusResource = defineResource({
  name: 'menus',
  schema: itemSchema('nav_menu', MenuSchema),
  routes: [
    {
      path: '/wp/v2/menus',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'List menus (contributors and up)',
          querystring: TermListQuery,
          response: Type.Array(MenuSchema),
          async check(check) {
            checkContext(check, 'Sorry, you are not allowed to edit terms in this taxonomy.');
            checkMenuReader(check.me, 'menus');
          },
          handle: list,
        },
        {
          methods: ['POST'],
          summary: 'Create a menu (administrators)',
          body: MenuWriteBody,
          response: MenuSchema,
          status: 201,
          check({ me }) {
            if (!canEditMenus(me))
              throw refused(
                !!me,
                'rest_cannot_create',
                'Sorry, you are not allowed to create terms in this taxonomy.',
              );
          },
          handle: create,
        },
      ],
    },
    {
      path: '/wp/v2/menus/(?P<id>[\\d]+)',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Read a menu (contributors and up)',
          querystring: ItemQuery,
          response: MenuSchema,
          async check(check) {
            await findMenu(check);
            checkContext(check, 'Sorry, you are not allowed to edit this term.');
            checkMenuReader(check.me, 'menus');
          },
          async handle(call) {
            const context = call.query.context === 'embed' ? 'embed' : 'view';
            const fields = fieldList(call.query._fields as string | undefined);
            sendFields(call.reply, context === 'embed' ? ['embed'] : fields);
            return pickItemFields(call.request, renderMenu(await findMenu(call), call.site, context), fields);
          },
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: 'Update a menu (administrators)',
          body: MenuUpdateBody,
          response: MenuSchema,
          async check(check) {
            await findMenu(check);
            if (!canEditMenus(check.me))
              throw refused(
                !!check.me,
                'rest_cannot_update',
                'Sorry, you are not allowed to edit this term.',
              );
          },
          handle: update,
        },
        {
          methods: ['DELETE'],
          summary: 'Delete a menu and its items (administrators; force=true: menus have no trash)',
          querystring: ForceQuery,
          body: Type.Optional(ForceQuery) as unknown as typeof ForceQuery,
          response: Type.Object({ deleted: Type.Boolean(), previous: Type.Omit(MenuSchema, ['_links']) }),
          async check(check) {
            await findMenu(check);
            if (!canEditMenus(check.me))
              throw refused(
                !!check.me,
                'rest_cannot_delete',
                'Sorry, you are not allowed to delete this term.',
              );
          },
          handle: remove,
        },
      ],
    },
  ],
});
