# backlot's container image: the compiled program (dist/) on Node.js 22 (LTS) with production dependencies only.
#   docker build -t backlot .
#   docker run -p 3333:3333 -p 8080-8085:8080-8085 -v backlot-data:/data backlot
# BASE may name any Debian-based image with Node.js >= 20.19 and npm; test/image/run.sh builds one locally. Node 22, not
# 20: 20 is past its end of life (April 2026), and some dependencies (cookie@2, content-disposition@3) want 22.
ARG BASE=node:22-bookworm-slim

# Production dependencies. No install scripts: nothing backlot runs needs one (@node-rs/argon2's binary comes
# in a platform package), and a `prepare` build would need the sources. The S3 client and pg are optional peer
# dependencies of the npm package (docs/architecture.md, "Decisions"): the image serves STORAGE_* and DATABASE_URL,
# so here they become dependencies, at the versions the lock file holds for them as dev dependencies.
FROM ${BASE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN node -e "const fs = require('fs'), p = require('./package.json'); for (const name of Object.keys(p.peerDependencies)) { p.dependencies[name] = p.devDependencies[name]; delete p.devDependencies[name]; } fs.writeFileSync('package.json', JSON.stringify(p));" \
 && npm install --omit=dev --ignore-scripts --no-audit --no-fund

# TypeScript -> dist/. Scripts are skipped for the same reason; the build is run explicitly once the sources are in.
FROM ${BASE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM ${BASE}
# In-flight requests get 8 s after SIGTERM, so backlot exits (0) before `docker stop`'s default 10 s are up.
ENV NODE_ENV=production HOST=0.0.0.0 BACKLOT_DATA_DIR=/data SHUTDOWN_GRACE_MS=8000
# A fixed uid that no official base image uses (node:* has "node" as 1000); /data is created owned by it, so a new
# named volume starts out writable. The program itself stays owned by root: read-only to the service.
RUN groupadd --system --gid 10001 backlot \
 && useradd --system --uid 10001 --gid backlot --home-dir /app --no-create-home --shell /usr/sbin/nologin backlot \
 && mkdir -p /data && chown backlot:backlot /data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER 10001:10001
VOLUME /data
# profiles, things, list, employees, posts, machines, content
EXPOSE 8080 8081 3333 8082 8083 8084 8085
# Healthy while any of its ports answers /healthz, whichever services are served (no curl in slim images).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "-e", "const e = process.env; const ports = [e.PORT, e.LIST_PORT || 3333, e.PROFILES_PORT || 8080, e.THINGS_PORT || 8081, e.EMPLOYEES_PORT || 8082, e.POSTS_PORT || 8083, e.MACHINES_PORT || 8084, e.CONTENT_PORT || 8085].filter(Boolean); Promise.any(ports.map((p) => fetch('http://127.0.0.1:' + p + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => { if (!r.ok) throw new Error(r.status); }))).then(() => process.exit(0), () => process.exit(1));"]
# node is PID 1 (exec form, no shell): it gets SIGTERM itself, lets in-flight requests finish and exits 0.
STOPSIGNAL SIGTERM
# A larger young generation, as `npm start` (docs/architecture.md). Arguments go to backlot:
# `docker run backlot serve posts list`, `docker run backlot machines token create`.
ENTRYPOINT ["node", "--max-semi-space-size=32", "dist/cli.js"]
CMD []
