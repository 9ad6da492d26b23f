/**
 * The collection query language of json-server 0.17 (lib/server/router/plural.js), reproduced step by step so
 * existing clients get the same answers: full-text `q`, field filters with `_gte`/`_lte`/`_ne`/`_like`,
 * `_sort`/`_order`, and slicing by `_page`/`_limit` or `_start`/`_end`/`_limit`.
 */

export type Query = Record<string, string | string[] | undefined>;

export interface QueryResult {
  items: unknown[];
  /** Set when the request sliced the collection (`_page`, `_limit` or `_end`): the size before slicing. */
  totalCount?: number;
  /** The `Link` header for `_page` requests (first, prev, next, last), as Express's `res.links` writes it. */
  link?: string;
}

export class QueryError extends Error {
  override name = 'QueryError';
}

const operator = /(_lte|_gte|_ne|_like)$/;
const controlParams = [
  'q',
  '_start',
  '_end',
  '_page',
  '_sort',
  '_order',
  '_limit',
  '_embed',
  '_expand',
  '_delay',
];

const isObjectLike = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** lodash's path syntax: `a.b`, `a[0].b`; a key that exists as written wins over the path reading. */
function pathOf(object: unknown, path: string): string[] {
  if (isObjectLike(object) && Object.hasOwn(object, path)) return [path];
  return path.match(/[^.[\]]+/g) ?? [path];
}

export function getPath(object: unknown, path: string): unknown {
  let current = object;
  for (const key of pathOf(object, path)) {
    if (!isObjectLike(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

function hasPath(object: unknown, path: string): boolean {
  let current = object;
  for (const key of pathOf(object, path)) {
    if (!isObjectLike(current) || !Object.hasOwn(current, key)) return false;
    current = current[key];
  }
  return true;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Whether `value` contains `q` anywhere inside it (lodash mixin `deepQuery`). */
function deepQuery(value: unknown, q: string): boolean {
  if (!value || !q) return false;
  if (Array.isArray(value)) return value.some((v) => deepQuery(v, q));
  if (typeof value === 'object') return Object.values(value).some((v) => deepQuery(v, q));
  return String(value).toLowerCase().includes(q);
}

const isNaNValue = (value: unknown) => typeof value === 'number' && Number.isNaN(value);

/** lodash's `compareAscending`: null, undefined and NaN sort after everything else. */
function compareAscending(value: any, other: any): number {
  if (value === other) return 0;
  const valDefined = value !== undefined;
  const valNull = value === null;
  const valReflexive = !isNaNValue(value);
  const othDefined = other !== undefined;
  const othNull = other === null;
  const othReflexive = !isNaNValue(other);
  if (
    (!othNull && value > other) ||
    (valNull && othDefined && othReflexive) ||
    (!valDefined && othReflexive) ||
    !valReflexive
  ) {
    return 1;
  }
  if (
    (!valNull && value < other) ||
    (othNull && valDefined && valReflexive) ||
    (!othDefined && valReflexive) ||
    !othReflexive
  ) {
    return -1;
  }
  return 0;
}

function sortBy(items: unknown[], sort: string, order: string | undefined): unknown[] {
  const keys = sort.split(',');
  const orders = (order ?? '').split(',').map((o) => o.toLowerCase());
  const rows = items.map((item, index) => ({ item, index, values: keys.map((k) => getPath(item, k)) }));
  rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const result = compareAscending(a.values[i], b.values[i]);
      if (result !== 0) return orders[i] === 'desc' ? -result : result;
    }
    return a.index - b.index;
  });
  return rows.map((row) => row.item);
}

function likePattern(key: string, value: string): RegExp {
  try {
    return new RegExp(value, 'i');
  } catch {
    throw new QueryError(`${key}: not a valid regular expression: ${value}`);
  }
}

function filterBy(items: unknown[], key: string, values: string[]): unknown[] {
  const isDifferent = key.endsWith('_ne');
  const isLike = key.endsWith('_like');
  const isRange = key.endsWith('_lte') || key.endsWith('_gte');
  const path = key.replace(operator, '');
  const patterns = isLike ? values.map((v) => likePattern(key, v)) : [];
  return items.filter((element) => {
    const results = values.map((value: any, i) => {
      const elementValue: any = getPath(element, path);
      if (elementValue === undefined || elementValue === null) return undefined;
      // Loose comparison on purpose: "10" <= 9 compares numbers, "a" <= "b" compares strings, as json-server does.
      if (isRange) return key.endsWith('_gte') ? value <= elementValue : value >= elementValue;
      if (isDifferent) return value !== String(elementValue);
      if (isLike) return patterns[i].test(String(elementValue));
      return value === String(elementValue);
    });
    return results.reduce((a, b) => (isDifferent ? a && b : a || b));
  });
}

interface Page {
  items: unknown[];
  current?: number;
  first?: number;
  prev?: number;
  next?: number;
  last?: number;
}

function getPage(array: unknown[], page: number, perPage: number): Page {
  const start = (page - 1) * perPage;
  const end = page * perPage;
  const result: Page = { items: array.slice(start, end) };
  if (result.items.length === 0) return result;
  if (page > 1) result.prev = page - 1;
  if (end < array.length) result.next = page + 1;
  if (result.items.length !== array.length) {
    result.current = page;
    result.first = 1;
    result.last = Math.ceil(array.length / perPage);
  }
  return result;
}

/** Runs a json-server collection query; `fullUrl` (the request's own URL) is what the `Link` header points at. */
export function runQuery(collection: unknown[], query: Query, fullUrl: string): QueryResult {
  const params = { ...query };
  const q = first(params.q);
  const start = first(params._start);
  const end = first(params._end);
  const pageParam = first(params._page);
  const sort = first(params._sort);
  const order = first(params._order);
  const limitParam = first(params._limit);
  for (const name of controlParams) delete params[name];

  // Parameters that name no field of any item are ignored rather than filtering everything out.
  for (const key of Object.keys(params)) {
    if (key === 'callback' || key === '_' || operator.test(key)) continue;
    if (!collection.some((item) => hasPath(item, key))) delete params[key];
  }

  let items = collection;
  if (q) {
    const needle = q.toLowerCase();
    items = items.filter(
      (item) => isObjectLike(item) && Object.values(item).some((v) => deepQuery(v, needle)),
    );
  }
  for (const [key, raw] of Object.entries(params)) {
    if (key === 'callback' || key === '_' || raw === undefined) continue;
    items = filterBy(items, key, ([] as string[]).concat(raw));
  }
  if (sort) items = sortBy(items, sort, order);

  const result: QueryResult = { items };
  if (end || limitParam || pageParam) result.totalCount = items.length;
  if (pageParam) {
    const parsedPage = Number.parseInt(pageParam, 10);
    const page = parsedPage >= 1 ? parsedPage : 1;
    const limit = Number.parseInt(limitParam ?? '', 10) || 10;
    const slice = getPage(items, page, limit);
    const links: [string, number | undefined][] = [
      ['first', slice.first],
      ['prev', slice.prev],
      ['next', slice.next],
      ['last', slice.last],
    ];
    result.link = links
      .filter(([, target]) => target)
      .map(([rel, target]) => `<${fullUrl.replace(`page=${slice.current}`, `page=${target}`)}>; rel="${rel}"`)
      .join(', ');
    result.items = slice.items;
  } else if (end) {
    result.items = items.slice(Number.parseInt(start ?? '', 10) || 0, Number.parseInt(end, 10));
  } else if (limitParam) {
    const from = Number.parseInt(start ?? '', 10) || 0;
    result.items = items.slice(from, from + Number.parseInt(limitParam, 10));
  }
  return result;
}
