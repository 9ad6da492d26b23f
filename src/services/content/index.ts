import path from 'node:path';
import { LoginLimiter } from '../../platform/login-limit.js';
import { LocalObjectStore, objectSpace, S3ObjectStore } from '../../platform/objects.js';
import { tokenHash } from '../../platform/secrets.js';
import { defineService } from '../../platform/service.js';
import { newAppPassword, normalizeAppPassword } from './auth.js';
import { commands } from './commands.js';
import { contentErrorBody } from './errors.js';
import { contentManifest } from './manifest.js';
import { migrations } from './migrations.js';
import { beforeRestRouting } from './rest-http.js';
import { contentRoutes } from './routes.js';
import { ContentStore } from './store.js';

const REMEMBERED = 'admin_app_password';

export const content = defineService({
  ...contentManifest,
  migrations,
  openapi: true,
  credentialed: true,
  // As in WordPress, every route may be called with or without credentials; writes and private data need them.
  securitySchemes: {
    applicationPassword: {
      type: 'http',
      scheme: 'basic',
      description: "A user name and one of its application passwords (the banner prints admin's)",
    },
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'A token from `backlot content token create --user U`',
    },
  },
  security: [{ applicationPassword: [] }, { bearer: [] }, {}],
  docsPath: '/docs',
  exposeHeaders: ['x-wp-total', 'x-wp-totalpages', 'link', 'allow'],
  errorBody: contentErrorBody,
  beforeRouting: beforeRestRouting,
  async start(ctx) {
    const store = new ContentStore(ctx.db);
    const banner: string[] = [];
    const admin = await store.findUserByLogin('admin');
    if (admin) {
      const configured = ctx.settings.adminAppPassword;
      if (configured) {
        await store.addCredential(
          admin.id,
          'app_password',
          'CONTENT_ADMIN_APP_PASSWORD',
          tokenHash(normalizeAppPassword(configured)),
        );
        banner.push('user "admin" signs in with the application password from CONTENT_ADMIN_APP_PASSWORD');
      } else {
        const existing = await store.credentialHashes(admin.id, 'app_password');
        let remembered = ctx.credentials.recall('content', REMEMBERED);
        if (existing.length === 0) {
          remembered = newAppPassword();
          await store.addCredential(
            admin.id,
            'app_password',
            'backlot first start',
            tokenHash(normalizeAppPassword(remembered)),
          );
          ctx.credentials.remember('content', REMEMBERED, remembered);
        }
        const hash = remembered ? tokenHash(normalizeAppPassword(remembered)) : undefined;
        const stillValid = existing.length === 0 || existing.some((row) => row.secret_hash === hash);
        banner.push(
          remembered && stillValid
            ? `user "admin", application password "${remembered}" (HTTP Basic)`
            : 'new application passwords: backlot content app-password create --user admin',
        );
      }
    }
    const limiter = LoginLimiter.forService(ctx, 'content');
    // Media files go to the same object store as profiles' images (STORAGE_* S3, or <dataDir>/objects), in
    // content's own part of it: keys under `content/`.
    const { s3, publicUrlTemplate } = ctx.settings;
    const space = objectSpace('content');
    const objects = s3
      ? new S3ObjectStore(s3, undefined, space)
      : new LocalObjectStore(path.join(ctx.global.dataDir, 'objects'), space);
    const files = { objects, urlTemplate: publicUrlTemplate, maxBytes: ctx.settings.maxUploadBytes };
    const close = async () => {
      await limiter.close();
      await objects.close();
    };
    return { routes: contentRoutes(store, ctx.settings, limiter, files), banner, close };
  },
  commands,
});
