import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { can } from './capabilities.js';
import { refused, restError } from './errors.js';
import { caller, fieldList, paginate, sendFields, siteOf, validId } from './http.js';
import { slugify } from './posts.js';
import { pickFields, renderTerm } from './render.js';
import {
  CategorySchema,
  IdParams,
  ItemQuery,
  isTrue,
  responses,
  TagSchema,
  TermListQuery,
  TermWriteBody,
} from './schemas.js';
import type { ContentStore } from './store.js';

const taxonomies = [
  { route: 'categories', taxonomy: 'category', schema: CategorySchema },
  { route: 'tags', taxonomy: 'post_tag', schema: TagSchema },
] as const;

/** Categories and tags: public, read-only lists (terms are assigned through posts). */
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
            TermWriteBody,
            response: responses(Type.Array(schema)),
          },
        },
        async (request, reply) => {
          const q = request.query;
          const perPage = q.per_page ?? 10;
          const page = q.page ?? 1;
          const orderby =
            q.orderby === 'include' || q.orderby === 'term_group' ? 'id' : (q.orderby ?? 'name');
          const { rows, total } = await store.listTerms({
            taxonomy,
            search: q.search,
            include: q.include,
            slugs: q.slug,
            hideEmpty: isTrue(q.hide_empty),
            post: q.post !== undefined && validId(q.post) ? q.post : undefined,
            orderby,
            order: q.order ?? 'asc',
            limit: perPage,
            offset: q.offset ?? (page - 1) * perPage,
          });
          const totalPages = Math.ceil(total / perPage);
          paginate(request, reply, total, page, totalPages, 'rest_term_invalid_page_number');
          const fields = fieldList(q._fields);
          sendFields(reply, fields);
          const site = siteOf(request);
          return rows.map((term) =>
            fields ? pickFields(renderTerm(term, site), fields) : renderTerm(term, site),
          );
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
          if (!can(user, 'manage_categories'))
            throw refused(
              !!user,
              'rest_cannot_create',
              'Sorry, you are not allowed to create terms in this taxonomy.',
            );
          const body = request.body;
          const name = body.name.trim();
          const slug = slugify(body.slug || name);
          if (!name || !slug) throw restError(400, 'empty_term_name', 'A name is required for this term.');
          const parent = taxonomy === 'category' ? (body.parent ?? 0) : 0;
          if (parent && !(await store.findTerm(taxonomy, parent)))
            throw restError(400, 'rest_term_invalid', 'Parent term does not exist.');
          const id = await store.createTerm({
            taxonomy,
            name,
            slug,
            description: body.description ?? '',
            parent,
          });
          if (id === undefined)
            throw restError(
              400,
              'term_exists',
              'A term with the name provided already exists in this taxonomy.',
            );
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
          const fields = fieldList(request.query._fields);
          sendFields(reply, fields);
          const body = renderTerm(term, siteOf(request));
          return fields ? pickFields(body, fields) : body;
        },
      );
    }
  };
}
