#!/usr/bin/env bash
# The scale-out test: three backlot processes behind HAProxy on one TLS PostgreSQL and an S3 server, through a
# kill -9, a PostgreSQL restart and a rolling restart (test/scale/run.ts says what it checks). About 90 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v haproxy >/dev/null || { echo "haproxy is not installed (apt-get install haproxy)" >&2; exit 1; }
timeout 180 npx tsx test/scale/run.ts
