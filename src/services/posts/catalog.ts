import { type Body, bodyOf, type Encoding, encode, encodeNow, toJson } from './bodies.js';
import { buildDataset, type Dataset, photosAt, type ResourceName, resourceNames } from './dataset.js';
import { homePage } from './home.js';
import { type Indexed, indexDataset } from './query.js';
import { defaultCacheMiB } from './settings.js';

/** Nested lists: `/{parent}/{id}/{child}` lists the children whose `<parent>Id` is id. */
export const nestedRoutes: { parent: ResourceName; child: ResourceName; foreignKey: string }[] = [
  { parent: 'posts', child: 'comments', foreignKey: 'postId' },
  { parent: 'users', child: 'posts', foreignKey: 'userId' },
  { parent: 'users', child: 'albums', foreignKey: 'userId' },
  { parent: 'users', child: 'todos', foreignKey: 'userId' },
  { parent: 'albums', child: 'photos', foreignKey: 'albumId' },
];

/** How many client origins keep their own indexed copy of the photos (each costs about 2 MB). */
const originCacheSize = 8;

/** What an entry costs besides its buffers (key, object, map slot): a rough figure, so tiny bodies count too. */
const entryOverhead = 200;

const isResource = (name: string | undefined): name is ResourceName =>
  (resourceNames as string[]).includes(name ?? '');

/** Whether the fixed answer at `path` names the origin (photo URLs are absolute). */
const namesOrigin = (path: string) =>
  path === '/db' || path.startsWith('/photos') || path.endsWith('/photos');

/**
 * The JSON of the fixed answer at `path` (a resource, an item, a nested list, `/db`), or undefined when the path
 * has none: an unknown id, a trailing slash, anything else the routes answer themselves.
 */
function fixedJson(db: Indexed, path: string): string | undefined {
  if (path === '/db') return toJson(db.data);
  const [empty, name, id, child, ...rest] = path.split('/');
  if (empty !== '' || rest.length > 0 || !isResource(name)) return undefined;
  if (id === undefined) return toJson(db.data[name]);
  const item = db.byId[name].get(id);
  if (!item) return undefined;
  if (child === undefined) return toJson(item);
  const route = nestedRoutes.find((r) => r.parent === name && r.child === child);
  if (!route) return undefined;
  const children = db.data[route.child] as unknown as Record<string, unknown>[];
  return toJson(children.filter((c) => c[route.foreignKey] === item.id));
}

/**
 * Answers kept by recency within a byte budget: identity, gzip and brotli forms all count, each compressed form
 * only once some client asked for it. The least recently used answers go first when the budget is exceeded; an
 * answer larger than the whole budget is served but not kept.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Body>();
  private used = 0;
  /** The most recently used key: a hot answer asked for again needs no reordering of the map. */
  private newest: string | undefined;

  constructor(readonly maxBytes: number) {}

  /** Bytes held now. */
  get bytes() {
    return this.used;
  }

  get size() {
    return this.entries.size;
  }

  get(key: string): Body | undefined {
    const body = this.entries.get(key);
    if (body && key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, body);
      this.newest = key;
    }
    return body;
  }

  add(key: string, body: Body) {
    this.entries.delete(key);
    this.entries.set(key, body);
    this.newest = key;
    this.grew(key, body, sizeOf(body));
  }

  /** `body` (kept under `key`, unless evicted meanwhile) now holds `bytes` more. */
  grew(key: string, body: Body, bytes: number) {
    if (this.entries.get(key) !== body) return;
    this.used += bytes;
    for (const [oldest, held] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.used -= sizeOf(held);
    }
  }
}

const sizeOf = (body: Body) =>
  body.identity.length +
  (body.text?.length ?? 0) +
  (body.gzip?.length ?? 0) +
  (body.br?.length ?? 0) +
  entryOverhead;

let dataset: Dataset | undefined;
/** The dataset, built once per process: it never changes. */
const sharedDataset = () => {
  dataset ??= buildDataset();
  return dataset;
};

/**
 * The answers to every GET without a query, made on first request and kept in an `AnswerCache`, and the indexed
 * data that queries run on.
 */
export class Catalog {
  readonly base: Dataset = sharedDataset();
  readonly cache: AnswerCache;
  private readonly indexes = new Map<string, Indexed>();
  private readonly baseIndex = indexDataset(this.base);
  private readonly compressing = new Map<string, Promise<Buffer>>();

  constructor(cacheBytes = defaultCacheMiB * 2 ** 20) {
    this.cache = new AnswerCache(cacheBytes);
  }

  /** The dataset as seen from `origin`: photo URLs point at it. Cheap (one copy of the photo array). */
  data(origin: string): Indexed {
    let indexed = this.indexes.get(origin);
    if (indexed) return indexed;
    indexed = indexDataset({ ...this.base, photos: photosAt(this.base.photos, origin) });
    // Host headers are client input: only the most recent few origins keep their copy.
    if (this.indexes.size >= originCacheSize) this.indexes.delete(this.indexes.keys().next().value as string);
    this.indexes.set(origin, indexed);
    return indexed;
  }

  /**
   * The fixed answer to a query-less GET of `path` as seen from `origin` (which only photo answers and `/db`
   * depend on), or undefined when the routes must compute it.
   */
  answer(path: string, origin: string): Body | undefined {
    const key = this.keyOf(path, origin);
    const kept = this.cache.get(key);
    if (kept) return kept;
    const text =
      path === '/'
        ? homePage(this.base)
        : fixedJson(namesOrigin(path) ? this.data(origin) : this.baseIndex, path);
    if (text === undefined) return undefined;
    const body = bodyOf(text, path === '/' ? 'text/html; charset=utf-8' : undefined);
    this.cache.add(key, body);
    return body;
  }

  /** The fixed answer at `path` when it is the same for every origin (what the fast path may serve). */
  shared(path: string): Body | undefined {
    if (namesOrigin(path)) return undefined;
    return this.cache.get(path) ?? this.answer(path, '');
  }

  /** `body` (the answer at `key`) in `encoding` when ready now; see `encodeNow`. */
  encodedNow(key: string, body: Body, encoding: Encoding): Buffer | undefined {
    const before = encoding === 'identity' ? body.identity : body[encoding];
    const payload = encodeNow(body, encoding);
    if (payload && !before) this.cache.grew(key, body, payload.length);
    return payload;
  }

  /** `body` (the answer at `key`) in `encoding`, compressed once however many requests ask for it meanwhile. */
  encoded(key: string, body: Body, encoding: Encoding): Promise<Buffer> {
    const now = this.encodedNow(key, body, encoding);
    if (now) return Promise.resolve(now);
    const job = `${encoding} ${key}`;
    let pending = this.compressing.get(job);
    if (!pending) {
      pending = encode(body, encoding).then((payload) => {
        this.cache.grew(key, body, payload.length);
        return payload;
      });
      pending.finally(() => this.compressing.delete(job)).catch(() => {});
      this.compressing.set(job, pending);
    }
    return pending;
  }

  /** The cache key of the answer at `path` from `origin`, for `encoded`. */
  keyOf(path: string, origin: string) {
    return namesOrigin(path) ? origin + path : path;
  }
}
