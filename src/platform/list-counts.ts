import type { Queryable } from './database.js';

export interface PageShape {
  /** Rows the page query returned. */
  rows: number;
  /** Undefined: the query had no LIMIT (and no OFFSET), so the rows are the whole list. */
  limit?: number;
  offset: number;
}

/**
 * The exact total of `FROM … WHERE …` (`from`, with `params`) for a page already read. A page that is not full
 * ends the list, so its total is its offset plus its rows and needs no count; otherwise `counted` when the filter
 * has a maintained count (a count ledger's keys, platform/count-ledger.ts), else one count.
 *
 * Totals are not remembered between requests: keeping them exact across processes needed a version row that
 * every write to the listed tables locked until commit, and concurrent writers deadlocked on it (4 of 156 post
 * creates under 8 connections on PostgreSQL).
 */
export async function listTotal(
  db: Queryable,
  from: string,
  params: unknown[],
  page: PageShape,
  counted?: () => Promise<number>,
): Promise<number> {
  if (page.limit === undefined) return page.rows;
  if (page.rows > 0 && page.rows < page.limit) return page.offset + page.rows;
  if (page.rows === 0 && page.offset === 0) return 0;
  if (counted) return counted();
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params);
  return rows[0]?.n ?? 0;
}
