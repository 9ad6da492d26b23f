#!/usr/bin/env bash
# The scale-out test: three backlot processes behind HAProxy on one TLS PostgreSQL and an S3 server, through a
# checkpoint restore, a kill -9, a PostgreSQL restart and a rolling restart (test/scale/run.ts says what it
# checks). About a minute and a half. The processes run the built dist/cli.js, rebuilt first when src/ changed.
set -uo pipefail
cd "$(dirname "$0")/../.."
command -v haproxy >/dev/null || { echo "haproxy is not installed (apt-get install haproxy)" >&2; exit 1; }
node scripts/build-if-stale.mjs || exit 1
# In a process group of its own: a run cut short by the timeout leaves no backlot, PostgreSQL or HAProxy behind.
setsid timeout 300 npx tsx test/scale/run.ts &
pid=$!
wait "$pid"
rc=$?
kill -- "-$pid" 2>/dev/null
exit "$rc"
