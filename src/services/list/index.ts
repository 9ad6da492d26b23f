import { stat } from 'node:fs/promises';
import path from 'node:path';
import { applyMethodOverride } from '../../platform/method-override.js';
import { defineService } from '../../platform/service.js';
import { listManifest } from './manifest.js';
import { compileRoutes, rewriteUrl } from './rewrite.js';
import { isRulesPath, listRoutes } from './routes.js';
import { ListStore } from './store.js';

/** json-server served `public/` only when it existed at startup. */
const existingFolder = (dir: string) =>
  stat(dir).then(
    (stats) => (stats.isDirectory() ? dir : undefined),
    () => undefined,
  );

export const list = defineService({
  ...listManifest,
  openapi: true,
  docsPath: '/docs',
  exposeHeaders: ['X-Total-Count', 'Link', 'Location'],
  // json-server's router honours X-HTTP-Method-Override on a POST (Express's method-override).
  beforeRouting: applyMethodOverride,
  // `?_delay=300` waits 300 ms more, through the harness's delay (json-server's per-request delay).
  delayParam: '_delay',
  // json-server answers every miss with `{}`; other client mistakes say what is wrong.
  errorBody: ({ status, message }) => (status === 404 ? {} : { error: message }),
  async start(ctx) {
    const file = ctx.settings.file ?? path.join(ctx.global.dataDir, 'list.json');
    const store = await ListStore.open(file, { log: ctx.log, lockWaitMs: ctx.settings.lockWaitMs });
    const rules = ctx.settings.routes && compileRoutes(ctx.settings.routes.rules);
    return {
      routes: listRoutes({
        store,
        delay: ctx.settings.delay,
        routes: ctx.settings.routes?.rules,
        jsonp: ctx.settings.jsonp,
        publicDir: await existingFolder(ctx.settings.publicDir ?? path.join(path.dirname(file), 'public')),
      }),
      // json-server's rewriter runs before its router, and so before method-override.
      beforeRouting: rules
        ? (request) => {
            applyMethodOverride(request);
            return request.url && !isRulesPath(request.url) ? rewriteUrl(rules, request.url) : undefined;
          }
        : undefined,
      banner: [`data file ${file}; responses delayed ${ctx.settings.delay} ms`],
      snapshot: { save: () => store.savedText(), restore: (saved) => store.replaceText(saved) },
      close: () => store.close(),
    };
  },
});
