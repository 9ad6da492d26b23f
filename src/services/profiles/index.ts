import path from 'node:path';
import { LocalObjectStore, type ObjectStore, objectSpace, S3ObjectStore } from '../../platform/objects.js';
import { defineService } from '../../platform/service.js';
import { profilesManifest } from './manifest.js';
import { migrations } from './migrations.js';
import { profilesRoutes } from './routes.js';
import { createUserStore } from './store.js';

export const profiles = defineService({
  ...profilesManifest,
  migrations,
  openapi: false,
  docsPath: '/',
  // GraphQL's error shape, for the few errors that happen outside /query (unknown routes, outages).
  errorBody: ({ message }) => ({ data: null, errors: [{ message }] }),
  async start(ctx) {
    const { settings } = ctx;
    // Profiles' part of the shared store: every key but content's (`content/…`) and the checkpoints'.
    const space = objectSpace('profiles');
    const objects: ObjectStore = settings.s3
      ? new S3ObjectStore(settings.s3, undefined, space)
      : new LocalObjectStore(path.join(ctx.global.dataDir, 'objects'), space);
    const template = settings.publicUrlTemplate;
    const urlFor = (key: string, context: { baseUrl: string }) =>
      template
        ? template.replaceAll('{key}', encodeURIComponent(key))
        : `${context.baseUrl}/files/${encodeURIComponent(key)}`;
    const banner = [
      settings.s3
        ? `images go to bucket ${settings.s3.bucket} at ${settings.s3.endpoint}`
        : `images are stored in ${path.join(ctx.global.dataDir, 'objects')} and served at /files/<key>`,
    ];
    return {
      routes: profilesRoutes({ users: createUserStore(ctx.db), objects, settings, urlFor }),
      banner,
      close: () => objects.close(),
    };
  },
});
