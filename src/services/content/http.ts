import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf, publicOrigin } from '../../platform/request.js';
import { restError } from './errors.js';
import type { Site } from './site.js';
import type { UserRow } from './store.js';

/** The authenticated caller of this request (set by the authentication hook), if any. */
export const caller = (request: FastifyRequest) => callerOf<UserRow>(request);
export const setCaller = (request: FastifyRequest, user: UserRow) => {
  request.caller = user;
};

export function siteOf(request: FastifyRequest): Site {
  const url = publicOrigin(request);
  return { url, api: `${url}/wp-json` };
}

/** Ids beyond int4 cannot exist; they are answered as unknown ids rather than reaching SQL. */
export const validId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

export const fieldList = (fields: string | undefined) =>
  fields
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean);

/** `_fields` answers only some fields, so the full response schema cannot serialize it. */
export function sendFields(reply: FastifyReply, fields: string[] | undefined) {
  if (fields?.length)
    reply.type('application/json; charset=utf-8').serializer((payload) => JSON.stringify(payload));
}

/**
 * X-WP-Total, X-WP-TotalPages and the rel=prev/next links of a collection page; a page past the last one is
 * refused with the collection's own `rest_<kind>_invalid_page_number` when given one (posts, search), as
 * WordPress does; users and terms answer it with an empty list.
 */
export function paginate(
  request: FastifyRequest,
  reply: FastifyReply,
  total: number,
  page: number,
  totalPages: number,
  invalidPageCode?: string,
  /** Search's controller links page-1 as `prev` whatever the last page is; the others point at the last page. */
  clampPrev = true,
  /** Parameters core sanitizes into lists before it links pages (`menus=16` comes back as `menus[0]=16`). */
  listParams: readonly string[] = [],
) {
  if (invalidPageCode && page > totalPages && total > 0) {
    throw restError(
      400,
      invalidPageCode,
      'The page number requested is larger than the number of pages available.',
    );
  }
  reply.header('x-wp-total', String(total));
  reply.header('x-wp-totalpages', String(totalPages));
  const site = siteOf(request);
  const [path, search = ''] = request.url.split('?', 2);
  const pageUrl = (n: number) => {
    // PHP rebuilds the query from its parsed arrays, so `slug[]=a&slug[]=b` comes back numbered: `slug[0]`, `slug[1]`.
    const params = new URLSearchParams();
    const counts = new Map<string, number>();
    for (const [key, value] of new URLSearchParams(search)) {
      if (listParams.includes(key))
        for (const [i, item] of value.split(',').filter(Boolean).entries())
          params.append(`${key}[${i}]`, item);
      else if (!key.endsWith('[]')) params.append(key, value);
      else {
        const i = counts.get(key) ?? 0;
        counts.set(key, i + 1);
        params.append(`${key.slice(0, -2)}[${i}]`, value);
      }
    }
    params.set('page', String(n));
    // add_query_arg writes a parameter without a value bare (`&_embed&page=2`).
    return `${site.url}${path}?${params.toString().replace(/=(&|$)/g, '$1')}`;
  };
  const links: string[] = [];
  if (page > 1 && (page - 1 <= totalPages || !clampPrev)) links.push(`<${pageUrl(page - 1)}>; rel="prev"`);
  else if (page > 1 && totalPages > 0) links.push(`<${pageUrl(totalPages)}>; rel="prev"`);
  if (page < totalPages) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
  if (links.length) reply.header('link', links.join(', '));
}
