import { fieldAt, isObjectLike, type PathSyntax } from './fields.js';
import { type InvalidPattern, likeMatcher } from './pattern.js';

export type Query = Record<string, string | string[] | undefined>;

export const operator = /(_lte|_gte|_ne|_like)$/;

/** Parameters that steer the query rather than filter by a field. */
export const controlParams = new Set([
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
  'callback',
  '_',
]);

export const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export const all = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** Whether `value` contains `needle` anywhere inside it (json-server's lodash mixin `deepQuery`). */
function deepQuery(value: unknown, needle: string): boolean {
  if (!value) return false;
  if (Array.isArray(value)) return value.some((entry) => deepQuery(entry, needle));
  if (isObjectLike(value)) return Object.values(value).some((entry) => deepQuery(entry, needle));
  return String(value).toLowerCase().includes(needle);
}

/** `q`: items with any value, at any depth, containing the text (case-insensitive). */
export function search(items: unknown[], q: string): unknown[] {
  const needle = q.toLowerCase();
  return items.filter(
    (item) => isObjectLike(item) && Object.values(item).some((value) => deepQuery(value, needle)),
  );
}

export interface FilterOptions {
  paths: PathSyntax;
  invalidPattern: InvalidPattern;
}

/** `field=v` (any of the values), `field_ne` (all differ), `field_gte`/`field_lte` (any), `field_like` (any). */
function fieldFilter(key: string, values: string[], options: FilterOptions): (item: unknown) => boolean {
  const field = fieldAt(key.replace(operator, ''), options.paths);
  if (key.endsWith('_like')) {
    const matches = likeMatcher(key, values, options.invalidPattern);
    return (item) => {
      const found = field.get(item);
      return found !== undefined && found !== null && matches(String(found));
    };
  }
  const tests = values.map((value): ((found: unknown) => boolean) => {
    // Loose comparison on purpose: "10" <= 9 compares numbers, "a" <= "b" compares strings, as json-server does.
    if (key.endsWith('_gte')) return (found) => (value as unknown as number) <= (found as number);
    if (key.endsWith('_lte')) return (found) => (value as unknown as number) >= (found as number);
    if (key.endsWith('_ne')) return (found) => value !== String(found);
    return (found) => value === String(found);
  });
  const every = key.endsWith('_ne');
  return (item) => {
    const found = field.get(item);
    if (found === undefined || found === null) return false;
    return every ? tests.every((test) => test(found)) : tests.some((test) => test(found));
  };
}

/**
 * Every non-control parameter filters, in the order given. A plain parameter that names no field of any item of
 * the collection is ignored rather than filtering everything out. A value repeated in one parameter counts once.
 */
export function filterByFields(
  collection: unknown[],
  items: unknown[],
  query: Query,
  options: FilterOptions,
): unknown[] {
  for (const [key, raw] of Object.entries(query)) {
    if (controlParams.has(key) || raw === undefined) continue;
    if (!operator.test(key)) {
      const field = fieldAt(key, options.paths);
      if (!collection.some((item) => field.has(item))) continue;
    }
    items = items.filter(fieldFilter(key, [...new Set(all(raw))], options));
  }
  return items;
}
