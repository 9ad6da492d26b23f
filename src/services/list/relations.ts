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

/** lodash's `filter(collection, {key: value})`: arrays and an object's values; anything else holds nothing. */
function childrenOf(value: unknown, key: string, parentId: unknown): unknown[] {
  const docs = Array.isArray(value) ? value : isItem(value) ? Object.values(value) : [];
  return docs.filter((doc) => isItem(doc) && Object.hasOwn(doc, key) && doc[key] === parentId);
}

/**
 * `_embed=comments` on `posts`: each named resource's items whose `postId` is the item's id (strictly: `"1"` is not
 * `1`), as json-server 0.17 does; a name that is not in the file embeds `[]`.
 */
export function embed(data: Item, name: string, item: Item, resources: string[]) {
  const key = foreignKeyOf(name);
  for (const resource of resources) setKey(item, resource, childrenOf(own(data, resource), key, item.id));
}

/**
 * `_expand=post` on `comments`: the `posts` item whose id is the comment's `postId`, by its string form, as
 * json-server 0.17 does. Names whose plural is not in the file are skipped. Where json-server failed (500) on an item
 * without the key, here the key is left out.
 */
export function expand(data: Item, item: Item, names: string[]) {
  for (const name of names) {
    const parents = own(data, pluralize.plural(name));
    if (!parents) continue;
    const id = own(item, `${name}${foreignKeySuffix}`);
    const parent =
      Array.isArray(parents) && id !== undefined && id !== null ? findById(parents, String(id)) : undefined;
    setKey(item, name, parent);
  }
}
