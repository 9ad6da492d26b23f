import { applyMethodOverride } from '../../platform/method-override.js';
import { defineService } from '../../platform/service.js';
import { Catalog } from './catalog.js';
import { postsManifest } from './manifest.js';
import { postsFastPath, postsRoutes } from './routes.js';

export const posts = defineService({
  ...postsManifest,
  openapi: true,
  docsPath: '/docs',
  exposeHeaders: ['x-total-count', 'link', 'etag'],
  // Express-based json-server matched `/POSTS` and `/Posts/1`, and honoured X-HTTP-Method-Override on POST.
  caseInsensitivePaths: true,
  beforeRouting: applyMethodOverride,
  // Every error of this API, unknown routes included, is an empty JSON object (json-server's answer).
  errorBody: () => ({}),
  start: async (ctx) => {
    const catalog = new Catalog(ctx.settings.cacheBytes);
    const fallbackOrigin = ctx.settings.publicUrl ?? new URL(ctx.publicUrl).origin;
    return {
      routes: postsRoutes({ catalog, publicUrl: ctx.settings.publicUrl, fallbackOrigin }),
      fastPath: postsFastPath(catalog),
    };
  },
});
