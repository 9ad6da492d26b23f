/** How a field name in a query reaches into an item. */
export type PathSyntax = 'lodash' | 'dots';

export const isObjectLike = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const missing = Symbol('missing');

function walk(item: unknown, keys: string[]): unknown {
  let current = item;
  for (const key of keys) {
    if (!isObjectLike(current) || !Object.hasOwn(current, key)) return missing;
    current = current[key];
  }
  return current;
}

export interface Field {
  /** The value at the path, or undefined. */
  get(item: unknown): unknown;
  /** Whether the path exists in the item (its value may be undefined or null). */
  has(item: unknown): boolean;
}

/**
 * `lodash`: json-server's `_.get`: `a.b` and `a[0].b`, and a key that exists as written (`"a.b"`) wins over the
 * path reading. `dots`: the path split at every dot, nothing else.
 */
export function fieldAt(path: string, syntax: PathSyntax): Field {
  const keys = syntax === 'dots' ? path.split('.') : (path.match(/[^.[\]]+/g) ?? [path]);
  const read =
    syntax === 'dots'
      ? (item: unknown) => walk(item, keys)
      : (item: unknown) => (isObjectLike(item) && Object.hasOwn(item, path) ? item[path] : walk(item, keys));
  return {
    get: (item) => {
      const value = read(item);
      return value === missing ? undefined : value;
    },
    has: (item) => read(item) !== missing,
  };
}
