import {
  all,
  type Query,
  type QueryOptions,
  type QueryResult,
  runQuery,
} from '../../platform/json-query/index.js';
import { type Dataset, type Item, type ResourceName, resourceNames, singularOf } from './dataset.js';

export type { Query } from '../../platform/json-query/index.js';

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

/**
 * json-server 0.17's query language as the public API answers it, where that differs from json-server itself:
 * no 400 ever (the spec), so a `_like` pattern that cannot run is plain text and a `_limit` that is not a whole
 * number is ignored; `_sort`/`_order` may be repeated and may have spaces; `Link` rewrites the `_page` parameter.
 */
const postsQuery: QueryOptions = {
  paths: 'dots',
  invalidPattern: 'literal',
  sortParams: 'lenient',
  numbers: 'whole',
  links: 'page-param',
};

/** The resources named by `_embed`, in the order asked, each once (other names are ignored): at most six. */
const embedded = (query: Query) =>
  [...new Set(all(query._embed))].filter((name): name is ResourceName =>
    (resourceNames as string[]).includes(name),
  );

/** The parents named by `_expand` (`user` -> `users`), in the order asked, each once; other names are ignored. */
const expanded = (query: Query) =>
  [...new Set(all(query._expand))].flatMap((name) => resourceNames.filter((r) => singularOf[r] === name));

/** Adds `_embed`/`_expand` relations to copies of the items; without them the stored items are returned as they are. */
export function withRelations(db: Indexed, resource: ResourceName, items: unknown[], query: Query) {
  const embeds = embedded(query);
  const expands = expanded(query);
  if (embeds.length === 0 && expands.length === 0) return items;
  const foreignKey = `${singularOf[resource]}Id`;
  return items.map((original) => {
    const item = { ...(original as Record<string, unknown>) };
    // `_embed=comments` on a post: the comments whose `postId` is the post's id.
    for (const name of embeds) {
      item[name] = (db.data[name] as unknown as Record<string, unknown>[]).filter(
        (child) => child[foreignKey] === item.id,
      );
    }
    // `_expand=user` on a post: the user its `userId` points at.
    for (const target of expands) {
      const name = singularOf[target];
      const parent = db.byId[target].get(String(item[`${name}Id`]));
      if (parent) item[name] = parent;
    }
    return item;
  });
}

/** A list query over one resource; `url` is the request's full URL, for the `Link` header. */
export function listItems(db: Indexed, resource: ResourceName, query: Query, url: string): QueryResult {
  const result = runQuery(db.data[resource], query, url, postsQuery);
  result.items = withRelations(db, resource, result.items, query);
  return result;
}
