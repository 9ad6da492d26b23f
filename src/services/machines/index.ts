import { LoginLimiter } from '../../platform/login-limit.js';
import { defineService } from '../../platform/service.js';
import { errorBody } from './errors.js';
import { machinesManifest } from './manifest.js';
import { migrations } from './migrations.js';
import { machinesRoutes } from './routes.js';
import { deleteOldCounters } from './store.js';
import { prepareTokens, tokenCommands } from './tokens.js';

const COUNTER_SWEEP_MS = 10 * 60 * 1000;

export const machines = defineService({
  ...machinesManifest,
  migrations,
  openapi: true,
  credentialed: true,
  securitySchemes: {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'A token (the banner prints one; `backlot machines token create`)',
    },
  },
  security: [{ bearer: [] }],
  docsPath: '/docs',
  exposeHeaders: ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'link'],
  errorBody,
  async start(ctx) {
    const banner = await prepareTokens(ctx);
    // Rate-limit windows older than an hour are never read again.
    const sweep = setInterval(() => {
      const cutoff = Math.floor(Date.now() / 1000) - 2 * 3600;
      deleteOldCounters(ctx.db, cutoff).catch((error) =>
        ctx.log.warn({ err: error }, 'rate counter sweep failed'),
      );
    }, COUNTER_SWEEP_MS);
    sweep.unref();
    const limiter = LoginLimiter.forService(ctx, 'machines');
    return {
      routes: machinesRoutes(ctx.db, ctx.settings, limiter),
      banner,
      async close() {
        clearInterval(sweep);
        await limiter.close();
      },
    };
  },
  commands: tokenCommands,
});
