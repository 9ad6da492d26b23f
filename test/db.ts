import { randomBytes } from 'node:crypto';
import { type Database, openEmbedded, openPostgres } from '../src/platform/database.js';

/** True when the suite runs against a networked PostgreSQL (`.ci/run` sets it); otherwise PGlite in memory. */
export const usingPostgres = Boolean(process.env.BACKLOT_TEST_DATABASE_URL);

/**
 * A fresh, empty database for one test: a new database on the test PostgreSQL server when
 * BACKLOT_TEST_DATABASE_URL is set (over TLS, verified with BACKLOT_TEST_DATABASE_CA), else in-memory PGlite.
 */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  const serverUrl = process.env.BACKLOT_TEST_DATABASE_URL;
  if (!serverUrl) return openEmbedded();
  const sslCaFile = process.env.BACKLOT_TEST_DATABASE_CA;
  const admin = await openPostgres({ url: serverUrl, source: 'BACKLOT_TEST_DATABASE_URL', sslCaFile }, 1);
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin.exec(`CREATE DATABASE ${name}`);
  await admin.close();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres({ url: url.toString(), source: 'BACKLOT_TEST_DATABASE_URL', sslCaFile });
  return Object.assign(db, { url: url.toString() });
}
