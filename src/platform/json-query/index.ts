/**
 * The collection query language of json-server 0.17 (lib/server/router/plural.js), step by step: full-text `q`,
 * field filters with `_gte`/`_lte`/`_ne`/`_like`, `_sort`/`_order`, then `_page`/`_limit` or `_start`/`_end`/
 * `_limit`. The options hold what the services using it decided differently.
 */
import { all, type FilterOptions, filterByFields, first, type Query, search } from './filter.js';
import { type Sliced, type SliceOptions, slice } from './paginate.js';
import { sortItems, sortKeys } from './sort.js';

export { QueryError } from './errors.js';
export type { PathSyntax } from './fields.js';
export { all, first, type Query } from './filter.js';
export type { LinkStyle, NumberReading } from './paginate.js';
export { type InvalidPattern, maxPatternLength, maxPatternProgram } from './pattern.js';
export { maxSortKeys } from './sort.js';

export interface QueryOptions extends FilterOptions, SliceOptions {
  /** `json-server`: the first `_sort` and `_order` only, keys as written. `lenient`: repeats joined, spaces trimmed. */
  sortParams: 'json-server' | 'lenient';
}

export type QueryResult = Sliced;

/** json-server's own choices throughout. */
export const jsonServerOptions: QueryOptions = {
  paths: 'lodash',
  invalidPattern: 'reject',
  sortParams: 'json-server',
  numbers: 'json-server',
  links: 'json-server',
};

/**
 * Runs a query over a collection; `url` is the request's full URL (the `Link` header points at it). Throws
 * `QueryError` for a query it refuses (a `_like` pattern it cannot run, with `invalidPattern: 'reject'`).
 */
export function runQuery(
  collection: unknown[],
  query: Query,
  url: string,
  options: QueryOptions,
): QueryResult {
  let items = collection;
  const q = first(query.q);
  if (q) items = search(items, q);
  items = filterByFields(collection, items, query, options);
  const lenient = options.sortParams === 'lenient';
  const sort = lenient ? all(query._sort).join(',') : first(query._sort);
  if (sort) {
    const order = (lenient ? all(query._order).join(',') : first(query._order)) ?? '';
    items = sortItems(items, sortKeys(sort, order, lenient), options.paths);
  }
  return slice(items, query, url, options);
}
