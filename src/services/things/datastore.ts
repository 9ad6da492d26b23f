import { ConfigError } from '../../config.js';
import { type Database, DatabaseError, isUnavailable, openPostgres } from '../../platform/database.js';
import { migrate } from '../../platform/migrations.js';
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
    await migrate(db, 'things', migrations).catch((error: Error & { code?: string }) => {
      if (isUnavailable(error) || !error.code) throw error;
      throw new DatabaseError(
        `${store.source}: cannot set up schema things as role "${decodeURIComponent(url.username)}": ${error.message}`,
      );
    });
    await ensureReaderMembership(db, store.source);
    await ensureTablePrivileges(db, store.source);
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

/** A role that may not use the tables would fail every request with a 500; refuse to start instead. */
async function ensureTablePrivileges(db: Database, where: string) {
  const { rows } = await db.query<{ ok: boolean; role: string }>(
    `SELECT current_user AS role, has_schema_privilege('things', 'USAGE') AND bool_and(has_table_privilege('things.' || t, p)) AS ok
     FROM unnest(array['users', 'tokens', 'things', 'rate_limits']) AS t,
          unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE']) AS p`,
  );
  if (!rows[0].ok) {
    throw new DatabaseError(
      `${where}: role "${rows[0].role}" may not read and write the tables of schema things; grant it USAGE on the schema and SELECT, INSERT, UPDATE, DELETE on its tables (or let it own them)`,
    );
  }
}

/** `SET LOCAL ROLE` needs the connecting role to be a member of the reader role. */
async function ensureReaderMembership(db: Database, where: string) {
  const member = async () =>
    (
      await db.query<{ member: boolean; role: string }>(
        `SELECT current_user AS role, pg_has_role(current_user, $1, 'MEMBER') AS member`,
        [READER_ROLE],
      )
    ).rows[0];
  if ((await member()).member) return;
  try {
    await db.exec(`GRANT ${READER_ROLE} TO CURRENT_USER`);
  } catch {
    // Reported below with what the operator has to do.
  }
  const { member: isMember, role } = await member();
  if (!isMember) {
    throw new DatabaseError(
      `${where}: role "${role}" is not a member of ${READER_ROLE}; as an administrator run GRANT ${READER_ROLE} TO "${role}"`,
    );
  }
}
