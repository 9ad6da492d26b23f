// tsc compiles only TypeScript: copy the other files services load at run time (GraphQL schema, HTML, scripts
// served to browsers as they are, named *.browser.js, and platform/pglite-worker.js) to dist/.
import { cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
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

// The profiles playground's GraphiQL and React (src/services/profiles/ide.ts): copied from the dev dependencies,
// so installing backlot does not pull React, GraphiQL and their hundred packages.
const require = createRequire(import.meta.url);
const ide = {
  'react.js': 'react/umd/react.production.min.js',
  'react-dom.js': 'react-dom/umd/react-dom.production.min.js',
  'graphiql.js': 'graphiql/graphiql.min.js',
  'graphiql.css': 'graphiql/graphiql.min.css',
};
const ideDir = path.join('dist', 'services', 'profiles', 'ide');
mkdirSync(ideDir, { recursive: true });
for (const [name, file] of Object.entries(ide)) {
  const [pkg, ...rest] = file.split('/');
  cpSync(path.join(path.dirname(require.resolve(`${pkg}/package.json`)), ...rest), path.join(ideDir, name));
}
