import { ConfigError } from '../../config.js';
import { type Database, DatabaseError, migrate, openPostgres } from '../../platform/database.js';
import { newToken } from '../../platform/secrets.js';
import type { ServiceContext } from '../../platform/service.js';
import { migrations, READER_ROLE } from './migrations.js';
import type { ThingsSettings } from './settings.js';

export interface Datastore {
  db: Database;
  /** What the banner says about the datastore secret. */
  banner: string[];
  close(): Promise<void>;
}

/**
 * The database things keeps its data in. With DATASTORE_URL (or DATABASE_URL) it connects on its own, as
 * the URL's role with DATASTORE_SECRET as the password; otherwise it uses the process's database (embedded
 * PGlite by default), where the secret is generated once and kept in the data directory.
 */
export async function openDatastore(ctx: ServiceContext<ThingsSettings>): Promise<Datastore> {
  const store = ctx.settings.datastore;
  if (store.kind === 'shared') {
    await ensureReaderMembership(ctx.db, 'the database');
    return { db: ctx.db, banner: sharedSecretBanner(ctx, store.secret), close: async () => {} };
  }
  const url = new URL(store.url);
  url.password = store.secret;
  let db: Database;
  try {
    db = await openPostgres({
      url: url.toString(),
      source: store.source,
      sslCaFile: ctx.global.database.sslCaFile,
    });
  } catch (error) {
    if (error instanceof DatabaseError && /authentication failed/.test(error.message)) {
      throw new ConfigError(
        `DATASTORE_SECRET: rejected by ${store.source} as the password of role "${decodeURIComponent(url.username)}"`,
      );
    }
    throw error;
  }
  try {
    await migrate(db, 'things', migrations);
    await ensureReaderMembership(db, store.source);
  } catch (error) {
    await db.close();
    throw error;
  }
  return { db, banner: [], close: () => db.close() };
}

function sharedSecretBanner(ctx: ServiceContext<ThingsSettings>, configured?: string): string[] {
  if (configured) return [];
  let secret = ctx.credentials.recall('things', 'DATASTORE_SECRET');
  if (!secret) {
    secret = newToken();
    ctx.credentials.remember('things', 'DATASTORE_SECRET', secret);
  }
  return [`DATASTORE_SECRET (generated, kept in the data directory): ${secret}`];
}

/** `SET LOCAL ROLE` needs the connecting role to be a member of the reader role. */
async function ensureReaderMembership(db: Database, where: string) {
  const member = async () =>
    (
      await db.query<{ member: boolean }>(`SELECT pg_has_role(current_user, $1, 'MEMBER') AS member`, [
        READER_ROLE,
      ])
    ).rows[0]?.member;
  if (await member()) return;
  try {
    await db.exec(`GRANT ${READER_ROLE} TO CURRENT_USER`);
  } catch {
    // Reported below with what the operator has to do.
  }
  if (!(await member())) {
    throw new DatabaseError(
      `${where}: the connecting role is not a member of ${READER_ROLE}; as an administrator run GRANT ${READER_ROLE} TO <that role>`,
    );
  }
}
