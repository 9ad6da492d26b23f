// tsc compiles only TypeScript: copy the other files services load at run time (GraphQL schema, HTML, scripts
// served to browsers as they are, named *.browser.js, and platform/pglite-worker.js) to dist/.
import { cpSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// Browser scripts (`*.browser.js`, the admin page's script) are assets too, as is the embedded database's worker
// (plain JavaScript so that it starts without tsx's loader, which Node 20's workers do not inherit).
const assets = /\.(graphql|html|css|js|svg|png|json)$/;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (assets.test(name)) cpSync(full, path.join('dist', path.relative('src', full)));
  }
}
walk('src');
