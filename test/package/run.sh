#!/usr/bin/env bash
# backlot as people get it from npm: packs the package, installs the tarball into a new project outside this clone,
# and there (a) runs a node:test file and (b) a vitest file that use start() from 'backlot', (c) type-checks the
# README's start() example as written under strict, and (d) serves posts with `npx backlot`. It also checks the
# tarball holds what runs and nothing else, and prints what an install of it weighs.
#
# Usage: test/package/run.sh   (needs the npm registry for the new project's dependencies)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
export npm_config_loglevel=error npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
work=$(mktemp -d "${TMPDIR:-/tmp}/backlot-package.XXXXXX")
server=
cleanup() {
  [ -n "$server" ] && kill -TERM -- "-$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# ---- the tarball ----------------------------------------------------------------------------------------------
# `npm pack` runs `prepare`, which builds dist/ when the sources changed.
npm pack --dry-run --json 2>/dev/null >"$work/contents.json"
if problems=$(node -e '
  const files = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[0].files.map((f) => f.path);
  const problems = [];
  // The embedded database template is one archive (dist/embedded-template/data.tar.gz), not a folder of files.
  const stray = files.filter((f) => /^(src|test|bench|scripts|docs|spec|dist\/embedded-template\/data)\//.test(f) || /\.test\.|\.spec\./.test(f));
  if (stray.length) problems.push(`holds what does not run: ${stray.slice(0, 5).join(", ")}${stray.length > 5 ? " …" : ""}`);
  for (const need of ["bin/backlot.js", "dist/cli.js", "dist/index.js", "dist/index.d.ts", "dist/embedded-template/data.tar.gz",
    "dist/embedded-template/pglite-version", "dist/services/profiles/ide/graphiql.js"])
    if (!files.includes(need)) problems.push(`lacks ${need}`);
  console.log(problems.join("; ") || `${files.length} files`);
  process.exit(problems.length ? 1 : 0);
' "$work/contents.json"); then
  pass "the tarball holds bin/ and dist/ only ($problems)"
else
  fail "the tarball holds what runs and nothing else: $problems"
fi
tarball=$work/$(npm pack --silent --pack-destination "$work" | tail -1)

# ---- what installing it weighs --------------------------------------------------------------------------------
mkdir "$work/bare"
# At loglevel warn, to see npm's EBADENGINE warnings.
(cd "$work/bare" && npm init -y >/dev/null && npm install --loglevel=warn "$tarball" >"$work/bare.log" 2>&1)
# On Node 20 npm warns of cookie@2 and content-disposition@3, which want 22 (README, "Node.js versions"); any other
# package that does not declare the running Node is a new problem.
engine_warnings=$(grep -o "package: '[^']*'" "$work/bare.log" | sed "s/package: '\(.*\)@.*'/\1/" | sort -u | tr '\n' ' ')
unexpected=$(for p in $engine_warnings; do
  case "$(node -p 'process.versions.node.split(".")[0]'):$p" in 20:cookie | 20:content-disposition) ;; *) printf '%s ' "$p" ;; esac
done)
if [ -z "$unexpected" ]; then
  pass "installing on Node $(node --version) warns of no unsupported engine${engine_warnings:+ but the documented ones ($engine_warnings)}"
else
  fail "installing on Node $(node --version) warns of no unsupported engine: $unexpected"
fi
printf 'install: %s (du -sh node_modules), %s packages (npm ls --all --omit=dev --parseable), %s lines of npm ls --all --omit=dev\n' \
  "$(du -sh "$work/bare/node_modules" | cut -f1)" \
  "$(cd "$work/bare" && npm ls --all --omit=dev --parseable 2>/dev/null | tail -n +2 | sort -u | wc -l)" \
  "$(cd "$work/bare" && npm ls --all --omit=dev 2>/dev/null | wc -l)"

# ---- a user's project -----------------------------------------------------------------------------------------
project=$work/project
mkdir "$project"
dev() { node -p "require('$repo/package.json').devDependencies['$1']"; }
(
  cd "$project"
  npm init -y >/dev/null
  npm pkg set type=module
  npm install "$tarball" "vitest@$(dev vitest)" "typescript@$(dev typescript)" "@types/node@$(dev @types/node)" >/dev/null
)
cp test/package/start.test.mjs test/package/start.spec.ts "$project/"
export BACKLOT_HASH_COST=low

# (a) node:test
if (cd "$project" && node --test --test-reporter=tap start.test.mjs >"$work/node-test.log" 2>&1); then
  pass "node:test: start() with two services, checkpoint, restore, reset, credentials, journal, faults changed while running ($(grep -c '^ok' "$work/node-test.log") tests)"
else
  tail -40 "$work/node-test.log"
  fail "node:test: start() from the installed package"
fi

# (b) vitest
if (cd "$project" && npx vitest run start.spec.ts >"$work/vitest.log" 2>&1); then
  pass "vitest: start() from the installed package"
else
  tail -40 "$work/vitest.log"
  fail "vitest: start() from the installed package"
fi

# (c) the README's example, exactly as written, and the vitest file, under strict
node -e '
  const readme = require("fs").readFileSync(process.argv[1], "utf8");
  const code = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("## In a test suite")))[1];
  require("fs").writeFileSync(process.argv[2], code);
' README.md "$project/readme-example.test.ts"
cat >"$project/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "strict": true,
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "types": ["node"],
    "noEmit": true
  },
  "include": ["readme-example.test.ts", "start.spec.ts"]
}
JSON
if (cd "$project" && npx tsc -p . >"$work/tsc.log" 2>&1); then
  pass "tsc --strict: the README's start() example and the vitest file type-check"
else
  cat "$work/tsc.log"
  fail "tsc --strict: the README's start() example and the vitest file type-check"
fi

# (d) the command line; with profiles, whose playground's GraphiQL and React come from dist/ (they are not installed)
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
port=$(free_port)
profiles_port=$(free_port)
# In a session of its own: npx runs backlot as a child it does not stop, so the whole group is signalled.
(cd "$project" && exec setsid env ADMIN_PORT=0 POSTS_PORT="$port" PROFILES_PORT="$profiles_port" \
  npx backlot serve posts profiles --data-dir "$work/data") >"$work/serve.log" 2>&1 &
server=$!
status=
for _ in $(seq 1 120); do
  status=$(curl -s -o "$work/post.json" -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/posts/1" || true)
  [ "$status" = 200 ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.5
done
if [ "$status" = 200 ] && [ "$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).id' "$work/post.json")" = 1 ]; then
  pass "npx backlot serve posts profiles: posts answers /posts/1"
else
  tail -20 "$work/serve.log"
  fail "npx backlot serve posts answers /posts/1 (status ${status:-none})"
fi
for _ in $(seq 1 120); do
  ide=$(curl -s -o /dev/null -w '%{http_code} %{size_download}' --max-time 10 "http://127.0.0.1:$profiles_port/ide/graphiql.js" || true)
  [ "${ide%% *}" = 200 ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.5
done
if [ "${ide%% *}" = 200 ] && [ "${ide##* }" -gt 1000000 ] && [ ! -e "$project/node_modules/graphiql" ]; then
  pass "the profiles playground serves GraphiQL without the graphiql package installed ($ide bytes)"
else
  fail "the profiles playground serves GraphiQL without the graphiql package installed (${ide:-no answer})"
fi
kill -TERM -- "-$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
server=

# (e) the optional peers: S3 storage and PostgreSQL need packages the project has not installed (nor has npm, for
# optional peer dependencies); the start stops with one line saying which setting needs what.
peer_refused() { # <expected line> <command…>
  local expected=$1 output
  shift
  if output=$(cd "$project" && ADMIN_PORT=0 PORT="$(free_port)" timeout 60 "$@" 2>&1); then
    fail "the start is refused: $expected (it started)"
  elif [ "$output" = "$expected" ]; then
    pass "the start is refused in one line: $expected"
  else
    printf '%s\n' "$output" | tail -5
    fail "the start is refused in one line: $expected"
  fi
}
peer_refused 'backlot: STORAGE_ENDPOINT: S3 storage needs the @aws-sdk/client-s3 package, which backlot does not install itself: npm i @aws-sdk/client-s3' \
  env STORAGE_ENDPOINT=http://127.0.0.1:9 STORAGE_REGION=us-east-1 STORAGE_BUCKET=b STORAGE_ACCESS_KEY=k \
  STORAGE_SECRET_KEY=s npx backlot serve profiles --data-dir "$work/s3"
peer_refused 'backlot: DATABASE_URL: PostgreSQL needs the pg package, which backlot does not install itself: npm i pg' \
  env DATABASE_URL=postgres://backlot@127.0.0.1:9/backlot npx backlot serve posts

printf 'package: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" = 0 ]
