import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cp } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../support/postgres.js';
import { backlotSeed, type WordPressSeed } from './wordpress-seed.js';

/** A real WordPress (Debian's package) seeded like backlot's first start, for differential tests. */
export interface TestWordPress {
  /** `http://127.0.0.1:<port>`; the REST API is under `/wp-json`. */
  url: string;
  /** An application password of `admin` (HTTP Basic). */
  adminAppPassword: string;
  /** An application password for each seeded login. */
  appPasswords: Record<string, string>;
  /** `$wp_version` of the installed package, e.g. `6.1.9`. */
  version: string;
  stop(): Promise<void>;
}

const WORDPRESS = '/usr/share/wordpress';
const MARIADBD = '/usr/sbin/mariadbd';
const PHP_FILES = new URL('./wordpress/', import.meta.url).pathname;
const required: [string, string][] = [
  [`${WORDPRESS}/wp-includes/version.php`, 'wordpress'],
  ['/usr/bin/php', 'php-cli'],
  ['/usr/sbin/mariadbd', 'mariadb-server'],
  ['/usr/bin/mariadb-install-db', 'mariadb-server'],
];

/** The apt packages that are missing, if any (the test skips or fails on them, with this list). */
export function missingWordPressPackages(): string[] {
  const missing = new Set(required.filter(([file]) => !existsSync(file)).map(([, pkg]) => pkg));
  if (!missing.has('php-cli')) {
    const modules = execFileSync('php', ['-m'], { encoding: 'utf8' });
    if (!/^mysqli$/m.test(modules)) missing.add('php-mysql');
  }
  return [...missing];
}

export function wordPressVersion(): string {
  const source = readFileSync(`${WORDPRESS}/wp-includes/version.php`, 'utf8');
  return /\$wp_version = '([^']+)'/.exec(source)?.[1] ?? 'unknown';
}

const isRoot = process.getuid?.() === 0;
/** mariadbd refuses to run as root: it runs as `mysql` then, and owns its directory. */
const asMysql = (args: string[]) => (isRoot ? [...args, '--user=mysql'] : args);
const giveToMysql = (target: string) => {
  if (isRoot) execFileSync('chown', ['-R', 'mysql:mysql', target]);
};

/** A document root that is Debian's WordPress with our wp-config.php: PHP resolves symlinks in __FILE__, so
 * the top-level scripts (which define ABSPATH from their own directory) are copies, the rest links. */
function makeDocroot(dir: string) {
  mkdirSync(dir);
  for (const entry of readdirSync(WORDPRESS)) {
    const from = path.join(WORDPRESS, entry);
    if (entry === 'wp-config.php' || entry === 'wp-content') continue;
    if (entry.endsWith('.php')) copyFileSync(from, path.join(dir, entry));
    else symlinkSync(from, path.join(dir, entry));
  }
  copyFileSync(path.join(PHP_FILES, 'wp-config.php'), path.join(dir, 'wp-config.php'));
  mkdirSync(path.join(dir, 'wp-content', 'uploads'), { recursive: true });
  mkdirSync(path.join(dir, 'wp-content', 'plugins'));
  symlinkSync(path.join(WORDPRESS, 'wp-content', 'themes'), path.join(dir, 'wp-content', 'themes'));
}

async function waitFor(
  what: string,
  ready: () => boolean | Promise<boolean>,
  child: ChildProcess,
  log: () => string,
) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}): ${log()}`);
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not start in 30 s: ${log()}`);
}

interface Mariadb {
  socket: string;
  stop(): Promise<void>;
}

/** mariadbd on a unix socket only (no TCP port to collide on), data in `data`, root without a password. */
async function startMariadb(dir: string, data: string): Promise<Mariadb> {
  const socket = path.join(dir, 'mysql.sock');
  const errorLog = path.join(dir, 'mariadb.err');
  giveToMysql(dir);
  const args = asMysql([
    '--no-defaults',
    `--datadir=${data}`,
    `--socket=${socket}`,
    `--pid-file=${path.join(dir, 'mariadb.pid')}`,
    `--log-error=${errorLog}`,
    '--skip-networking',
    '--skip-log-bin',
    '--innodb-buffer-pool-size=32M',
    '--innodb-log-file-size=16M',
    '--innodb-flush-log-at-trx-commit=0',
  ]);
  const child = spawn(MARIADBD, args, { stdio: 'ignore' });
  const log = () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8').slice(-2000) : '');
  await waitFor('mariadbd', () => existsSync(socket), child, log);
  return {
    socket,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM'); // a clean shutdown, so the data directory can be cached and reused
      }),
  };
}

function sql(socket: string, statement: string) {
  execFileSync('mariadb', ['--no-defaults', '-S', socket, '-uroot', '-e', statement], { stdio: 'pipe' });
}

/** The seed is run with this site URL; each start rewrites stored URLs (guids) to its own. */
const SEED_URL = 'http://wordpress.invalid';

/** Installs and seeds WordPress into a new data directory `data`; answers each login's application password. */
async function buildSeededData(
  dir: string,
  data: string,
  seed: WordPressSeed,
): Promise<Record<string, string>> {
  mkdirSync(dir, { recursive: true });
  giveToMysql(dir);
  execFileSync(
    'mariadb-install-db',
    asMysql([
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--skip-name-resolve',
    ]),
    { stdio: 'pipe' },
  );
  const db = await startMariadb(dir, data);
  try {
    sql(db.socket, 'CREATE DATABASE wordpress CHARACTER SET utf8mb4');
    const docroot = path.join(dir, 'seed-docroot');
    makeDocroot(docroot);
    writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(seed));
    const output = execFileSync(
      'php',
      [path.join(PHP_FILES, 'seed.php'), docroot, path.join(dir, 'seed.json')],
      {
        encoding: 'utf8',
        env: { ...process.env, BACKLOT_WP_DB_SOCKET: db.socket, BACKLOT_WP_URL: SEED_URL },
      },
    );
    rmSync(docroot, { recursive: true, force: true });
    return JSON.parse(output.trim().split('\n').at(-1) ?? '{}');
  } finally {
    await db.stop();
  }
}

/** Seeded data directories are cached by everything that shapes them: seed, PHP files, package versions. */
/** Backlot's seed comes from these files (seed.ts has no imports); hashing them avoids reading the seed on a hit. */
const SEED_SOURCES = ['seed.ts', 'migrations.ts', 'settings.ts'].map(
  (file) => new URL(`../src/services/content/${file}`, import.meta.url).pathname,
);

function cacheKey(seed: WordPressSeed | undefined): string {
  const hash = createHash('sha256');
  if (seed) hash.update(JSON.stringify(seed));
  else for (const file of SEED_SOURCES) hash.update(readFileSync(file));
  for (const file of ['seed.php', 'wp-config.php']) hash.update(readFileSync(path.join(PHP_FILES, file)));
  hash.update(wordPressVersion()).update(String(statSync(MARIADBD).mtimeMs));
  return hash.digest('hex').slice(0, 16);
}

const cacheRoot = path.join(
  process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'),
  'backlot',
  'wordpress',
);

/** The seeded data directory for `seed` (backlot's own when undefined), built on a cache miss. */
async function cachedData(
  seed: WordPressSeed | undefined,
): Promise<{ data: string; passwords: Record<string, string> }> {
  const entry = path.join(cacheRoot, cacheKey(seed));
  if (!existsSync(path.join(entry, 'app-passwords.json'))) {
    // Built under /tmp (mysql cannot enter root's home), then copied next to the entry and renamed into place,
    // so concurrent test processes never see half of it.
    const building = mkdtempSync(path.join(tmpdir(), 'backlot-wp-seed-'));
    mkdirSync(cacheRoot, { recursive: true });
    const partial = mkdtempSync(path.join(cacheRoot, 'partial-'));
    try {
      const passwords = await buildSeededData(
        building,
        path.join(building, 'data'),
        seed ?? (await backlotSeed()),
      );
      cpSync(path.join(building, 'data'), path.join(partial, 'data'), { recursive: true });
      writeFileSync(path.join(partial, 'app-passwords.json'), JSON.stringify(passwords));
      try {
        renameSync(partial, entry);
      } catch (error) {
        if (!existsSync(path.join(entry, 'app-passwords.json'))) throw error;
      }
    } finally {
      rmSync(building, { recursive: true, force: true });
      rmSync(partial, { recursive: true, force: true });
    }
  }
  const passwords = JSON.parse(readFileSync(path.join(entry, 'app-passwords.json'), 'utf8'));
  return { data: path.join(entry, 'data'), passwords };
}

/** `php -S` on a free loopback port (another one if the port is taken between choosing and binding it). */
async function startPhp(docroot: string, socket: string): Promise<{ url: string; server: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const url = `http://127.0.0.1:${await freePort()}`;
    let output = '';
    const server = spawn(
      'php',
      ['-S', url.slice('http://'.length), '-t', docroot, path.join(PHP_FILES, 'router.php')],
      {
        env: { ...process.env, BACKLOT_WP_DB_SOCKET: socket, BACKLOT_WP_URL: url },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    server.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
    server.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
    try {
      const answers = async () => (await fetch(`${url}/wp-json/`).catch(() => undefined))?.status === 200;
      await waitFor('php -S', answers, server, () => output);
      return { url, server };
    } catch (error) {
      server.kill('SIGTERM');
      if (attempt === 3 || !/Address already in use/.test(output)) throw error;
    }
  }
}

/**
 * Starts WordPress 6.1 from Debian's packages: MariaDB in a temporary directory, the seeded database copied
 * from the cache (built on first use), and `php -S` with a router for pretty permalinks on a free loopback port.
 */
export async function startWordPress(options: { seed?: WordPressSeed } = {}): Promise<TestWordPress> {
  const missing = missingWordPressPackages();
  if (missing.length > 0) throw new Error(`WordPress needs apt packages: ${missing.join(' ')}`);
  const cached = await cachedData(options.seed);
  const dir = mkdtempSync(path.join(tmpdir(), 'backlot-wp-'));
  const data = path.join(dir, 'data');
  await cp(cached.data, data, { recursive: true });
  const db = await startMariadb(dir, data);
  let php: ChildProcess | undefined;
  try {
    const docroot = path.join(dir, 'docroot');
    makeDocroot(docroot);
    const started = await startPhp(docroot, db.socket);
    php = started.server;
    const { url, server } = started;
    sql(db.socket, `UPDATE wordpress.wp_posts SET guid = REPLACE(guid, '${SEED_URL}', '${url}')`);
    return {
      url,
      adminAppPassword: cached.passwords.admin ?? '',
      appPasswords: cached.passwords,
      version: wordPressVersion(),
      async stop() {
        await new Promise<void>((resolve) => {
          if (server.exitCode !== null) return resolve();
          server.once('exit', () => resolve());
          server.kill('SIGTERM');
        });
        await db.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    php?.kill('SIGTERM');
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * For tests against WordPress: a skip message when its packages are missing (or false to run), unless `CI` or
 * `BACKLOT_REQUIRE_WORDPRESS` is set: then nothing is skipped and `requireWordPress()` fails, naming them.
 */
export function wordPressSkip(): string | false {
  const missing = missingWordPressPackages();
  if (missing.length === 0 || process.env.CI || process.env.BACKLOT_REQUIRE_WORDPRESS) return false;
  return `WordPress is not installed (apt-get install ${missing.join(' ')}); with CI or BACKLOT_REQUIRE_WORDPRESS set this fails`;
}

export function requireWordPress() {
  const missing = missingWordPressPackages();
  if (missing.length > 0) {
    throw new Error(
      `tests against WordPress need the apt packages: ${missing.join(' ')} (apt-get install them)`,
    );
  }
}

/**
 * Starts another server, then WordPress; if WordPress fails, the other is closed before the error. One after the
 * other: WordPress's start-up copies and seeds on this thread, which can starve a database connection attempt.
 */
export async function startAlongside<T extends { close(): Promise<void> }>(
  start: () => Promise<T>,
): Promise<[TestWordPress, T]> {
  const other = await start();
  try {
    return [await startWordPress(), other];
  } catch (error) {
    await other.close();
    throw error;
  }
}
