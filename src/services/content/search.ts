import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../platform/database.js';
import { caller, paginate, siteOf } from './http.js';
import { likePattern } from './like.js';
import { responses, StringEnum } from './schemas.js';

const INT_MAX = 2_147_483_647;
const IdList = Type.Array(Type.Integer({ minimum: 0, maximum: INT_MAX }));
export const SearchQuery = Type.Object({
  context: Type.Optional(StringEnum(['view', 'embed'] as const, { default: 'view' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: INT_MAX, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  search: Type.Optional(Type.String()),
  type: Type.Optional(StringEnum(['post', 'term', 'post-format'] as const, { default: 'post' })),
  subtype: Type.Optional(
    Type.Array(StringEnum(['any', 'post', 'page', 'category', 'post_tag'] as const), { default: ['any'] }),
  ),
  exclude: Type.Optional(IdList),
  include: Type.Optional(IdList),
});

const SearchResult = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  url: Type.String(),
  type: Type.String(),
  subtype: Type.Optional(Type.String()),
  // Optional as subtype is, so the serializer keeps core's key order (it writes required keys first).
  _links: Type.Optional(
    Type.Record(Type.String(), Type.Array(Type.Object({}, { additionalProperties: true }))),
  ),
});

interface Hit {
  id: number;
  title: string;
  slug: string;
  subtype: string;
  total: number;
}

/**
 * Published posts and pages matching the words, most relevant first: title
 * matches, then newest. The one place `/search` reads posts, so a new post type changes only `typeOf`.
 */
async function searchPosts(
  db: Database,
  filter: {
    search?: string;
    /** As WP_Query's parse_search: a visitor who is not logged in never finds password-protected posts. */
    loggedIn?: boolean;
    subtypes: string[];
    include?: number[];
    exclude?: number[];
    limit: number;
    offset: number;
  },
) {
  const typeOf = 'p.type';
  const params: unknown[] = [filter.subtypes];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = [`p.status = 'publish'`, `${typeOf} = ANY($1::text[])`];
  let rank = '';
  if (filter.search) {
    const pattern = add(likePattern(filter.search));
    where.push(`(p.title ILIKE ${pattern} OR p.content ILIKE ${pattern} OR p.excerpt ILIKE ${pattern})`);
    rank = `(p.title ILIKE ${pattern}) DESC, `;
    if (!filter.loggedIn) where.push(`p.password = ''`);
  }
  if (filter.include?.length) where.push(`p.id = ANY(${add(filter.include)}::int[])`);
  if (filter.exclude?.length) where.push(`NOT (p.id = ANY(${add(filter.exclude)}::int[]))`);
  const { rows } = await db.query<Hit>(
    `SELECT p.id, p.title, p.slug, ${typeOf} AS subtype, count(*) OVER ()::int AS total FROM content.posts p
     WHERE ${where.join(' AND ')} ORDER BY ${rank}p.date DESC, p.id DESC
     LIMIT ${add(filter.limit)} OFFSET ${add(filter.offset)}`,
    params,
  );
  return rows;
}

async function searchTerms(
  db: Database,
  filter: {
    search?: string;
    subtypes: string[];
    include?: number[];
    exclude?: number[];
    limit: number;
    offset: number;
  },
) {
  const params: unknown[] = [filter.subtypes];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = ['t.taxonomy = ANY($1::text[])'];
  if (filter.search) where.push(`t.name ILIKE ${add(likePattern(filter.search))}`);
  if (filter.include?.length) where.push(`t.id = ANY(${add(filter.include)}::int[])`);
  if (filter.exclude?.length) where.push(`NOT (t.id = ANY(${add(filter.exclude)}::int[]))`);
  const { rows } = await db.query<Hit>(
    `SELECT t.id, t.name AS title, t.slug, t.taxonomy AS subtype, count(*) OVER ()::int AS total
     FROM content.terms t WHERE ${where.join(' AND ')} ORDER BY t.name, t.id
     LIMIT ${add(filter.limit)} OFFSET ${add(filter.offset)}`,
    params,
  );
  return rows;
}

/** `GET /wp/v2/search`: core's search controller over posts (type=post) and terms (type=term). */
export function searchRoutes(db: Database): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/wp-json/wp/v2/search',
      {
        schema: {
          tags: ['site'],
          summary: 'Search published posts and pages (type=post) or terms (type=term)',
          querystring: SearchQuery,
          response: responses(Type.Array(SearchResult)),
        },
      },
      async (request, reply) => {
        const q = request.query;
        const type = q.type ?? 'post';
        const perPage = q.per_page ?? 10;
        const page = q.page ?? 1;
        const handled = type === 'term' ? ['category', 'post_tag'] : type === 'post' ? ['post', 'page'] : [];
        const asked = q.subtype ?? ['any'];
        // 'any' means every subtype of the type; others not of this type are dropped, as core does.
        const subtypes = asked.includes('any') ? handled : asked.filter((s) => handled.includes(s));
        const filter = {
          search: q.search,
          loggedIn: caller(request) !== undefined,
          subtypes,
          include: q.include,
          exclude: q.exclude,
          limit: perPage,
          offset: (page - 1) * perPage,
        };
        const hits =
          subtypes.length === 0
            ? []
            : type === 'term'
              ? await searchTerms(db, filter)
              : await searchPosts(db, filter);
        let total = hits[0]?.total ?? 0;
        // Past the end, core's post search answers 200 [] with a total of 0 (WP_Query counts nothing on an empty
        // page); its term search counts separately, so a term page past the end is 400.
        if (hits.length === 0 && page > 1 && subtypes.length && type === 'term') {
          const all =
            type === 'term'
              ? await searchTerms(db, { ...filter, offset: 0, limit: 1 })
              : await searchPosts(db, { ...filter, offset: 0, limit: 1 });
          total = all[0]?.total ?? 0;
        }
        const pages = Math.ceil(total / perPage);
        paginate(request, reply, total, page, pages, 'rest_search_invalid_page_number', false);
        const site = siteOf(request);
        return hits.map((hit) => {
          const term = type === 'term';
          const route = term ? (hit.subtype === 'category' ? 'categories' : 'tags') : `${hit.subtype}s`;
          const url = term
            ? `${site.url}/${hit.subtype === 'category' ? 'category' : 'tag'}/${hit.slug}/`
            : `${site.url}/${hit.slug}/`;
          const _links = {
            self: [{ embeddable: true, href: `${site.api}/wp/v2/${route}/${hit.id}` }],
            about: [{ href: `${site.api}/wp/v2/${term ? 'taxonomies' : 'types'}/${hit.subtype}` }],
            collection: [{ href: `${site.api}/wp/v2/search` }],
          };
          // As core's term handler: a term's type is its taxonomy, and it has no subtype.
          if (term) return { id: hit.id, title: hit.title, url, type: hit.subtype, _links };
          return { id: hit.id, title: hit.title, url, type, subtype: hit.subtype, _links };
        });
      },
    );
  };
}
