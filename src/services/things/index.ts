import { clockOf, defineService } from '../../platform/service.js';
import { commands } from './commands.js';
import { openDatastore } from './datastore.js';
import { errorBody } from './errors.js';
import { thingsManifest } from './manifest.js';
import { migrations } from './migrations.js';
import { thingsRoutes } from './routes.js';
import { ThingsStore } from './store.js';

const SWEEP_INTERVAL_MS = 10 * 60_000;

export const things = defineService({
  ...thingsManifest,
  migrations,
  openapi: true,
  credentialed: true,
  securitySchemes: {
    dbUserSecret: {
      type: 'apiKey',
      in: 'header',
      name: 'db-user-secret',
      description: 'The secret POST /login answers with',
    },
  },
  docsPath: '/docs',
  exposeHeaders: ['retry-after'],
  errorBody,
  commands,
  async start(ctx) {
    const datastore = await openDatastore(ctx);
    const store = new ThingsStore(datastore.db, clockOf(ctx));
    const sweep = setInterval(() => {
      store.sweep(ctx.settings.rateLimit.windowSeconds).catch((err) => ctx.log.warn({ err }, 'sweep failed'));
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    return {
      routes: thingsRoutes(store, ctx.settings),
      banner: datastore.banner,
      async close() {
        clearInterval(sweep);
        await datastore.close();
      },
    };
  },
});
