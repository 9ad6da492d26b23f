import pluralize from 'pluralize';
import { findById, type Item } from './store.js';

/** json-server's default `foreignKeySuffix`: `comments` point at `posts` through `postId`. */
export const foreignKeySuffix = 'Id';

/** The foreign key that points at an item of `resource` (`posts` → `postId`, `list` → `listId`). */
export const foreignKeyOf = (resource: string) => `${pluralize.singular(resource)}${foreignKeySuffix}`;

const isItem = (value: unknown): value is Item =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const own = (data: Item, key: string) => (Object.hasOwn(data, key) ? data[key] : undefined);

/** Sets a key even when it is `__proto__`, which plain assignment would turn into a prototype change. */
const setKey = (item: Item, key: string, value: unknown) =>
  Object.defineProperty(item, key, { value, enumerable: true, writable: true, configurable: true });

/** At most this many distinct names in `_embed`, and in `_expand`: each one is a pass over the answer. */
export const maxRelations = 10;

/**
 * lodash's `filter(collection, {key: value})` for every value at once: arrays and an object's values, grouped by
 * their `key` (compared strictly, as `===` does); anything else holds nothing. One pass, so embedding stays linear.
 */
function childrenIndex(value: unknown, key: string): Map<unknown, unknown[]> {
  const index = new Map<unknown, unknown[]>();
  const docs = Array.isArray(value) ? value : isItem(value) ? Object.values(value) : [];
  for (const doc of docs) {
    if (!isItem(doc) || !Object.hasOwn(doc, key)) continue;
    const group = index.get(doc[key]);
    if (group) group.push(doc);
    else index.set(doc[key], [doc]);
  }
  return index;
}

/**
 * `_embed` and `_expand` on copies of `items` of resource `name`, as json-server 0.17 does them:
 * - `_embed=comments` on `posts`: each named resource's items whose `postId` is the item's id (strictly: `"1"` is not
 *   `1`); a name that is not in the file embeds `[]`.
 * - `_expand=post` on `comments`: the `posts` item whose id is the comment's `postId`, by its string form. Names whose
 *   plural is not in the file are skipped. Where json-server failed (500) on an item without the key, here the key is
 *   left out.
 */
export function relate(data: Item, name: string, items: unknown[], embeds: string[], expands: string[]) {
  const key = foreignKeyOf(name);
  const children = [...new Set(embeds)].map((resource) => ({
    resource,
    index: childrenIndex(own(data, resource), key),
  }));
  const parents = [...new Set(expands)]
    .map((inner) => ({ inner, collection: own(data, pluralize.plural(inner)) }))
    .filter(({ collection }) => collection);
  return items.map((item) => {
    if (!isItem(item)) return item;
    const copy = { ...item };
    for (const { resource, index } of children) setKey(copy, resource, index.get(copy.id) ?? []);
    for (const { inner, collection } of parents) {
      const id = own(copy, `${inner}${foreignKeySuffix}`);
      const found =
        Array.isArray(collection) && id !== undefined && id !== null
          ? findById(collection, String(id))
          : undefined;
      setKey(copy, inner, found);
    }
    return copy;
  });
}
