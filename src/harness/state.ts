import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../platform/database.js';
import { objectSpace, type S3Settings } from '../platform/objects.js';
import type { RunningService } from '../platform/service.js';
import { type FileState, listFileState, localObjectsState, s3ObjectsState } from './file-state.js';
import { CheckpointMissing, SqlState } from './sql-state.js';

/** What the admin API and `start()` call to reset and checkpoint the services' data. */
export interface StateControl {
  reset(ids?: string[]): Promise<void>;
  checkpoint(name: string, ids?: string[]): Promise<void>;
  restore(name: string, ids?: string[]): Promise<void>;
  checkpoints(): Promise<string[]>;
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

/** The first-start state, captured once per data directory; `reset` restores it. Users cannot name theirs so. */
export const SEED = '_seed';
const namePattern = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const COMPLETE = 'complete';

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
 * live in `<dataDir>/checkpoints/<name>/<service>/`, whose `complete` marker is written last: a checkpoint a
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

  private dir(name: string, id: string) {
    return path.join(this.dataDir, 'checkpoints', name, id);
  }

  private has(name: string, id: string) {
    return existsSync(path.join(this.dir(name, id), COMPLETE));
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

  private async capture(name: string, parts: Parts[]) {
    for (const part of parts) {
      const dir = this.dir(name, part.id);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await part.sql?.capture(name);
      for (const file of part.files) await file.capture(dir);
      await writeFile(path.join(dir, COMPLETE), `${new Date().toISOString()}\n`);
    }
  }

  private async bringBack(name: string, parts: Parts[]) {
    const label = name === SEED ? 'the first-start state' : `checkpoint "${name}"`;
    const missing = parts.filter((p) => !this.has(name, p.id));
    if (missing.length > 0) {
      throw new StateError(`${label} has no data for ${missing.map((p) => p.id).join(', ')}`);
    }
    // Services are independent: restored side by side.
    await Promise.all(
      parts.map(async (part) => {
        const dir = this.dir(name, part.id);
        try {
          await part.sql?.restore(name);
        } catch (error) {
          if (error instanceof CheckpointMissing) {
            throw new StateError(`${label} has no database copy for ${part.id} (was it deleted?)`);
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
    return this.serial(async () => this.capture(checkName(name), this.usable(this.chosen(ids))));
  }

  restore(name: string, ids?: string[]): Promise<void> {
    return this.serial(async () => {
      checkName(name);
      const parts = this.usable(this.chosen(ids));
      if (!ids || ids.length === 0) {
        // Without a list, every service the checkpoint holds (it may have been taken of some only).
        const held = parts.filter((p) => this.has(name, p.id));
        if (held.length === 0) throw new StateError(`no checkpoint named "${name}"`);
        return this.bringBack(name, held);
      }
      return this.bringBack(name, parts);
    });
  }

  async checkpoints(): Promise<string[]> {
    const root = path.join(this.dataDir, 'checkpoints');
    if (!existsSync(root)) return [];
    const names = (await readdir(root)).filter((n) => namePattern.test(n));
    return names.filter((n) => this.parts.some((p) => this.has(n, p.id))).sort();
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
  if (typeof name !== 'string' || !namePattern.test(name)) {
    throw new StateError(
      `checkpoint name "${name}": use 1 to 40 lower-case letters, digits, "_" and "-", starting with a letter or digit`,
    );
  }
  return name;
}
