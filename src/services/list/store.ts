import { randomBytes } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import pluralize from 'pluralize';
import { makeDirectory } from '../../platform/directories.js';
import { HttpError } from '../../platform/errors.js';
import { type HeldLock, LockHeldError, takeLock } from '../../platform/lock-file.js';

export type Item = Record<string, unknown>;
export type Data = Record<string, unknown>;

export const freshData: Data = {
  list: [
    { id: 1, item: 'bread' },
    { id: 2, item: 'grapes' },
  ],
};

/** The data file cannot be used: the message says which file and what is wrong, in one line. */
export class DataFileError extends Error {
  override name = 'DataFileError';
}

/** A write could not be made durable (disk full, lock lost); nothing of it was kept. */
export class WriteFailedError extends HttpError {
  override name = 'WriteFailedError';
  constructor(message: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException)?.code;
    // 507 Insufficient Storage when the disk or quota is full; 503 for the rest (a lost lock, an I/O error).
    super(code === 'ENOSPC' || code === 'EDQUOT' ? 507 : 503);
    this.message = message;
  }
}

const isItem = (value: unknown): value is Item =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the file must hold: one JSON object whose keys can be URL path segments. */
export function parseData(text: string): Data {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new DataFileError(`not valid JSON (${(error as Error).message.split('\n')[0]})`);
  }
  if (!isItem(data)) {
    const found = Array.isArray(data) ? 'an array' : data === null ? 'null' : `a ${typeof data}`;
    throw new DataFileError(`must hold one JSON object, found ${found}`);
  }
  const slashed = Object.keys(data).find((key) => key.includes('/'));
  if (slashed !== undefined)
    throw new DataFileError(`key "${slashed}" contains "/", which cannot be a route`);
  return data;
}

const serialize = (data: Data) => `${JSON.stringify(data, null, 2)}\n`;

// Ids json-server would generate when the largest id is not a number (nanoid(7) alphabet).
const idAlphabet = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
function randomId() {
  return Array.from(randomBytes(7), (b) => idAlphabet[b & 63]).join('');
}

const hasId = (doc: unknown, id: string): doc is Item =>
  isItem(doc) && doc.id !== undefined && doc.id !== null && String(doc.id) === id;

/** Position of each id (first occurrence) per collection array, so a read does not scan 100k items. */
const positions = new WeakMap<unknown[], Map<string, number>>();

function indexPositions(items: unknown[]) {
  const index = new Map<string, number>();
  items.forEach((doc, i) => {
    if (isItem(doc) && doc.id !== undefined && doc.id !== null && !index.has(String(doc.id))) {
      index.set(String(doc.id), i);
    }
  });
  positions.set(items, index);
}

/**
 * lodash-id's `getById`: ids match by their string form, so `/list/1` finds `{"id": 1}`. The index is only a
 * hint checked against the array, so writes need not maintain it: a stale hint falls back to the scan, which
 * rebuilds the index.
 */
export function findById(items: unknown[], id: string): Item | undefined {
  const hint = positions.get(items)?.get(id);
  if (hint !== undefined && hasId(items[hint], id)) {
    return items[hint] as Item;
  }
  const found = items.findIndex((doc) => hasId(doc, id));
  if (found === -1) return undefined;
  indexPositions(items);
  return items[found] as Item;
}

/**
 * json-server's `createId`: the largest id plus one, 1 for an empty collection, a random string otherwise. Past
 * 2^53 - 1 "plus one" is no longer exact (and would repeat for ever), so once the largest id reaches the limit the
 * next id is the largest safe integer not taken; undefined when every one is (no free id: the caller answers 4xx).
 */
function nextId(items: unknown[]): number | string | undefined {
  let max: any;
  for (const doc of items) {
    const id: any = isItem(doc) ? doc.id : undefined;
    if (id === undefined || id === null || Number.isNaN(id)) continue;
    if (max === undefined || id > max) max = id;
  }
  if (max === undefined) return 1;
  if (typeof max !== 'number' || !Number.isFinite(max)) return randomId();
  if (max + 1 <= Number.MAX_SAFE_INTEGER) return max + 1;
  return largestFreeId(items);
}

/** At most `items.length + 1` candidates are tried, so this ends quickly whatever the file holds. */
function largestFreeId(items: unknown[]): number | undefined {
  const taken = new Set(items.map((doc) => (isItem(doc) ? String(doc.id) : undefined)));
  for (let id = Number.MAX_SAFE_INTEGER; id > 0; id--) if (!taken.has(String(id))) return id;
  return undefined;
}

export interface StoreOptions {
  log: FastifyBaseLogger;
  /** How long to wait for another process's lock before refusing to start. */
  lockWaitMs: number;
}

export type InsertResult = { item: Item } | { conflict: string };

/**
 * The JSON file and the data it holds. Mutations change memory at once (JavaScript runs them one at a time,
 * so concurrent requests never lose each other's changes) and resolve only once a flush that includes them is
 * durable; writes arriving during a flush are grouped into the next one.
 */
export class ListStore {
  data: Data = {};
  /** Bumped on every change, in memory or from disk; caches key on it. */
  version = 0;
  private durableText = '';
  private flushing = false;
  private flushed: Promise<void> = Promise.resolve();
  private writes = 0;
  private waiters: { version: number; resolve(): void; reject(error: Error): void }[] = [];
  private watcher?: FSWatcher;
  private reloadTimer?: NodeJS.Timeout;
  private reloadAfterFlush = false;
  private compromised?: string;
  private closed = false;
  private lockHeld?: HeldLock;

  private constructor(
    readonly file: string,
    private readonly options: StoreOptions,
  ) {}

  /** Locks the file, reads it (creating it when missing) and starts watching it for edits by hand. */
  static async open(file: string, options: StoreOptions): Promise<ListStore> {
    const store = new ListStore(file, options);
    makeDirectory(path.dirname(file), 0o777);
    await store.lock();
    try {
      await store.removeLeftovers();
      await store.load();
    } catch (error) {
      store.lockHeld?.release();
      throw error;
    }
    store.watch();
    return store;
  }

  /** The file's lock (`<file>.lock`): a holder that died is replaced at once, one on another host after 5 s. */
  private takeLock(waitMs: number) {
    return takeLock(`${this.file}.lock`, { waitMs, onLost: (error) => void this.relock(error) });
  }

  /** The lock was lost (someone removed it, another process took it): no saves until it is ours again. */
  private async relock(error: Error) {
    const { log } = this.options;
    this.compromised = `the lock on ${this.file} was lost (${error.message})`;
    log.error({ file: this.file }, `${this.compromised}; saves fail until it is taken back`);
    if (this.closed) return;
    try {
      this.lockHeld = await this.takeLock(0);
      this.compromised = undefined;
      log.warn({ file: this.file }, 'took the lock on the list file back');
    } catch (relockError) {
      log.error(
        { err: relockError, file: this.file },
        'another process holds the list file now; restart this one',
      );
    }
  }

  private async lock() {
    try {
      this.lockHeld = await this.takeLock(this.options.lockWaitMs);
    } catch (error) {
      if (error instanceof LockHeldError) {
        throw new DataFileError(
          `${this.file} is in use by another process (lock ${this.file}.lock); stop it or set LIST_FILE to another file`,
        );
      }
      throw new DataFileError(`${this.file}: cannot lock: ${(error as Error).message}`);
    }
  }

  /** Temporary files of saves that a crash interrupted (the data file itself is always whole). */
  private async removeLeftovers() {
    const prefix = `.${path.basename(this.file)}.`;
    const names = await readdir(path.dirname(this.file));
    for (const name of names) {
      if (name.startsWith(prefix) && name.endsWith('.tmp')) {
        await rm(path.join(path.dirname(this.file), name), { force: true, recursive: true });
      }
    }
  }

  private async load() {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new DataFileError(`${this.file}: cannot read: ${(error as Error).message}`);
      }
      text = serialize(freshData);
      try {
        await this.writeDurably(text);
      } catch (writeError) {
        throw new DataFileError(`${this.file}: cannot create: ${(writeError as Error).message}`);
      }
      this.options.log.info({ file: this.file }, 'created the list data file');
    }
    try {
      this.data = parseData(text);
    } catch (error) {
      throw new DataFileError(`${this.file}: ${(error as Error).message}`);
    }
    this.durableText = text;
  }

  /** The top-level arrays (json-server's plural resources), without `$schema`. */
  collection(name: string): unknown[] | undefined {
    if (name === '$schema' || !Object.hasOwn(this.data, name)) return undefined;
    const value = this.data[name];
    return Array.isArray(value) ? value : undefined;
  }

  /** A top-level object (json-server's singular resource), without `$schema`. */
  object(name: string): Item | undefined {
    if (name === '$schema' || !Object.hasOwn(this.data, name)) return undefined;
    const value = this.data[name];
    return isItem(value) ? value : undefined;
  }

  /** POST and PUT on a singular resource: the body becomes the object (`__proto__` stays a plain key). */
  setObject(name: string, body: Item): Promise<void> {
    Object.defineProperty(this.data, name, {
      value: { ...body },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return this.commit();
  }

  /** PATCH on a singular resource: the body's fields are merged in. */
  mergeObject(object: Item, body: Item): Promise<void> {
    Object.assign(object, body);
    return this.commit();
  }

  resources(): { name: string; count: number }[] {
    return Object.keys(this.data)
      .filter((name) => this.collection(name))
      .map((name) => ({ name, count: (this.data[name] as unknown[]).length }));
  }

  /** lodash-id `insert`: a missing or falsy id is generated; an id already taken is a conflict. */
  insert(collection: unknown[], body: Item): { item: Item; saved: Promise<void> } | { conflict: string } {
    const item: Item = { ...body };
    if (!item.id) {
      const id = nextId(collection);
      if (id === undefined)
        return { conflict: 'no free id: every id up to 9007199254740991 (2^53 - 1) is taken' };
      item.id = id;
    }
    if (findById(collection, String(item.id)))
      return { conflict: `id ${JSON.stringify(item.id)} already exists` };
    collection.push(item);
    return { item, saved: this.commit() };
  }

  /** lodash-id `replaceById`: the body's fields replace the item's, the id stays. */
  replace(item: Item, body: Item): Promise<void> {
    const id = item.id;
    for (const key of Object.keys(item)) delete item[key];
    Object.assign(item, body, { id });
    return this.commit();
  }

  /** lodash-id `updateById`: the body's fields are merged into the item, the id stays. */
  merge(item: Item, body: Item): Promise<void> {
    Object.assign(item, body, { id: item.id });
    return this.commit();
  }

  /**
   * lodash-id `removeById`, then json-server's dependents pass (`getRemovable`): every item whose `<name>Id` names
   * no item of an existing collection `<names>` goes too, so a post's comments go with it. One pass, as there.
   */
  remove(collection: unknown[], item: Item): Promise<void> {
    collection.splice(collection.indexOf(item), 1);
    for (const [owner, doc] of this.orphans()) owner.splice(owner.indexOf(doc), 1);
    return this.commit();
  }

  /** The items pointing at a missing item (`postId: 1` once post 1 is gone); a null key points at nothing. */
  private orphans(): [unknown[], Item][] {
    const found: [unknown[], Item][] = [];
    for (const [name, docs] of Object.entries(this.data)) {
      if (name === '$schema' || !Array.isArray(docs)) continue;
      for (const doc of docs) {
        if (!isItem(doc)) continue;
        const dangling = Object.entries(doc).some(([key, value]) => {
          if (!key.endsWith('Id') || value === null || value === undefined) return false;
          const target = pluralize.plural(key.slice(0, -2));
          const targets = Object.hasOwn(this.data, target) ? this.data[target] : undefined;
          return Array.isArray(targets) && !findById(targets, String(value));
        });
        if (dangling) found.push([docs, doc]);
      }
    }
    return found;
  }

  private commit(): Promise<void> {
    this.version++;
    const version = this.version;
    const saved = new Promise<void>((resolve, reject) => this.waiters.push({ version, resolve, reject }));
    if (!this.flushing) {
      this.flushing = true;
      // The loop settles every waiter itself; a failure of the loop is logged, never left unhandled.
      this.flushed = this.flushLoop().catch((err) =>
        this.options.log.error({ err, file: this.file }, 'the list flush loop failed'),
      );
    }
    return saved;
  }

  private async flushLoop() {
    try {
      while (this.waiters.length > 0) {
        const version = this.version;
        try {
          // Serializing can fail too (a body nested too deep for the stack): it fails the writes, not the process.
          const text = serialize(this.data);
          if (this.compromised) throw new Error(this.compromised);
          await this.writeDurably(text);
          this.durableText = text;
          const done = this.waiters.filter((w) => w.version <= version);
          this.waiters = this.waiters.filter((w) => w.version > version);
          for (const waiter of done) waiter.resolve();
        } catch (error) {
          // Nothing unsaved may stay visible: go back to what the file holds and fail every pending write.
          this.options.log.error({ err: error, file: this.file }, 'writing the list data file failed');
          this.data = parseData(this.durableText);
          this.version++;
          const failed = this.waiters;
          this.waiters = [];
          const reason = new WriteFailedError(
            `the change could not be saved: ${(error as Error).message}`,
            error,
          );
          for (const waiter of failed) waiter.reject(reason);
        }
      }
    } finally {
      this.flushing = false;
      if (this.reloadAfterFlush) this.scheduleReload();
    }
  }

  /** Temp file, fsync, rename over the file, fsync the directory: a crash leaves the old file or the new one. */
  private async writeDurably(text: string) {
    this.writes++;
    const temp = path.join(path.dirname(this.file), `.${path.basename(this.file)}.${process.pid}.tmp`);
    const handle = await open(temp, 'w', 0o600);
    try {
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.file);
    } catch (error) {
      // A half-written temporary file (disk full) would keep the space the next save needs.
      await rm(temp, { force: true });
      throw error;
    }
    const dir = await open(path.dirname(this.file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }

  // The directory is watched, not the file: every save (ours or an editor's) replaces the file's inode.
  private watch() {
    const base = path.basename(this.file);
    try {
      this.watcher = watch(path.dirname(this.file), (_event, name) => {
        if (name && name !== base) return;
        this.scheduleReload();
      });
      this.watcher.on('error', (error) =>
        this.options.log.warn({ err: error }, 'watching the list file stopped'),
      );
    } catch (error) {
      this.options.log.warn(
        { err: error, file: this.file },
        'cannot watch the list file; edits by hand need a restart',
      );
    }
  }

  private scheduleReload() {
    if (this.closed) return;
    this.reloadAfterFlush = false;
    clearTimeout(this.reloadTimer);
    // Editors save in several steps; wait for them to settle.
    this.reloadTimer = setTimeout(() => void this.reload(), 50);
  }

  private async reload() {
    if (this.closed) return;
    if (this.flushing) {
      this.reloadAfterFlush = true;
      return;
    }
    const writes = this.writes;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.options.log.warn({ err: error, file: this.file }, 'cannot re-read the list file');
      }
      return;
    }
    // Our own save may have replaced the file while it was being read: look again once it is done.
    if (this.flushing || writes !== this.writes) {
      this.reloadAfterFlush = true;
      if (!this.flushing) this.scheduleReload();
      return;
    }
    if (text === this.durableText || this.closed) return;
    try {
      this.data = parseData(text);
    } catch (error) {
      this.options.log.error(
        { file: this.file },
        `the list file was edited and is now invalid: ${(error as Error).message}; still serving the last good data`,
      );
      return;
    }
    this.durableText = text;
    this.version++;
    this.options.log.info({ file: this.file }, 'the list file changed on disk; reloaded');
  }

  /** The data as saved, once every accepted write is durable (checkpoints of the harness). */
  async savedText(): Promise<string> {
    while (this.flushing) await this.flushed;
    return this.durableText;
  }

  /** Replaces all data with `text` (a checkpoint being restored): in memory at once, saved like any write. */
  replaceText(text: string): Promise<void> {
    this.data = parseData(text);
    return this.commit();
  }

  async close() {
    this.closed = true;
    clearTimeout(this.reloadTimer);
    this.watcher?.close();
    await this.flushed;
    this.lockHeld?.release();
  }
}
