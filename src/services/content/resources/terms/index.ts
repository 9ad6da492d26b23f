import { Type } from '@sinclair/typebox';
import { can, canRead } from '../../capabilities.js';
import { pickItemFields } from '../../embed-param.js';
import { refused, restError } from '../../errors.js';
import { fieldList, paginate, sendFields, validId } from '../../http.js';
import { slugify } from '../../post-write.js';
import { renderTerm, withoutLinks } from '../../render.js';
import { itemSchema } from '../../route-spec.js';
import {
  CategorySchema,
  ForceQuery,
  ItemQuery,
  isTrue,
  TagSchema,
  TermListQuery,
  TermWriteBody,
} from '../../schemas.js';
import type { ContentStore, TermRow, UserRow } from '../../store.js';
import {
  deleteTerm,
  termExists,
  termNamed,
  termSlugged,
  uniqueTermSlug,
  updateTerm,
} from '../../term-store.js';
import { type Call, type Check, defineResource, type Resource } from '../contract.js';

export const TermUpdateBody = Type.Partial(TermWriteBody);

const notHierarchical = () =>
  restError(400, 'rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.');

/**
 * The terms controller's `post` check: the post must exist (400), be of a type the taxonomy is on (posts only
 * here), and be public or readable by the caller (check_read_terms_permission_for_post), or its terms stay hidden.
 */
async function termsOfPost(store: ContentStore, user: UserRow | undefined, id: number) {
  const post = validId(id) ? await store.findPost(id) : undefined;
  if (!post) return 'missing';
  return post.type === 'post' && canRead(user, post) ? 'readable' : 'hidden';
}

/** A taxonomy as data: what WP_REST_Terms_Controller needs to know of it. */
export interface Taxonomy {
  taxonomy: 'category' | 'post_tag';
  /** Its REST base, `/wp/v2/<rest>`. */
  rest: string;
  /** The schema's title (`tag`). */
  title: string;
  hierarchical: boolean;
  /** `assign_terms` creates terms in a flat taxonomy, `edit_terms` in a hierarchical one (core's rule). */
  createCapability: string;
  /** `edit_terms`, `delete_terms`: manage_categories for both of core's taxonomies. */
  manageCapability: string;
  /** The taxonomy's default term (`default_category`), which map_meta_cap never lets anyone delete. */
  defaultTerm?: number;
}

/** WP_REST_Terms_Controller for one taxonomy: its list, creation, reads, updates and deletes. */
export function termResource(tax: Taxonomy): Resource {
  const schema = tax.hierarchical ? CategorySchema : TagSchema;
  const may = (check: Check, capability: string) => can(check.me, capability);

  /** Edit context needs edit_terms. */
  const checkContext = (check: Check, message: string) => {
    if (check.context === 'edit' && !may(check, tax.manageCapability))
      throw refused(!!check.me, 'rest_forbidden_context', message);
  };

  const findTerm = async (check: Check) => {
    const id = Number(check.params.id);
    const term = validId(id) ? await check.store.findTerm(tax.taxonomy, id) : undefined;
    if (!term) throw restError(404, 'rest_term_invalid', 'Term does not exist.');
    return term;
  };

  /** `post=`: the post must exist (400) and be one whose terms the caller may see. */
  const checkPost = async (check: Check) => {
    const id = Number(check.query.post);
    if (!id) return;
    const found = await termsOfPost(check.store, check.me, id);
    if (found === 'missing') throw restError(400, 'rest_post_invalid_id', 'Invalid post ID.');
    if (found === 'hidden')
      throw refused(
        !!check.me,
        'rest_forbidden_context',
        'Sorry, you are not allowed to view terms for this post.',
      );
  };

  async function list(call: Call) {
    const { request, reply, site } = call;
    const q = call.query as {
      [key: string]: unknown;
      per_page?: number;
      page?: number;
      offset?: number;
      include?: number[];
      exclude?: number[];
      slug?: string[];
      post?: number;
      parent?: number;
      orderby?: string;
      order?: 'asc' | 'desc';
    };
    const perPage = q.per_page ?? 10;
    const page = q.page ?? 1;
    // include and include_slugs without their list are no FIELD(): core falls back to the name.
    const orderby =
      q.orderby === 'term_group'
        ? 'id'
        : q.orderby === 'include' || q.orderby === 'include_slugs'
          ? 'name'
          : (q.orderby ?? 'name');
    const listOrder =
      q.orderby === 'include' && q.include?.length
        ? { ids: q.include }
        : q.orderby === 'include_slugs' && q.slug?.length
          ? { slugs: q.slug }
          : undefined;
    const { rows, total } = await call.store.listTerms({
      taxonomy: tax.taxonomy,
      search: q.search as string | undefined,
      include: q.include,
      exclude: q.exclude,
      parent: tax.hierarchical ? q.parent : undefined,
      slugs: q.slug,
      listOrder,
      hideEmpty: isTrue(q.hide_empty as string | boolean | undefined),
      post: q.post !== undefined && validId(q.post) ? q.post : undefined,
      orderby: orderby as 'name',
      order: q.order ?? 'asc',
      limit: perPage,
      offset: q.offset ?? (page - 1) * perPage,
    });
    paginate(request, reply, total, page, Math.ceil(total / perPage));
    const fields = fieldList(q._fields as string | undefined);
    const context = q.context === 'embed' ? 'embed' : 'view';
    // The embed context has fewer fields than the schema: serialized as they are, like `_fields`.
    sendFields(reply, context === 'embed' ? ['embed'] : fields);
    return rows.map((term) => pickItemFields(request, renderTerm(term, site, context), fields, true));
  }

  async function create(call: Call) {
    const body = call.body as { name: string; slug?: string; description?: string; parent?: number };
    const name = body.name.trim();
    if (!name) throw restError(400, 'empty_term_name', 'A name is required for this term.');
    if (body.parent !== undefined && !tax.hierarchical) throw notHierarchical();
    const parent = body.parent ?? 0;
    if (parent && !(await call.store.findTerm(tax.taxonomy, parent)))
      throw restError(400, 'rest_term_invalid', 'Parent term does not exist.');
    const db = call.store.db;
    const existing = await termNamed(db, tax.taxonomy, name, parent);
    if (existing !== undefined) throw termExists(existing, tax.hierarchical && parent > 0);
    const given = body.slug ? slugify(body.slug) : '';
    if (given && (await termSlugged(db, tax.taxonomy, given)) !== undefined)
      throw termExists(await termSlugged(db, tax.taxonomy, given));
    const slug = given || (await uniqueTermSlug(db, tax.taxonomy, slugify(name) || 'term'));
    const id = await call.store.createTerm({
      taxonomy: tax.taxonomy,
      name,
      slug,
      description: body.description ?? '',
      parent,
    });
    if (id === undefined) throw termExists(await termSlugged(db, tax.taxonomy, slug));
    call.reply.header('location', `${call.site.api}/wp/v2/${tax.rest}/${id}`);
    return renderTerm((await call.store.findTerm(tax.taxonomy, id)) as TermRow, call.site);
  }

  async function update(call: Call) {
    const term = await findTerm(call);
    const body = call.body as { name?: string; slug?: string; description?: string; parent?: number };
    const db = call.store.db;
    if (body.parent !== undefined) {
      if (!tax.hierarchical) throw notHierarchical();
      if (body.parent && !(await call.store.findTerm(tax.taxonomy, body.parent)))
        throw restError(400, 'rest_term_invalid', 'Parent term does not exist.');
    }
    const name = body.name?.trim();
    if (name === '') throw restError(400, 'empty_term_name', 'A name is required for this term.');
    const slug = body.slug === undefined ? undefined : slugify(body.slug) || slugify(name ?? term.name);
    if (slug && slug !== term.slug) {
      const holder = await termSlugged(db, tax.taxonomy, slug);
      if (holder !== undefined && holder !== term.id)
        throw restError(400, 'duplicate_term_slug', `The slug “${slug}” is already in use by another term.`);
    }
    await updateTerm(db, term.id, {
      name,
      slug,
      description: body.description,
      parent: body.parent === term.id ? term.parent : body.parent,
    });
    return renderTerm((await call.store.findTerm(tax.taxonomy, term.id)) as TermRow, call.site);
  }

  async function remove(call: Call) {
    const term = await findTerm(call);
    const force = (call.body as { force?: string | boolean }).force ?? call.query.force;
    if (!isTrue(force as string | boolean | undefined))
      throw restError(
        501,
        'rest_trash_not_supported',
        "Terms do not support trashing. Set 'force=true' to delete.",
      );
    const previous = withoutLinks(renderTerm(term, call.site));
    await deleteTerm(call.store.db, tax.taxonomy, term.id, term.parent);
    return { deleted: true, previous };
  }

  return defineResource({
    name: tax.rest,
    openapiTag: 'terms',
    schema: itemSchema(tax.title, schema),
    routes: [
      {
        path: `/wp/v2/${tax.rest}`,
        endpoints: [
          {
            methods: ['GET'],
            summary: `List ${tax.rest}`,
            querystring: TermListQuery,
            response: Type.Array(schema),
            async check(check) {
              checkContext(check, 'Sorry, you are not allowed to edit terms in this taxonomy.');
              await checkPost(check);
            },
            handle: list,
          },
          {
            methods: ['POST'],
            summary: `Create one of the ${tax.rest}`,
            body: TermWriteBody,
            response: schema,
            status: 201,
            check(check) {
              if (!may(check, tax.createCapability))
                throw refused(
                  !!check.me,
                  'rest_cannot_create',
                  'Sorry, you are not allowed to create terms in this taxonomy.',
                );
            },
            handle: create,
          },
        ],
      },
      {
        path: `/wp/v2/${tax.rest}/(?P<id>[\\d]+)`,
        endpoints: [
          {
            methods: ['GET'],
            summary: `Read one of the ${tax.rest}`,
            querystring: ItemQuery,
            response: schema,
            async check(check) {
              await findTerm(check);
              checkContext(check, 'Sorry, you are not allowed to edit this term.');
            },
            async handle(call) {
              const fields = fieldList(call.query._fields as string | undefined);
              const context = call.query.context === 'embed' ? 'embed' : 'view';
              sendFields(call.reply, context === 'embed' ? ['embed'] : fields);
              return pickItemFields(
                call.request,
                renderTerm(await findTerm(call), call.site, context),
                fields,
              );
            },
          },
          {
            methods: ['POST', 'PUT', 'PATCH'],
            summary: `Update one of the ${tax.rest} (editors and administrators)`,
            body: TermUpdateBody,
            response: schema,
            async check(check) {
              await findTerm(check);
              if (!may(check, tax.manageCapability))
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
            summary: `Delete one of the ${tax.rest} (force=true is required: terms have no trash)`,
            querystring: ForceQuery,
            body: Type.Optional(ForceQuery) as unknown as typeof ForceQuery,
            response: Type.Object({ deleted: Type.Boolean(), previous: Type.Omit(schema, ['_links']) }),
            async check(check) {
              const term = await findTerm(check);
              if (!may(check, tax.manageCapability) || term.id === tax.defaultTerm)
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
}
