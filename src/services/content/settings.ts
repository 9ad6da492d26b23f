import { ConfigError, type Env, envInt, envString } from '../../config.js';
import { s3Settings } from '../../platform/object-settings.js';
import type { S3Settings } from '../../platform/objects.js';

export interface ContentSettings {
  siteName: string;
  siteDescription: string;
  /** An application password for `admin`, instead of one generated on first start. */
  adminAppPassword?: string;
  /** Media uploads: the same STORAGE_* bucket as profiles, or the embedded store under `<dataDir>/objects`. */
  s3?: S3Settings;
  /** How an S3 key becomes a media item's `source_url` (a template with `{key}`). */
  publicUrlTemplate?: string;
  /** The largest media upload (CONTENT_MAX_UPLOAD_BYTES; streamed to a temporary file while it is checked). */
  maxUploadBytes: number;
}

export function contentSettings(env: Env): ContentSettings {
  const adminAppPassword = envString(env, 'CONTENT_ADMIN_APP_PASSWORD');
  if (adminAppPassword !== undefined && !/^[A-Za-z0-9]{24}$/.test(adminAppPassword.replace(/\s/g, ''))) {
    throw new ConfigError('CONTENT_ADMIN_APP_PASSWORD: must be 24 letters or digits (spaces are ignored)');
  }
  const s3 = s3Settings(env);
  const template = envString(env, 'STORAGE_PUBLIC_URL');
  if (template !== undefined && !template.includes('{key}'))
    throw new ConfigError(`STORAGE_PUBLIC_URL: must contain {key}, got "${template}"`);
  const domain = envString(env, 'STORAGE_DOMAIN', 'digitaloceanspaces.com');
  return {
    siteName: envString(env, 'CONTENT_SITE_NAME', 'Backlot Sample Site'),
    siteDescription: envString(env, 'CONTENT_SITE_DESCRIPTION', 'Just another backlot site'),
    adminAppPassword,
    s3,
    maxUploadBytes: envInt(env, 'CONTENT_MAX_UPLOAD_BYTES', 32 * 1024 * 1024, { min: 1024, max: 1024 ** 3 }),
    publicUrlTemplate: s3 ? (template ?? `https://${s3.bucket}.${s3.region}.${domain}/{key}`) : undefined,
  };
}
