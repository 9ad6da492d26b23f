import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { RestError } from './errors.js';
import { fieldList, paginate, sendFields, siteOf, validId } from './http.js';
import { pickFields, renderTerm } from './render.js';
import {
  CategorySchema,
  IdParams,
  ItemQuery,
  isTrue,
  responses,
  TagSchema,
  TermListQuery,
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
          if (page > totalPages && total > 0)
            throw new RestError(
              400,
              'rest_term_invalid_page_number',
              'The page number requested is larger than the number of pages available.',
            );
          paginate(request, reply, total, page, totalPages);
          const fields = fieldList(q._fields);
          sendFields(reply, fields);
          const site = siteOf(request);
          return rows.map((term) =>
            fields ? pickFields(renderTerm(term, site), fields) : renderTerm(term, site),
          );
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
          if (!term) throw new RestError(404, 'rest_term_invalid', 'Term does not exist.');
          const fields = fieldList(request.query._fields);
          sendFields(reply, fields);
          const body = renderTerm(term, siteOf(request));
          return fields ? pickFields(body, fields) : body;
        },
      );
    }
  };
}
