import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { withEmbeddedCluster } from '../test/db.js';

// What each command loads, recorded by test/module-log.mjs (a resolve hook plus require's cache at exit).

const root = path.resolve(import.meta.dirname, '..');
const probe = path.join(root, 'test/module-log.mjs');
const sources = ['--import', 'tsx', path.join(root, 'src/cli.ts')];
const scratch = mkdtempSync(path.join(tmpdir(), 'backlot-loading-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const heavy = {
  graphql: /\/node_modules\/(mercurius|graphql)\//,
  'the S3 SDK': /\/node_modules\/@aws-sdk\/client-s3\//,
  PGlite: /\/node_modules\/@electric-sql\/pglite\//,
  pg: /\/node_modules\/pg\//,
  fastify: /\/node_modules\/fastify\//,
  sharp: /\/node_modules\/(sharp|@img)\//,
};

let runs = 0;

/**
 * Runs the command line with `args` and returns the files it loaded. With `until`, waits for that text on stdout
 * (the banner), then stops the process with SIGTERM.
 */
async function loaded(
  command: string[],
  args: string[],
  options: { until?: string; env?: Record<string, string> } = {},
) {
  const log = path.join(scratch, `modules-${++runs}.txt`);
  // The cluster a first start of the built package copies (no initdb; what loads is the same).
  await withEmbeddedCluster(path.join(scratch, `data-${runs}`));
  const child = spawn(process.execPath, [...command, ...args], {
    env: {
      PATH: process.env.PATH,
      BACKLOT_HASH_COST: 'low',
      LOG_LEVEL: 'warn',
      BACKLOT_DATA_DIR: path.join(scratch, `data-${runs}`),
      NODE_OPTIONS: `--import=${probe}`,
      BACKLOT_MODULE_LOG: log,
      SHUTDOWN_DRAIN_MS: '0',
      ...options.env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => {
    stdout += d;
    if (options.until && stdout.includes(options.until) && !child.killed) child.kill('SIGTERM');
  });
  return new Promise<string[]>((resolve, reject) => {
    child.on('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`exit ${code ?? signal}: ${stderr} ${stdout}`));
      const files = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      resolve(files.map((f) => (f.startsWith('file:') ? fileURLToPath(f) : f)));
    });
  });
}

function assertNotLoaded(files: string[], names: (keyof typeof heavy)[], label: string) {
  for (const name of names) {
    const hit = files.find((f) => heavy[name].test(f));
    assert.equal(hit, undefined, `${label} loaded ${name} (${hit})`);
  }
}

const serviceModule = (id: string) => new RegExp(`/src/services/${id}/index\\.ts$`);

describe('what the command line loads', () => {
  test('--help and --version load no service, no HTTP framework and no database driver', async () => {
    for (const flag of ['--help', '--version']) {
      const files = await loaded(sources, [flag]);
      assert.ok(
        files.some((f) => f.endsWith('/src/cli.ts')),
        'the log saw the program itself',
      );
      assertNotLoaded(files, ['graphql', 'the S3 SDK', 'PGlite', 'pg', 'fastify', 'sharp'], flag);
      assert.equal(
        files.find((f) => /\/src\/services\/\w+\/index\.ts$/.test(f)),
        undefined,
        flag,
      );
    }
  });

  test('serve list loads Fastify and the list service only: no GraphQL, S3 SDK, PGlite or pg', async () => {
    const files = await loaded(sources, ['serve', 'list', '--port', '0', '--host', '127.0.0.1'], {
      until: 'docs http',
    });
    assert.ok(
      files.some((f) => heavy.fastify.test(f)),
      'the log saw Fastify (a CommonJS package)',
    );
    assert.ok(files.some((f) => serviceModule('list').test(f)));
    assertNotLoaded(files, ['graphql', 'the S3 SDK', 'PGlite', 'pg'], 'serve list');
    for (const other of ['profiles', 'things', 'employees', 'posts', 'machines', 'content']) {
      assert.equal(
        files.find((f) => serviceModule(other).test(f)),
        undefined,
        `serve list loaded ${other}`,
      );
    }
  });

  test('serve profiles on the embedded database loads GraphQL and PGlite, but neither the S3 SDK nor pg', async () => {
    const files = await loaded(sources, ['serve', 'profiles', '--port', '0', '--host', '127.0.0.1'], {
      until: 'docs http',
    });
    assert.ok(
      files.some((f) => heavy.graphql.test(f)),
      'mercurius/graphql loaded',
    );
    assert.ok(
      files.some((f) => heavy.PGlite.test(f)),
      'PGlite loaded',
    );
    assertNotLoaded(files, ['the S3 SDK', 'pg'], 'serve profiles without STORAGE_*');
  });

  test('serve content loads the content service but not sharp: images load it on their first upload', async () => {
    const files = await loaded(sources, ['serve', 'content', '--port', '0', '--host', '127.0.0.1'], {
      until: 'docs http',
    });
    assert.ok(files.some((f) => serviceModule('content').test(f)));
    assertNotLoaded(files, ['graphql', 'the S3 SDK', 'pg', 'sharp'], 'serve content');
  });

  test('an operator command loads neither GraphQL nor the S3 SDK', async () => {
    const files = await loaded(sources, ['machines', 'token', 'list']);
    assert.ok(files.some((f) => serviceModule('machines').test(f)));
    assertNotLoaded(files, ['graphql', 'the S3 SDK', 'pg'], 'backlot machines token list');
  });

  test('bin/backlot.js runs the compiled output in dist/, without tsx', async (t) => {
    if (!existsSync(path.join(root, 'dist/cli.js'))) {
      assert.fail('dist/ is missing: npm ci builds it (the prepare script), or run npm run build');
    }
    const files = await loaded([path.join(root, 'bin/backlot.js')], ['--version']);
    assert.ok(files.some((f) => f.endsWith('/dist/cli.js')));
    assert.equal(
      files.find((f) => /\/node_modules\/tsx\/|\/src\/cli\.ts$/.test(f)),
      undefined,
    );
    t.diagnostic(`${files.length} files loaded by --version`);
  });
});
