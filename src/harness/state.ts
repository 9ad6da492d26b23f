import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../platform/database.js';
import { objectSpace, type S3Settings } from '../platform/objects.js';
import type { RunningService } from '../platform/service.js';
import { checkpointKey, checkpointNameRule, isCheckpointKey, isCheckpointName } from './checkpoint-name.js';
import { type FileState, listFileState, localObjectsState, s3ObjectsState } from './file-state.js';
import { CheckpointMissing, SqlState } from './sql-state.js';

/** What the admin API and `start()` call to reset and checkpoint the services' data. */
export interface StateControl {
  reset(ids?: string[]): Promise<void>;
  checkpoint(name: string, ids?: string[]): Promise<void>;
  restore(name: string, ids?: string[]): Promise<void>;
  checkpoints(): Promise<string[]>;
  /** Each checkpoint with the bytes it takes (its files, database copies and bucket objects). */
  checkpointSizes(): Promise<CheckpointSize[]>;
  /** Removes a checkpoint of the services served here; a name with none is `CheckpointNotFound`. */
  deleteCheckpoint(name: string): Promise<void>;
}

export interface CheckpointSize {
  name: string;
  bytes: number;
}

/** A service as the harness sees it: served (with its live snapshot hook) or only configured (the CLI). */
export interface StatefulService {
  id: string;
  schema?: string;
  settings: unknown;
  snapshot?: RunningService['snapshot'];
}

/** A request the harness refuses: a bad name, an unknown service, a missing checkpoint. */
export class StateError extends Error {
  override name = 'StateError';
}

/** The checkpoint asked for is not there (for the services asked for). */
export class CheckpointNotFound extends StateError {
  override name = 'CheckpointNotFound';
}

/**
 * The first-start state, captured once per database (for the list file and embedded objects, per data directory);
 * `reset` restores it. Users cannot name theirs so.
 */
export const SEED = '_seed';
const COMPLETE = 'complete';
/** Beside the services' folders of a checkpoint: its name as given (its folder may be a hash of it). */
const NAME_FILE = 'name';

interface Parts {
  id: string;
  sql?: SqlState;
  files: FileState[];
  /** Why this service's state cannot be checkpointed here, if it cannot. */
  unsupported?: string;
}

function partsOf(service: StatefulService, db: Database, dataDir: string): Parts {
  // biome-ignore lint/suspicious/noExplicitAny: each service's own settings, read where it has them
  const settings = service.settings as Record<string, any>;
  const files: FileState[] = [];
  if (service.id === 'list') {
    files.push(listFileState(settings.file ?? path.join(dataDir, 'list.json'), service.snapshot));
  }
  if (service.id === 'profiles' || service.id === 'content') {
    // Each service's own objects only; profiles' checkpoints of a bucket held its objects before content's did.
    const s3 = settings.s3 as S3Settings | undefined;
    const space = objectSpace(service.id);
    const capturedBefore = service.id === 'profiles';
    files.push(
      s3
        ? s3ObjectsState(s3, space, { capturedBefore })
        : localObjectsState(path.join(dataDir, 'objects'), space),
    );
  }
  const own = settings.datastore?.kind === 'networked' && settings.datastore.source === 'DATASTORE_URL';
  return {
    id: service.id,
    sql: service.schema && db.kind !== 'none' ? new SqlState(db, service.schema) : undefined,
    files,
    unsupported: own
      ? 'things keeps its data in the database at DATASTORE_URL, which checkpoints do not reach; unset DATASTORE_URL (things then uses DATABASE_URL)'
      : undefined,
  };
}

/**
 * Reset and checkpoints of the services of one backlot (running, or configured for the CLI): database rows and
 * sequences (per service schema, see SqlState), the list file, profiles' stored images and content's media. A checkpoint's files
 * live in `<dataDir>/checkpoints/<key>/<service>/`, whose `complete` marker is written last: a checkpoint a
 * crash interrupted does not count. A service whose state is all in the database (and bucket) is also marked
 * complete in the database, last: every process on that database lists and restores it, whatever its data
 * directory. Operations run one at a time.
 */
export class HarnessState implements StateControl {
  private readonly parts: Parts[];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    services: StatefulService[],
    db: Database,
    private readonly dataDir: string,
  ) {
    // Posts' writes are faked and keep nothing: it has no state to save.
    this.parts = services
      .map((s) => partsOf(s, db, dataDir))
      .filter((p) => p.sql || p.files.length > 0 || p.unsupported);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => {});
    return next;
  }

  private root(key: string) {
    return path.join(this.dataDir, 'checkpoints', key);
  }

  private dir(key: string, id: string) {
    return path.join(this.root(key), id);
  }

  private hasHere(key: string, id: string) {
    return existsSync(path.join(this.dir(key, id), COMPLETE));
  }

  /** Whether the whole of a service's state is where every process on its database finds it. */
  private static shared(part: Parts) {
    return Boolean(part.sql) && part.files.every((f) => f.shared);
  }

  /** The parts holding `key`, each with whether the database marks it complete. */
  private async holding(key: string, parts = this.parts): Promise<Map<string, { marked: boolean }>> {
    const found = new Map<string, { marked: boolean }>();
    for (const part of parts) {
      const marked = Boolean(part.sql && (await part.sql.marked()).has(key));
      // Shared state is the database's word: deleted from another data directory is deleted here too (a
      // checkpoint saved before the mark existed still counts while its database copy does).
      const held = HarnessState.shared(part)
        ? marked || (this.hasHere(key, part.id) && (await part.sql!.exists(key)))
        : this.hasHere(key, part.id);
      if (held) found.set(part.id, { marked });
    }
    return found;
  }

  /** The services named (all stateful ones when none are); stateless ones such as posts are skipped. */
  private chosen(ids: string[] | undefined): Parts[] {
    if (!ids || ids.length === 0) return this.parts;
    return [...new Set(ids)].flatMap((id) => {
      const part = this.parts.find((p) => p.id === id);
      if (part) return [part];
      if (id === 'posts') return [];
      throw new StateError(`unknown service "${id}" (not served here)`);
    });
  }

  private usable(parts: Parts[]) {
    const refused = parts.find((p) => p.unsupported);
    if (refused) throw new StateError(refused.unsupported);
    return parts;
  }

  /**
   * `name` is written beside the data, for listing; the first-start state has none, and is `ifAbsent`: a part
   * another process on the database already saved is left as it is (its files too, when they are shared).
   */
  private async capture(key: string, parts: Parts[], name?: string, ifAbsent = false) {
    if (name !== undefined) {
      await mkdir(this.root(key), { recursive: true, mode: 0o700 });
      await writeFile(path.join(this.root(key), NAME_FILE), name);
    }
    for (const part of parts) {
      const dir = this.dir(key, part.id);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const copied = (await part.sql?.capture(key, { ifAbsent })) ?? false;
      if (ifAbsent && part.sql && !copied && HarnessState.shared(part)) {
        // Another process on the database saved it; it marks it once its objects are saved too.
        await rm(dir, { recursive: true, force: true });
        continue;
      }
      for (const file of part.files) await file.capture(dir);
      await writeFile(path.join(dir, COMPLETE), `${new Date().toISOString()}\n`);
      if (copied) await part.sql?.mark(key, name ?? key);
    }
  }

  private async bringBack(key: string, parts: Parts[], name?: string) {
    const label = name === undefined ? 'the first-start state' : `checkpoint "${name}"`;
    const held = await this.holding(key, parts);
    const missing = parts.filter((p) => !held.has(p.id));
    if (missing.length > 0) {
      throw new CheckpointNotFound(`${label} has no data for ${missing.map((p) => p.id).join(', ')}`);
    }
    // Services are independent: restored side by side.
    await Promise.all(
      parts.map(async (part) => {
        const dir = this.dir(key, part.id);
        try {
          await part.sql?.restore(key);
        } catch (error) {
          if (error instanceof CheckpointMissing) {
            throw new CheckpointNotFound(`${label} has no database copy for ${part.id} (was it deleted?)`);
          }
          throw error;
        }
        for (const file of part.files) await file.restore(dir, held.get(part.id)?.marked);
      }),
    );
  }

  /**
   * Captures the first-start state of every service that has none yet (a first start, or a data directory
   * from before checkpoints existed: then the state at this start). Called once the services have started.
   */
  seed(): Promise<void> {
    return this.serial(async () => {
      const usable = this.parts.filter((p) => !p.unsupported);
      // A first-start state saved before it was marked in the database: marked now, for the other processes.
      for (const part of usable) {
        if (part.sql && this.hasHere(SEED, part.id) && !(await part.sql.marked()).has(SEED))
          if (await part.sql.exists(SEED)) await part.sql.mark(SEED, SEED);
      }
      const held = await this.holding(SEED, usable);
      await this.capture(
        SEED,
        usable.filter((p) => !held.has(p.id)),
        undefined,
        true,
      );
    });
  }

  reset(ids?: string[]): Promise<void> {
    return this.serial(async () => this.bringBack(SEED, this.usable(this.chosen(ids))));
  }

  checkpoint(name: string, ids?: string[]): Promise<void> {
    return this.serial(async () =>
      this.capture(checkpointKey(checkName(name)), this.usable(this.chosen(ids)), name),
    );
  }

  restore(name: string, ids?: string[]): Promise<void> {
    return this.serial(async () => {
      const key = checkpointKey(checkName(name));
      const parts = this.usable(this.chosen(ids));
      if (!ids || ids.length === 0) {
        // Without a list, every service the checkpoint holds (it may have been taken of some only).
        const holding = await this.holding(key, parts);
        const held = parts.filter((p) => holding.has(p.id));
        if (held.length === 0) throw new CheckpointNotFound(`no checkpoint named "${name}"`);
        return this.bringBack(key, held, name);
      }
      return this.bringBack(key, parts, name);
    });
  }

  /**
   * Removes what the services served here hold of `name`: the `complete` markers first (a delete cut short
   * leaves no half checkpoint to restore), then database copies, bucket objects and folders.
   */
  deleteCheckpoint(name: string): Promise<void> {
    return this.serial(async () => {
      const key = checkpointKey(checkName(name));
      const holding = await this.holding(key);
      const held = this.parts.filter((p) => holding.has(p.id));
      if (held.length === 0) throw new CheckpointNotFound(`no checkpoint named "${name}"`);
      for (const part of held) await rm(path.join(this.dir(key, part.id), COMPLETE), { force: true });
      for (const part of held) {
        await part.sql?.drop(key);
        for (const file of part.files) await file.drop?.(key);
        await rm(this.dir(key, part.id), { recursive: true, force: true });
      }
      // Other services' folders (a process serving fewer services) keep the checkpoint for them.
      const left = existsSync(this.root(key)) ? await readdir(this.root(key)) : [];
      if (left.every((entry) => entry === NAME_FILE))
        await rm(this.root(key), { recursive: true, force: true });
    });
  }

  /** The name stored under `key`, or undefined for a folder that is no user checkpoint. */
  private async nameOf(key: string): Promise<string | undefined> {
    if (!isCheckpointKey(key)) return undefined;
    if (!key.startsWith('_')) return key;
    const name = await readFile(path.join(this.root(key), NAME_FILE), 'utf8').catch(() => undefined);
    return isCheckpointName(name) && checkpointKey(name) === key ? name : undefined;
  }

  private async held(): Promise<{ name: string; key: string }[]> {
    const root = path.join(this.dataDir, 'checkpoints');
    const byKey = new Map<string, string>();
    // Those the database marks (saved from any data directory), then this data directory's.
    for (const part of this.parts.filter(HarnessState.shared)) {
      for (const [key, name] of await part.sql!.marked())
        if (isCheckpointKey(key) && isCheckpointName(name) && checkpointKey(name) === key)
          byKey.set(key, name);
    }
    for (const key of existsSync(root) ? await readdir(root) : []) {
      if (byKey.has(key)) continue;
      const name = await this.nameOf(key);
      if (name !== undefined && (await this.holding(key)).size > 0) byKey.set(key, name);
    }
    const found = [...byKey].map(([key, name]) => ({ name, key }));
    return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async checkpoints(): Promise<string[]> {
    return (await this.held()).map((c) => c.name);
  }

  async checkpointSizes(): Promise<CheckpointSize[]> {
    const sizes: CheckpointSize[] = [];
    for (const { name, key } of await this.held()) {
      let bytes = existsSync(this.root(key)) ? await folderBytes(this.root(key)) : 0;
      const holding = await this.holding(key);
      for (const part of this.parts) {
        if (!holding.has(part.id)) continue;
        bytes += (await part.sql?.bytes(key)) ?? 0;
        for (const file of part.files) bytes += (await file.bytes?.(key)) ?? 0;
      }
      sizes.push({ name, bytes });
    }
    return sizes;
  }

  /** Closes what checkpoints of a bucket opened. */
  async close(): Promise<void> {
    await this.queue;
    for (const part of this.parts) {
      for (const file of part.files) await (file as { close?(): Promise<void> }).close?.();
    }
  }
}

function checkName(name: string) {
  if (!isCheckpointName(name)) throw new StateError(`checkpoint name "${name}": use ${checkpointNameRule}`);
  return name;
}

/** The bytes of the files under `dir`. */
async function folderBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}
