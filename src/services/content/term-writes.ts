import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { can } from './capabilities.js';
import { refused, restError } from './errors.js';
import { caller, siteOf, validId } from './http.js';
import { slugify } from './posts.js';
import { renderTerm, withoutLinks } from './render.js';
import { CategorySchema, ForceQuery, IdParams, isTrue, responses, TermWriteBody } from './schemas.js';
import type { ContentStore, TermRow } from './store.js';
import { deleteTerm, termSlugged, updateTerm } from './term-store.js';

export const TermUpdateBody = Type.Partial(TermWriteBody);
type Taxonomy = 'category' | 'post_tag';

export const notHierarchical = () =>
  restError(400, 'rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.');
const invalidTerm = () => restError(404, 'rest_term_invalid', 'Term does not exist.');

/** The id of the default category, which core never lets anyone delete. */
const DEFAULT_CATEGORY = 1;

/** Updates (POST, PUT, PATCH) and deletes of categories and tags; both need `manage_categories`, as in core. */
export function termWriteRoutes(store: ContentStore): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const taxonomies = [{ route: 'categories', taxonomy: 'category' as Taxonomy, schema: CategorySchema }];

    const find = async (taxonomy: Taxonomy, id: number) => {
      const term = validId(id) ? await store.findTerm(taxonomy, id) : undefined;
      if (!term) throw invalidTerm();
      return term;
    };

    const update = async (request: FastifyRequest, taxonomy: Taxonomy, id: number) => {
      const body = (request.body ?? {}) as Static<typeof TermUpdateBody>;
      const term = await find(taxonomy, id);
      const me = caller(request);
      if (!can(me, 'manage_categories'))
        throw refused(!!me, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');
      if (body.parent !== undefined) {
        if (taxonomy !== 'category') throw notHierarchical();
        if (body.parent && !(await store.findTerm(taxonomy, body.parent)))
          throw restError(400, 'rest_term_invalid', 'Parent term does not exist.');
      }
      const name = body.name?.trim();
      if (name === '') throw restError(400, 'empty_term_name', 'A name is required for this term.');
      const slug = body.slug === undefined ? undefined : slugify(body.slug) || slugify(name ?? term.name);
      if (slug && slug !== term.slug) {
        const holder = await termSlugged(store.db, taxonomy, slug);
        if (holder !== undefined && holder !== term.id)
          throw restError(
            400,
            'duplicate_term_slug',
            `The slug “${slug}” is already in use by another term.`,
          );
      }
      await updateTerm(store.db, term.id, {
        name,
        slug,
        description: body.description,
        parent: body.parent === term.id ? term.parent : body.parent,
      });
      return renderTerm((await store.findTerm(taxonomy, term.id)) as TermRow, siteOf(request));
    };

    for (const { route, taxonomy, schema } of taxonomies) {
      const url = `/wp-json/wp/v2/${route}/:id(^\\d+$)`;
      for (const method of ['POST', 'PUT', 'PATCH'] as const)
        app.route({
          method,
          url,
          schema: {
            tags: ['terms'],
            summary: `Update one of the ${route} (editors and administrators)`,
            params: IdParams,
            body: TermUpdateBody,
            response: responses(schema),
          },
          handler: async (request) => update(request, taxonomy, request.params.id),
        });

      app.delete(
        url,
        {
          schema: {
            tags: ['terms'],
            summary: `Delete one of the ${route} (force=true is required: terms have no trash)`,
            params: IdParams,
            querystring: ForceQuery,
            body: Type.Optional(ForceQuery),
            response: responses(
              Type.Object({ deleted: Type.Boolean(), previous: Type.Omit(schema, ['_links']) }),
            ),
          },
        },
        async (request) => {
          const term = await find(taxonomy, request.params.id);
          const me = caller(request);
          if (!can(me, 'manage_categories') || (taxonomy === 'category' && term.id === DEFAULT_CATEGORY))
            throw refused(!!me, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.');
          if (!isTrue(request.body?.force ?? request.query.force))
            throw restError(
              501,
              'rest_trash_not_supported',
              "Terms do not support trashing. Set 'force=true' to delete.",
            );
          const previous = withoutLinks(renderTerm(term, siteOf(request)));
          await deleteTerm(store.db, taxonomy, term.id, term.parent);
          return { deleted: true, previous };
        },
      );
    }
  };
}
