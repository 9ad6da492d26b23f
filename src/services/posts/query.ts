import { type Dataset, type Item, type ResourceName, resourceNames, singularOf } from './dataset.js';

/** A parsed query string: repeated keys arrive as arrays. */
export type Query = Record<string, string | string[] | undefined>;

/** The dataset plus an id index per resource, so `_expand` and `/{resource}/{id}` are lookups, not scans. */
export interface Indexed {
  data: Dataset;
  byId: Record<ResourceName, Map<string, Item>>;
}

export function indexDataset(data: Dataset): Indexed {
  const byId = {} as Indexed['byId'];
  for (const name of resourceNames) {
    byId[name] = new Map((data[name] as Item[]).map((item) => [String(item.id), item]));
  }
  return { data, byId };
}

export interface PageLinks {
  first?: number;
  prev?: number;
  next?: number;
  last?: number;
}

export interface ListResult {
  items: unknown[];
  /** Set when the result was sliced: the `X-Total-Count` header. */
  total?: number;
  /** Set with `_page`: the pages for the `Link` header. */
  links?: PageLinks;
}

const control = new Set(['q', '_start', '_end', '_page', '_sort', '_order', '_limit', '_embed', '_expand']);
const operator = /(_lte|_gte|_ne|_like)$/;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const all = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** `address.geo.lat` style paths, as json-server (lodash `_.get`) reads them. */
function valueAt(item: unknown, path: string): unknown {
  let current: unknown = item;
  for (const key of path.split('.')) {
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

const hasPath = (item: unknown, path: string) => {
  let current: unknown = item;
  for (const key of path.split('.')) {
    if (!isObject(current) || !Object.hasOwn(current, key)) return false;
    current = current[key];
  }
  return true;
};

/** `q`: case-insensitive substring anywhere in the item, nested objects included (json-server's deepQuery). */
function deepMatch(value: unknown, needle: string): boolean {
  if (!value) return false;
  if (Array.isArray(value)) return value.some((entry) => deepMatch(entry, needle));
  if (isObject(value)) return Object.values(value).some((entry) => deepMatch(entry, needle));
  return String(value).toLowerCase().includes(needle);
}

/**
 * Patterns that could backtrack for minutes are matched as plain text: a quantified group (`(a+)+`,
 * `(a|b)*`) or more than two quantifiers (`.*.*.*x` is cubic per item). Common patterns (`^qui`,
 * `est|sit`, `a.*b`) stay regular expressions.
 */
function isSafePattern(source: string) {
  const bare = source.replace(/\\./g, '');
  const quantifiers = bare.match(/[*+]|\{\d/g)?.length ?? 0;
  return source.length <= 200 && !/\)\s*[*+{]/.test(bare) && quantifiers <= 2;
}

function likePattern(source: string): RegExp {
  if (isSafePattern(source)) {
    try {
      return new RegExp(source, 'i');
    } catch {
      // Not a valid regular expression: fall through to a literal match.
    }
  }
  return new RegExp(source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

type Predicate = (item: unknown) => boolean;

function filterFor(key: string, values: string[]): Predicate {
  const path = key.replace(operator, '');
  const tests = values.map((value): ((field: unknown) => boolean) => {
    // Loose comparison on purpose: `?id_gte=10` compares numbers with numbers, strings with strings.
    if (key.endsWith('_gte')) return (field) => (value as unknown as number) <= (field as number);
    if (key.endsWith('_lte')) return (field) => (value as unknown as number) >= (field as number);
    if (key.endsWith('_ne')) return (field) => value !== String(field);
    if (key.endsWith('_like')) {
      const pattern = likePattern(value);
      return (field) => pattern.test(String(field));
    }
    return (field) => value === String(field);
  });
  const every = key.endsWith('_ne');
  return (item) => {
    const field = valueAt(item, path);
    if (field === undefined || field === null) return false;
    return every ? tests.every((test) => test(field)) : tests.some((test) => test(field));
  };
}

function compare(a: unknown, b: unknown) {
  if (a === b) return 0;
  // Missing values sort after present ones, as lodash's orderBy does.
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

function sortItems(items: unknown[], sort: string, order: string) {
  const paths = sort.split(',');
  const orders = order.split(',').map((entry) => (entry.trim().toLowerCase() === 'desc' ? -1 : 1));
  return [...items].sort((a, b) => {
    for (let i = 0; i < paths.length; i++) {
      const path = (paths[i] as string).trim();
      const result = compare(valueAt(a, path), valueAt(b, path));
      if (result !== 0) return result * (orders[i] ?? 1);
    }
    return 0;
  });
}

const wholeNumber = /^\s*\d+\s*$/;
const signedNumber = /^\s*-?\d+\s*$/;

function paginate(items: unknown[], page: number, perPage: number): { items: unknown[]; links: PageLinks } {
  const start = (page - 1) * perPage;
  const end = page * perPage;
  const slice = items.slice(start, end);
  const links: PageLinks = {};
  if (slice.length === 0) return { items: slice, links };
  // Key order is the header's order: first, prev, next, last (as Express writes it).
  const partial = slice.length !== items.length;
  if (partial) links.first = 1;
  if (page > 1) links.prev = page - 1;
  if (end < items.length) links.next = page + 1;
  if (partial) links.last = Math.ceil(items.length / perPage);
  return { items: slice, links };
}

/** `_embed=comments` on a post: the comments whose `postId` is the post's id. */
function embed(db: Indexed, resource: ResourceName, item: Record<string, unknown>, names: string[]) {
  const foreignKey = `${singularOf[resource]}Id`;
  for (const name of names) {
    if (!(resourceNames as string[]).includes(name)) continue;
    item[name] = (db.data[name as ResourceName] as unknown as Record<string, unknown>[]).filter(
      (child) => child[foreignKey] === item.id,
    );
  }
}

/** `_expand=user` on a post: the user its `userId` points at. */
function expand(db: Indexed, item: Record<string, unknown>, names: string[]) {
  for (const name of names) {
    const target = resourceNames.find((resource) => singularOf[resource] === name);
    if (!target) continue;
    const parent = db.byId[target].get(String(item[`${name}Id`]));
    if (parent) item[name] = parent;
  }
}

/** Adds `_embed`/`_expand` relations to copies of the items; without them the stored items are returned as they are. */
export function withRelations(db: Indexed, resource: ResourceName, items: unknown[], query: Query) {
  const embeds = all(query._embed);
  const expands = all(query._expand);
  if (embeds.length === 0 && expands.length === 0) return items;
  return items.map((original) => {
    const item = { ...(original as Record<string, unknown>) };
    embed(db, resource, item, embeds);
    expand(db, item, expands);
    return item;
  });
}

/** json-server 0.17's list semantics: q, field filters, sort, then `_page` | `_start`+`_end` | `_start`+`_limit`. */
export function listItems(db: Indexed, resource: ResourceName, query: Query): ListResult {
  let items: unknown[] = db.data[resource];
  const sample = items;

  const q = first(query.q);
  if (q) {
    const needle = q.toLowerCase();
    items = items.filter((item) => Object.values(item as object).some((value) => deepMatch(value, needle)));
  }

  for (const [key, value] of Object.entries(query)) {
    if (control.has(key) || key === 'callback' || key === '_' || value === undefined) continue;
    // Filters on fields no item has are ignored, as json-server does.
    if (!operator.test(key) && !sample.some((item) => hasPath(item, key))) continue;
    const predicate = filterFor(key, all(value));
    items = items.filter(predicate);
  }

  const sort = all(query._sort).join(',');
  if (sort) items = sortItems(items, sort, all(query._order).join(','));

  const limitRaw = first(query._limit);
  const limit = limitRaw !== undefined && wholeNumber.test(limitRaw) ? Number(limitRaw) : undefined;
  const endRaw = first(query._end);
  const end = endRaw !== undefined && signedNumber.test(endRaw) ? Number(endRaw) : undefined;
  const pageRaw = first(query._page);
  const startRaw = first(query._start);
  const start = startRaw !== undefined && signedNumber.test(startRaw) ? Number(startRaw) : 0;

  const result: ListResult = { items };
  if (pageRaw !== undefined || end !== undefined || limit !== undefined) result.total = items.length;
  if (pageRaw !== undefined) {
    const page = Math.max(Number.parseInt(pageRaw, 10) || 1, 1);
    const paged = paginate(items, page, limit || 10);
    result.items = paged.items;
    result.links = paged.links;
  } else if (end !== undefined) {
    result.items = items.slice(start, end);
  } else if (limit !== undefined) {
    result.items = items.slice(start, start + limit);
  }
  result.items = withRelations(db, resource, result.items, query);
  return result;
}
