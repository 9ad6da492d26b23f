import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { htmlSecurityHeaders } from '../../platform/http.js';

const require = createRequire(import.meta.url);

/**
 * GraphiQL and React, served by the service so the IDE works with no network. The build copies them next to the
 * compiled module (scripts/copy-assets.mjs), so an installed backlot does not need React and GraphiQL's packages;
 * the sources read them from node_modules.
 */
const assetFiles: Record<string, { file: string; type: string }> = {
  'react.js': { file: 'react/umd/react.production.min.js', type: 'text/javascript; charset=utf-8' },
  'react-dom.js': {
    file: 'react-dom/umd/react-dom.production.min.js',
    type: 'text/javascript; charset=utf-8',
  },
  'graphiql.js': { file: 'graphiql/graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.css': { file: 'graphiql/graphiql.min.css', type: 'text/css; charset=utf-8' },
};

/** GraphiQL with a Files panel whose fetcher sends GraphQL multipart requests (see the file). */
const playgroundScript = readFileSync(new URL('./playground.browser.js', import.meta.url));

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>backlot profiles: playground (GraphiQL with file uploads)</title>
<link rel="stylesheet" href="ide/graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="ide/react.js"></script>
<script src="ide/react-dom.js"></script>
<script src="ide/graphiql.js"></script>
<script src="ide/playground.js"></script>
</body>
</html>
`;

// GraphiQL styles elements inline and embeds its fonts and icons as data: URLs; everything else is this origin.
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'self'",
].join('; ');

export const idePlugin: FastifyPluginAsync = async (app) => {
  const assets = new Map<string, { body: Buffer; type: string }>();
  for (const [name, { file, type }] of Object.entries(assetFiles)) {
    const built = new URL(`./ide/${name}`, import.meta.url);
    if (existsSync(built)) {
      assets.set(name, { body: readFileSync(built), type });
      continue;
    }
    const [pkg, ...rest] = file.split('/');
    const dir = path.dirname(require.resolve(`${pkg}/package.json`));
    assets.set(name, { body: readFileSync(path.join(dir, ...rest)), type });
  }
  assets.set('playground.js', { body: playgroundScript, type: 'text/javascript; charset=utf-8' });

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    reply
      .headers(htmlSecurityHeaders)
      .header('content-security-policy', contentSecurityPolicy)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8');
    return page;
  });

  app.get<{ Params: { name: string } }>(
    '/ide/:name',
    // The IDE's files are docs: the harness's faults leave them alone (GET / is exempt as the docs path).
    {
      schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 64 }) }) },
      config: { faults: false },
    },
    async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) {
        return reply.callNotFound();
      }
      reply
        .type(asset.type)
        .header('cache-control', 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff');
      return asset.body;
    },
  );
};
