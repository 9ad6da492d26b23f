import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  type Database,
  dumpEmbeddedTemplate,
  openEmbedded,
  openPostgres,
  seedFromTemplate,
} from '../src/platform/database.js';

/** True when the suite runs against a networked PostgreSQL (`.ci/run` sets it); otherwise PGlite in memory. */
export const usingPostgres = Boolean(process.env.BACKLOT_TEST_DATABASE_URL);

// The template is only valid for the PGlite build that made it (the package does not export its package.json).
const pgliteVersion: string = JSON.parse(
  readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8'),
).version;
const templateFile = path.join(tmpdir(), `backlot-pglite-template-${pgliteVersion}.tar`);
let template: Promise<Blob> | undefined;

/**
 * An empty PGlite data directory, made once per machine and PGlite version and shared by every test process:
 * loading it skips initdb, which is most of an in-memory database's start-up time.
 */
export function embeddedTemplate(): Promise<Blob> {
  template ??= (async () => {
    if (existsSync(templateFile)) return new Blob([readFileSync(templateFile)]);
    const blob = await dumpEmbeddedTemplate();
    const partial = `${templateFile}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
    renameSync(partial, templateFile);
    return blob;
  })();
  return template;
}

// Named after the template's form too (one tar.gz since issue 40), so a cache of an older build is not reused.
const clusterRoot = path.join(tmpdir(), `backlot-pglite-cluster-tgz-${pgliteVersion}`);
let cluster: Promise<string> | undefined;

/**
 * The cluster `npm run build` puts in dist/embedded-template (made by the same script), made once per machine and
 * PGlite version: the program run from its sources (tsx) has no dist/ to copy it from, and would spend seconds of
 * CPU in initdb on every first start.
 */
function embeddedCluster(): Promise<string> {
  cluster ??= (async () => {
    const made = path.join(clusterRoot, 'dist', 'embedded-template');
    if (existsSync(path.join(made, 'data.tar.gz'))) return made;
    const partial = `${clusterRoot}.${process.pid}`;
    mkdirSync(partial, { recursive: true });
    const script = new URL('../scripts/embedded-template.mjs', import.meta.url);
    await promisify(execFile)(process.execPath, [script.pathname], { cwd: partial });
    try {
      renameSync(partial, clusterRoot);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another test process made it first
    }
    return made;
  })();
  return cluster;
}

/**
 * Gives a data directory the embedded database a first start of the built program copies from dist/
 * (`seedFromTemplate`), for tests that start `src/cli.ts` where a user starts the package: same cluster, no initdb.
 */
export async function withEmbeddedCluster(dataDir: string): Promise<void> {
  await seedFromTemplate(path.join(dataDir, 'pg', 'data'), await embeddedCluster());
}

/**
 * A fresh, empty database for one test: a new database on the test PostgreSQL server when
 * BACKLOT_TEST_DATABASE_URL is set (over TLS, verified with BACKLOT_TEST_DATABASE_CA), else in-memory PGlite.
 */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  const serverUrl = process.env.BACKLOT_TEST_DATABASE_URL;
  if (!serverUrl) return openEmbedded(undefined, await embeddedTemplate());
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
