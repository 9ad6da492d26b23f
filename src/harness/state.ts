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

/** The first-start state, captured once per data directory; `reset` restores it. Users cannot name theirs so. */
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
 * crash interrupted does not count. Operations run one at a time.
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

  private has(key: string, id: string) {
    return existsSync(path.join(this.dir(key, id), COMPLETE));
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

  /** `name` is written beside the data, for listing; the first-start state has none. */
  private async capture(key: string, parts: Parts[], name?: string) {
    if (name !== undefined) {
      await mkdir(this.root(key), { recursive: true, mode: 0o700 });
      await writeFile(path.join(this.root(key), NAME_FILE), name);
    }
    for (const part of parts) {
      const dir = this.dir(key, part.id);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await part.sql?.capture(key);
      for (const file of part.files) await file.capture(dir);
      await writeFile(path.join(dir, COMPLETE), `${new Date().toISOString()}\n`);
    }
  }

  private async bringBack(key: string, parts: Parts[], name?: string) {
    const label = name === undefined ? 'the first-start state' : `checkpoint "${name}"`;
    const missing = parts.filter((p) => !this.has(key, p.id));
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
        for (const file of part.files) await file.restore(dir);
      }),
    );
  }

  /**
   * Captures the first-start state of every service that has none yet (a first start, or a data directory
   * from before checkpoints existed: then the state at this start). Called once the services have started.
   */
  seed(): Promise<void> {
    return this.serial(() =>
      this.capture(
        SEED,
        this.parts.filter((p) => !p.unsupported && !this.has(SEED, p.id)),
      ),
    );
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
        const held = parts.filter((p) => this.has(key, p.id));
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
      const held = this.parts.filter((p) => this.has(key, p.id));
      if (held.length === 0) throw new CheckpointNotFound(`no checkpoint named "${name}"`);
      for (const part of held) await rm(path.join(this.dir(key, part.id), COMPLETE));
      for (const part of held) {
        await part.sql?.drop(key);
        for (const file of part.files) await file.drop?.(key);
        await rm(this.dir(key, part.id), { recursive: true, force: true });
      }
      // Other services' folders (a process serving fewer services) keep the checkpoint for them.
      const left = await readdir(this.root(key));
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
    if (!existsSync(root)) return [];
    const found: { name: string; key: string }[] = [];
    for (const key of await readdir(root)) {
      const name = await this.nameOf(key);
      if (name !== undefined && this.parts.some((p) => this.has(key, p.id))) found.push({ name, key });
    }
    return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async checkpoints(): Promise<string[]> {
    return (await this.held()).map((c) => c.name);
  }

  async checkpointSizes(): Promise<CheckpointSize[]> {
    const sizes: CheckpointSize[] = [];
    for (const { name, key } of await this.held()) {
      let bytes = await folderBytes(this.root(key));
      for (const part of this.parts) {
        if (!this.has(key, part.id)) continue;
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
