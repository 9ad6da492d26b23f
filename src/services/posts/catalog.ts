import { type Body, precompute, precomputeAsync, toJson } from './bodies.js';
import { buildDataset, type Dataset, photosAt, type ResourceName, resourceNames } from './dataset.js';
import { homePage } from './home.js';
import { type Indexed, indexDataset } from './query.js';

/** Nested lists: `/{parent}/{id}/{child}` lists the children whose `<parent>Id` is id. */
export const nestedRoutes: { parent: ResourceName; child: ResourceName; foreignKey: string }[] = [
  { parent: 'posts', child: 'comments', foreignKey: 'postId' },
  { parent: 'users', child: 'posts', foreignKey: 'userId' },
  { parent: 'users', child: 'albums', foreignKey: 'userId' },
  { parent: 'users', child: 'todos', foreignKey: 'userId' },
  { parent: 'albums', child: 'photos', foreignKey: 'albumId' },
];

/** How many client origins keep their own photo bodies in memory (each costs about 3 MB). */
const originCacheSize = 8;

function addResource(bodies: Map<string, Body>, data: Dataset, name: ResourceName) {
  const items = data[name];
  bodies.set(`/${name}`, precompute(toJson(items)));
  for (const item of items) bodies.set(`/${name}/${item.id}`, precompute(toJson(item)));
}

function addNested(bodies: Map<string, Body>, data: Dataset, route: (typeof nestedRoutes)[number]) {
  const groups = new Map<number, unknown[]>();
  for (const child of data[route.child] as unknown as Record<string, number>[]) {
    const key = child[route.foreignKey] as number;
    const group = groups.get(key);
    if (group) group.push(child);
    else groups.set(key, [child]);
  }
  for (const parent of data[route.parent]) {
    bodies.set(
      `/${route.parent}/${parent.id}/${route.child}`,
      precompute(toJson(groups.get(parent.id) ?? [])),
    );
  }
}

let built: Catalog | undefined;

/** The answers to every GET without a query, and the indexed data queries run on. */
export class Catalog {
  /** One per process: the data never changes, so every instance of the service (and every test) shares it. */
  static instance(): Catalog {
    built ??= new Catalog();
    return built;
  }

  readonly base: Dataset = buildDataset();
  /** Bodies that do not name the origin (everything but photos). */
  readonly shared = new Map<string, Body>();
  private readonly indexes = new Map<string, Indexed>();
  private readonly originBodies = new Map<string, Map<string, Body>>();
  private readonly building = new Map<string, Promise<void>>();
  /** The service's own origin(s): never evicted by a stream of other Host names. */
  private readonly pinned = new Set<string>();

  constructor() {
    for (const name of resourceNames) if (name !== 'photos') addResource(this.shared, this.base, name);
    for (const route of nestedRoutes) if (route.child !== 'photos') addNested(this.shared, this.base, route);
    this.shared.set('/', precompute(homePage(this.base), 'text/html; charset=utf-8'));
  }

  /** The dataset as seen from `origin`: photo URLs point at it. Cheap (one copy of the photo array). */
  data(origin: string): Indexed {
    let indexed = this.indexes.get(origin);
    if (!indexed) {
      indexed = indexDataset({ ...this.base, photos: photosAt(this.base.photos, origin) });
      remember(this.indexes, origin, indexed, this.pinned);
    }
    return indexed;
  }

  /**
   * Precomputed bodies that contain photo URLs (`/photos...`, `/albums/{id}/photos`, `/db`) for `origin`.
   * The first request from a new origin waits for them (well under a second) rather than compressing
   * the megabyte-sized lists once per concurrent request.
   */
  async photoBodies(origin: string): Promise<Map<string, Body>> {
    const ready = this.originBodies.get(origin);
    if (ready) return ready;
    await this.warm(origin);
    return this.originBodies.get(origin) ?? buildPhotoBodies(this.data(origin).data);
  }

  /** Builds the photo bodies for `origin` once; startup awaits this (pinned) for the service's own URL. */
  warm(origin: string, pin = false): Promise<void> {
    if (pin) this.pinned.add(origin);
    let pending = this.building.get(origin);
    if (!pending) {
      pending = buildPhotoBodies(this.data(origin).data).then(
        (bodies) => {
          remember(this.originBodies, origin, bodies, this.pinned);
          this.building.delete(origin);
        },
        (error) => {
          this.building.delete(origin);
          throw error;
        },
      );
      this.building.set(origin, pending);
    }
    return pending;
  }
}

async function buildPhotoBodies(data: Dataset) {
  const bodies = new Map<string, Body>();
  const photosRoute = nestedRoutes.find((route) => route.child === 'photos') as (typeof nestedRoutes)[number];
  const pending = new Map<string, Promise<Body>>();
  for (const photo of data.photos) bodies.set(`/photos/${photo.id}`, precompute(toJson(photo)));
  const byAlbum = new Map<number, unknown[]>();
  for (const photo of data.photos) {
    const group = byAlbum.get(photo.albumId);
    if (group) group.push(photo);
    else byAlbum.set(photo.albumId, [photo]);
  }
  for (const album of data.albums) {
    pending.set(
      `/${photosRoute.parent}/${album.id}/photos`,
      precomputeAsync(toJson(byAlbum.get(album.id) ?? [])),
    );
  }
  pending.set('/photos', precomputeAsync(toJson(data.photos)));
  pending.set('/db', precomputeAsync(toJson(data)));
  for (const [path, body] of pending) bodies.set(path, await body);
  return bodies;
}

/** Keeps at most `originCacheSize` unpinned entries, dropping the oldest: Host headers are client input. */
function remember<T>(cache: Map<string, T>, key: string, value: T, pinned: Set<string>) {
  const evictable = [...cache.keys()].filter((entry) => !pinned.has(entry));
  if (evictable.length >= originCacheSize) cache.delete(evictable[0] as string);
  cache.set(key, value);
}
