import { defineService } from '../../platform/service.js';
import { Catalog } from './catalog.js';
import { postsFastPath, postsRoutes } from './routes.js';
import { postsSettings } from './settings.js';

export const posts = defineService({
  id: 'posts',
  title: 'Posts API with fake writes',
  ports: { alone: 8080, together: 8083 },
  portEnv: ['PORT'],
  schema: undefined,
  migrations: [],
  openapi: true,
  docsPath: '/docs',
  exposeHeaders: ['x-total-count', 'link', 'etag'],
  settings: postsSettings,
  // Every error of this API, unknown routes included, is an empty JSON object (json-server's answer).
  errorBody: () => ({}),
  start: async (ctx) => {
    const catalog = Catalog.instance();
    const fallbackOrigin = ctx.settings.publicUrl ?? new URL(ctx.publicUrl).origin;
    // The service's own URL gets its photo bodies before the first request; other Host names on first use.
    await catalog.warm(fallbackOrigin, true);
    return {
      routes: postsRoutes({ catalog, publicUrl: ctx.settings.publicUrl, fallbackOrigin }),
      fastPath: postsFastPath(catalog),
    };
  },
});
