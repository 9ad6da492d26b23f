import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { freePort } from '../support/postgres.js';
import { withEmbeddedCluster } from './db.js';

/**
 * Every shell example of README.md and docs/*.md (```sh, ```bash, ```console, ```shell), run as the page says:
 * a line that serves (`npx backlot`, `backlot serve posts`, with its settings) starts the program and waits for its
 * banner; a block without one runs beside `backlot` (all seven). Other lines run in bash, `npx backlot` being this
 * clone's command line. A `# …` line after a command is its output as shown (`…` stands for anything, and `4f1c…`
 * for a generated value that later lines of the block use, which are then given the real one); a trailing
 * `# 503 …` says the status a curl answers; otherwise a command must exit 0 and a curl answer 2xx. A block after
 * `<!-- not-run: reason -->` is listed, not run. The documented ports are mapped to free ones.
 */
const root = path.resolve(import.meta.dirname, '..');
const pages = ['README.md', ...readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

interface Block {
  page: string;
  line: number;
  text: string;
  notRun?: string;
}

function blocksOf(page: string): Block[] {
  const source = readFileSync(path.join(root, page), 'utf8');
  const blocks: Block[] = [];
  for (const m of source.matchAll(/```(?:sh|bash|console|shell)\n([\s\S]*?)```/g)) {
    const before = source.slice(0, m.index).trimEnd();
    const notRun = /<!-- not-run: (.+?) -->$/.exec(before)?.[1];
    blocks.push({ page, line: source.slice(0, m.index).split('\n').length, text: m[1] as string, notRun });
  }
  return blocks;
}

interface Command {
  line: string;
  shown: string[];
  status?: number;
}

/** Lines joined at `\`, each with the `# …` lines after it (its output) and a trailing `# NNN` status. */
function commandsOf(text: string): Command[] {
  const commands: Command[] = [];
  for (const raw of text.replace(/\\\n\s*/g, '').split('\n')) {
    if (!raw.trim()) continue;
    const shown = /^# (.*)$/.exec(raw);
    if (shown) {
      commands.at(-1)?.shown.push(shown[1] as string);
      continue;
    }
    const trailing = /\s+#\s+(.*)$/.exec(raw);
    const status = trailing && /^(\d{3})\b/.exec(trailing[1] as string)?.[1];
    commands.push({
      line: trailing ? raw.slice(0, trailing.index) : raw,
      shown: [],
      status: Number(status) || undefined,
    });
  }
  return commands;
}

/** `VAR=x npx backlot [serve ids…] [--flag value…]`: a line that starts the program rather than asks it. */
const serving =
  /^(?!.*\s--(?:help|version)\b)((?:[A-Z_]+=(?:'[^']*'|\S+)\s+)*)(?:npx\s+)?backlot(\s+serve(?:\s+[a-z]+)*)?(\s+--[a-z-]+(?:\s+[^-\s]\S*)?)*\s*$/;

const togetherPorts: Record<string, number> = {
  profiles: 8080,
  things: 8081,
  employees: 8082,
  posts: 8083,
  machines: 8084,
  content: 8085,
  list: 3333,
};

/** `4f1c…`: a generated value shown shortened; `…` alone: anything. Returns the pattern and the shortened names. */
function shownPattern(shown: string) {
  const names: string[] = [];
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = shown
    .split(/([A-Za-z0-9]+…|\s*…\s*)/)
    .map((part, i) => {
      if (i % 2 === 0) return literal(part);
      if (part.trim() === '…') return '[\\s\\S]*?';
      names.push(part);
      return '([^"\\s,}]+)';
    })
    .join('');
  return { regex: new RegExp(`^${pattern}$`), names };
}

interface Server {
  child: ChildProcess;
  ports: Map<number, number>;
}

async function startServer(env: Record<string, string>, args: string[], base: Record<string, string>) {
  const ports = new Map<number, number>();
  const portEnv: Record<string, string> = { ADMIN_PORT: String(await freePort()) };
  ports.set(8090, Number(portEnv.ADMIN_PORT));
  const ids = args.slice(1).filter((a, i, all) => !a.startsWith('-') && !all[i - 1]?.startsWith('-'));
  const alone = args[0] === 'serve' && ids.length === 1;
  // `--port 9000` as written, on a free port the page's 9000 is mapped to.
  const portFlag = args.indexOf('--port');
  if (portFlag !== -1) {
    const free = await freePort();
    ports.set(Number(args[portFlag + 1]), free);
    args = args.with(portFlag + 1, String(free));
  }
  for (const [id, port] of Object.entries(togetherPorts)) {
    const free = await freePort();
    portEnv[`${id.toUpperCase()}_PORT`] = String(free);
    const documented = alone && id === ids[0] ? (id === 'list' ? 3333 : 8080) : port;
    if (!ports.has(documented)) ports.set(documented, free);
  }
  const child = spawn('backlot', args, { env: { ...base, ...portEnv, ...env }, detached: true });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      out += d;
      if (/admin +http/.test(out)) resolve();
    });
    child.stderr?.on('data', (d) => (out += d));
    child.on('exit', (code) =>
      reject(new Error(`backlot ${args.join(' ')} exited (${code}) before its banner: ${out}`)),
    );
  });
  return { child, ports } satisfies Server;
}

function run(line: string, env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('bash', ['-c', line], { env, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The shims every block runs with: `backlot` is this clone's command line, `curl` reports each answer's status. */
async function makeWork() {
  const work = mkdtempSync(path.join(tmpdir(), 'backlot-docs-'));
  const bin = path.join(work, 'bin');
  const realCurl = (await run('command -v curl', { PATH: process.env.PATH ?? '' }, work)).stdout.trim();
  const cli = path.join(root, 'src/cli.ts');
  const tsx = import.meta.resolve('tsx');
  writeFileSync(
    path.join(work, 'shims.sh'),
    `mkdir -p ${bin}
printf '#!/bin/sh\\nexec ${process.execPath} --import ${tsx} ${cli} "$@"\\n' > ${bin}/backlot
# Each answer's status on stderr's last line, for the test to check.
printf '#!/bin/sh\\nexec ${realCurl} -w "%%{stderr}\\\\nstatus %%{http_code}\\\\n" "$@"\\n' > ${bin}/curl
`,
  );
  await run(`bash ${path.join(work, 'shims.sh')}`, { PATH: process.env.PATH ?? '' }, work);
  chmodSync(path.join(bin, 'backlot'), 0o755);
  chmodSync(path.join(bin, 'curl'), 0o755);
  return { work, bin };
}

let shims: ReturnType<typeof makeWork> | undefined;
let dataDirs = 0;

/** The environment of a block's commands and servers, on a data directory of its own. */
async function blockEnv() {
  shims ??= makeWork();
  const { work, bin } = await shims;
  const dataDir = path.join(work, `data-${++dataDirs}`);
  // What a first start of the installed package copies (dist/embedded-template), instead of initdb in each start.
  await withEmbeddedCluster(dataDir);
  const base = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: process.env.HOME ?? work,
    BACKLOT_DATA_DIR: dataDir,
    BACKLOT_HASH_COST: 'low',
    SHUTDOWN_DRAIN_MS: '0',
    LOG_LEVEL: 'warn',
  };
  return { base, work };
}

/**
 * `backlot` (all seven, no settings), which every block without a serving line runs beside: started once and put
 * back to its first-start state (the admin's reset) before each block after the first, as a fresh start would be.
 */
let plain: Promise<{ server: Server; base: Record<string, string>; work: string }> | undefined;
let plainUsed = false;

async function plainServer() {
  plain ??= blockEnv().then(async (env) => ({ ...env, server: await startServer({}, [], env.base) }));
  const shared = await plain;
  if (plainUsed) {
    const admin = shared.server.ports.get(8090);
    const reset = await fetch(`http://127.0.0.1:${admin}/api/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(reset.status, 200, await reset.text());
  }
  plainUsed = true;
  return shared;
}

async function stop(server: Server) {
  server.child.kill('SIGINT');
  await new Promise((resolve) =>
    server.child.exitCode === null ? server.child.on('exit', resolve) : resolve(null),
  );
}

after(async () => {
  if (plain) await stop((await plain).server);
  if (shims) rmSync((await shims).work, { recursive: true, force: true });
});

async function runBlock(block: Block) {
  const commands = commandsOf(block.text).map((c) => ({
    ...c,
    line: c.line.replace(/\bnpx backlot\b/g, 'backlot'),
  }));
  const servesItself = commands.some((c) => serving.test(c.line));
  const { base, work, server } = servesItself
    ? { ...(await blockEnv()), server: undefined }
    : await plainServer();
  const servers: Server[] = server ? [server] : [];
  const own: Server[] = [];
  const captured = new Map<string, string>();
  try {
    for (const command of commands) {
      const starts = serving.exec(command.line);
      if (starts) {
        const env = Object.fromEntries(
          [...(starts[1] ?? '').matchAll(/([A-Z_]+)=(?:'([^']*)'|(\S+))/g)].map((m) => [m[1], m[2] ?? m[3]]),
        );
        const args = command.line
          .slice((starts[1] ?? '').length)
          .trim()
          .split(/\s+/)
          .slice(1);
        const started = await startServer(env, args, base);
        servers.push(started);
        own.push(started);
        continue;
      }
      let line = command.line;
      for (const [shortened, value] of captured) line = line.replaceAll(shortened, value);
      for (const [documented, actual] of servers.at(-1)?.ports ?? []) {
        line = line.replace(new RegExp(`(localhost|127\\.0\\.0\\.1):${documented}\\b`, 'g'), `$1:${actual}`);
      }
      const where = `${block.page}:${block.line}: ${command.line}`;
      const result = await run(line, base, work);
      assert.equal(result.code, 0, `${where}\nexit ${result.code}: ${result.stderr}`);
      const statuses = [...result.stderr.matchAll(/^status (\d{3})$/gm)].map((m) => Number(m[1]));
      for (const status of statuses) {
        if (command.status) assert.equal(status, command.status, `${where}\n${result.stdout}`);
        else assert.ok(status >= 200 && status < 300, `${where}\nstatus ${status}: ${result.stdout}`);
      }
      if (command.shown.length > 0) {
        const { regex, names } = shownPattern(command.shown.join('\n'));
        const match = regex.exec(result.stdout.trim());
        assert.ok(match, `${where}\nshown:\n${command.shown.join('\n')}\nprinted:\n${result.stdout}`);
        for (const [i, name] of names.entries()) captured.set(name, match[i + 1] as string);
      }
    }
  } finally {
    for (const s of own) await stop(s);
  }
}

const blocks = pages.flatMap(blocksOf);

test('the shell examples that are not run say why', (t) => {
  for (const b of blocks.filter((b) => b.notRun !== undefined)) {
    assert.ok(b.notRun && b.notRun.length > 5, `${b.page}:${b.line}: the not-run marker gives a reason`);
    t.diagnostic(`not run: ${b.page}:${b.line} (${b.notRun})`);
  }
});

for (const block of blocks.filter((b) => b.notRun === undefined)) {
  test(`${block.page}:${block.line} answers as shown`, { timeout: 180_000 }, () => runBlock(block));
}
