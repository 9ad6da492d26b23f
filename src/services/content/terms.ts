import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { can, canRead } from './capabilities.js';
import { pickItemFields } from './embed-param.js';
import { refused, restError } from './errors.js';
import { caller, fieldList, paginate, sendFields, siteOf, validId } from './http.js';
import { slugify } from './posts.js';
import { renderTerm } from './render.js';
import {
  CategorySchema,
  IdParams,
  ItemQuery,
  isTrue,
  responses,
  TermListQuery,
  TermWriteBody,
} from './schemas.js';
import type { ContentStore, UserRow } from './store.js';
import { termExists, termNamed, termSlugged, uniqueTermSlug } from './term-store.js';
import { notHierarchical } from './term-writes.js';

// Tags are a resource on the contract (resources/tags/); categories move there next.
const taxonomies = [{ route: 'categories', taxonomy: 'category', schema: CategorySchema }] as const;

/** Edit context on terms needs `edit_terms`, which is manage_categories for categories and tags alike. */
function checkTermContext(user: UserRow | undefined, context: string | undefined, message: string) {
  if (context === 'edit' && !can(user, 'manage_categories'))
    throw refused(!!user, 'rest_forbidden_context', message);
}

/**
 * The terms controller's `post` check: the post must exist (400), be of a type the taxonomy is on (posts only
 * here), and be public or readable by the caller (check_read_terms_permission_for_post), or its terms stay hidden.
 */
export async function termsOfPost(store: ContentStore, user: UserRow | undefined, id: number) {
  const post = validId(id) ? await store.findPost(id) : undefined;
  if (!post) return 'missing';
  return post.type === 'post' && canRead(user, post) ? 'readable' : 'hidden';
}

async function checkTermsOfPost(store: ContentStore, user: UserRow | undefined, id: number) {
  const found = await termsOfPost(store, user, id);
  if (found === 'missing') throw restError(400, 'rest_post_invalid_id', 'Invalid post ID.');
  if (found === 'hidden')
    throw refused(
      !!user,
      'rest_forbidden_context',
      'Sorry, you are not allowed to view terms for this post.',
    );
}

/** Categories and tags: public lists and items, creation (updates and deletes are in term-writes.ts). */
export function termRoutes(store: ContentStore): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    for (const { route, taxonomy, schema } of taxonomies) {
      const base = `/wp-json/wp/v2/${route}`;
      app.get(
        base,
        {
          schema: {
            tags: ['terms'],
            summary: `List ${route}`,
            querystring: TermListQuery,
            response: responses(Type.Array(schema)),
          },
        },
        async (request, reply) => {
          const q = request.query;
          const user = caller(request);
          checkTermContext(user, q.context, 'Sorry, you are not allowed to edit terms in this taxonomy.');
          if (q.post) await checkTermsOfPost(store, user, q.post);
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
          const { rows, total } = await store.listTerms({
            taxonomy,
            search: q.search,
            include: q.include,
            exclude: q.exclude,
            parent: taxonomy === 'category' ? q.parent : undefined,
            slugs: q.slug,
            listOrder,
            hideEmpty: isTrue(q.hide_empty),
            post: q.post !== undefined && validId(q.post) ? q.post : undefined,
            orderby,
            order: q.order ?? 'asc',
            limit: perPage,
            offset: q.offset ?? (page - 1) * perPage,
          });
          const totalPages = Math.ceil(total / perPage);
          paginate(request, reply, total, page, totalPages);
          const fields = fieldList(q._fields);
          const context = q.context === 'embed' ? 'embed' : 'view';
          // The embed context has fewer fields than the schema: serialized as they are, like `_fields`.
          sendFields(reply, context === 'embed' ? ['embed'] : fields);
          const site = siteOf(request);
          return rows.map((term) => pickItemFields(request, renderTerm(term, site, context), fields, true));
        },
      );

      app.post(
        base,
        {
          schema: {
            tags: ['terms'],
            summary: `Create one of the ${route} (editors and administrators)`,
            body: TermWriteBody,
            response: responses(schema, 201),
          },
        },
        async (request, reply) => {
          const user = caller(request);
          // As core: categories need edit_terms (manage_categories), tags only assign_terms (edit_posts).
          if (!can(user, taxonomy === 'category' ? 'manage_categories' : 'edit_posts'))
            throw refused(
              !!user,
              'rest_cannot_create',
              'Sorry, you are not allowed to create terms in this taxonomy.',
            );
          const body = request.body;
          const name = body.name.trim();
          if (!name) throw restError(400, 'empty_term_name', 'A name is required for this term.');
          if (body.parent !== undefined && taxonomy !== 'category') throw notHierarchical();
          const parent = body.parent ?? 0;
          if (parent && !(await store.findTerm(taxonomy, parent)))
            throw restError(400, 'rest_term_invalid', 'Parent term does not exist.');
          const existing = await termNamed(store.db, taxonomy, name, parent);
          if (existing !== undefined) throw termExists(existing, taxonomy === 'category' && parent > 0);
          const given = body.slug ? slugify(body.slug) : '';
          if (given && (await termSlugged(store.db, taxonomy, given)) !== undefined)
            throw termExists(await termSlugged(store.db, taxonomy, given));
          const slug = given || (await uniqueTermSlug(store.db, taxonomy, slugify(name) || 'term'));
          const id = await store.createTerm({
            taxonomy,
            name,
            slug,
            description: body.description ?? '',
            parent,
          });
          if (id === undefined) throw termExists(await termSlugged(store.db, taxonomy, slug));
          const term = await store.findTerm(taxonomy, id);
          reply.status(201).header('location', `${siteOf(request).api}/wp/v2/${route}/${id}`);
          return renderTerm(term as NonNullable<typeof term>, siteOf(request));
        },
      );

      app.get(
        `${base}/:id(^\\d+$)`,
        {
          schema: {
            tags: ['terms'],
            summary: `Read one of the ${route}`,
            params: IdParams,
            querystring: ItemQuery,
            response: responses(schema),
          },
        },
        async (request, reply) => {
          const id = request.params.id;
          const term = validId(id) ? await store.findTerm(taxonomy, id) : undefined;
          if (!term) throw restError(404, 'rest_term_invalid', 'Term does not exist.');
          checkTermContext(
            caller(request),
            request.query.context,
            'Sorry, you are not allowed to edit this term.',
          );
          const fields = fieldList(request.query._fields);
          const context = request.query.context === 'embed' ? 'embed' : 'view';
          sendFields(reply, context === 'embed' ? ['embed'] : fields);
          const body = renderTerm(term, siteOf(request), context);
          return pickItemFields(request, body, fields);
        },
      );
    }
  };
}
