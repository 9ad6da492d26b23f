import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type EmbedRels, embeddableRels, parseEmbed } from './embed-param.js';

/** Requests whose route embedded its own links (posts and pages batch theirs): the hook leaves them alone. */
export const embeddedByRoute = new WeakSet<FastifyRequest>();

/** Headers that describe the outer request's body or transfer, not the caller. */
const dropped = ['content-length', 'content-type', 'transfer-encoding', 'accept-encoding', 'if-none-match'];

type Json = Record<string, unknown>;

/**
 * `_embed` on every other route (media, comments, search results, terms), as WP_REST_Server::embed_links does it:
 * each embeddable link of each item (only the named relations when `_embed` lists some) is dispatched as a GET
 * by the same caller, in `embed` context unless the link names a context, once per href per answer; what that
 * route answers, error or not, is embedded. A relation whose links all answer empty lists is left out.
 */
export function embedLinkedResources(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (embeddedByRoute.has(request) || typeof payload !== 'string') return payload;
    const rels = parseEmbed((request.query as Json | undefined)?._embed);
    if (!rels || !String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
      return payload;
    let data: unknown;
    try {
      data = JSON.parse(payload);
    } catch {
      return payload;
    }
    const cache = new Map<string, Promise<unknown>>();
    const dispatch = (href: string) => {
      let answer = cache.get(href);
      if (!answer) {
        answer = embedOne(app, request, href);
        cache.set(href, answer);
      }
      return answer;
    };
    let changed = false;
    for (const item of Array.isArray(data) ? data : [data]) {
      if (item && typeof item === 'object' && !Array.isArray(item))
        changed = (await embedInto(item as Json, rels, dispatch)) || changed;
    }
    return changed ? JSON.stringify(data) : payload;
  });
}

async function embedInto(item: Json, rels: EmbedRels, dispatch: (href: string) => Promise<unknown>) {
  const links = item._links as Record<string, { href?: string; embeddable?: boolean }[]> | undefined;
  const embedded: Json = {};
  for (const rel of embeddableRels(links, rels)) {
    const embeds: unknown[] = [];
    for (const link of links?.[rel] ?? [])
      embeds.push(link.embeddable && link.href ? await dispatch(link.href) : []);
    // PHP's array_filter: empty arrays (an empty list, a link not embeddable) do not count.
    if (embeds.some((e) => !(Array.isArray(e) && e.length === 0))) embedded[rel] = embeds;
  }
  if (Object.keys(embedded).length === 0) return false;
  item._embedded = embedded;
  return true;
}

async function embedOne(app: FastifyInstance, request: FastifyRequest, href: string): Promise<unknown> {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return [];
  }
  if (!url.searchParams.has('context')) url.searchParams.set('context', 'embed');
  const headers: Record<string, string | string[] | undefined> = {
    ...request.headers,
    'x-request-id': request.id,
  };
  for (const name of dropped) delete headers[name];
  const answer = await app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers });
  try {
    return answer.json();
  } catch {
    return [];
  }
}
