import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { publicOrigin } from '../../platform/request.js';

/** Shared by the route modules: the typed app, pagination and the two resource words. */
export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

const MAX_PER_PAGE = 200;

export function page(query: { page?: number; per_page?: number }) {
  const perPage = Math.min(query.per_page ?? 20, MAX_PER_PAGE);
  const current = query.page ?? 1;
  return { page: current, perPage, offset: (current - 1) * perPage };
}

/** `links.pages` with first/prev/next/last where they apply; `{}` when everything fits on one page. */
export function pageLinks(request: FastifyRequest, total: number, current: number, perPage: number) {
  const last = Math.max(1, Math.ceil(total / perPage));
  const url = new URL(request.url, publicOrigin(request));
  const at = (n: number) => {
    url.searchParams.set('page', String(n));
    url.searchParams.set('per_page', String(perPage));
    return url.toString();
  };
  const pages: Record<string, string> = {};
  if (current > 1) {
    pages.first = at(1);
    pages.prev = at(Math.min(current - 1, last));
  }
  if (current < last) {
    pages.next = at(current + 1);
    pages.last = at(last);
  }
  return Object.keys(pages).length ? { pages } : {};
}

/** One page of an in-memory list, with its links and total. */
export function paginated<T>(
  request: FastifyRequest,
  items: T[],
  query: { page?: number; per_page?: number },
) {
  const p = page(query);
  return {
    items: items.slice(p.offset, p.offset + p.perPage),
    links: pageLinks(request, items.length, p.page, p.perPage),
    meta: { total: items.length },
  };
}

/** A page window for a store's list query: the rows from `offset`, at most `limit` of them. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/**
 * A list route's answer for a list paged in SQL: `{ [key]: rows.map(present), links, meta: { total } }`, the page
 * and per_page read from the request's query. `fetch` runs the store's query for one window and returns the rows
 * with the total count, e.g.
 * `pagedList(request, 'snapshots', (w) => listSnapshots(db, { ...w, type }), presentSnapshot)`.
 */
export async function pagedList<K extends string, R, T>(
  request: FastifyRequest,
  key: K,
  fetch: (window: PageWindow) => Promise<{ rows: R[]; total: number }>,
  present: (row: R) => T | Promise<T>,
): Promise<{ [P in K]: T[] } & { links: ReturnType<typeof pageLinks>; meta: { total: number } }> {
  const p = page(request.query as { page?: number; per_page?: number });
  const { rows, total } = await fetch({ limit: p.perPage, offset: p.offset });
  const items: T[] = [];
  for (const row of rows) items.push(await present(row));
  return {
    [key]: items,
    links: pageLinks(request, total, p.page, p.perPage),
    meta: { total },
  } as { [P in K]: T[] } & { links: ReturnType<typeof pageLinks>; meta: { total: number } };
}

export const words = [
  { singular: 'machine', plural: 'machines', title: 'Machine', tag: 'machines' },
  { singular: 'droplet', plural: 'droplets', title: 'Droplet', tag: 'droplets (original word)' },
] as const;
export type Word = (typeof words)[number];
