import { ConfigError, type Env, envInt, envString } from '../../config.js';
import { absoluteUrl, s3Settings } from '../../platform/object-settings.js';
import { maxSinglePutBytes, type S3Settings } from '../../platform/objects.js';

export interface ProfilesSettings {
  /** The image every new user starts with. */
  placeholderUrl: string;
  maxFileBytes: number;
  /** MIME types accepted for profile images, judged from the file's bytes. */
  allowedTypes: string[];
  /** Undefined means the embedded store under `<dataDir>/objects`. */
  s3?: S3Settings;
  /** How an S3 key becomes the public URL written to `img_uri`: a template with `{key}`. */
  publicUrlTemplate?: string;
}

export const defaultAllowedTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];

export function profilesSettings(env: Env): ProfilesSettings {
  const s3 = s3Settings(env);
  const template = envString(env, 'STORAGE_PUBLIC_URL');
  if (template !== undefined && !template.includes('{key}')) {
    throw new ConfigError(`STORAGE_PUBLIC_URL: must contain {key}, got "${template}"`);
  }
  const domain = envString(env, 'STORAGE_DOMAIN', 'digitaloceanspaces.com');
  const allowedTypes = (envString(env, 'PROFILES_ALLOWED_TYPES') ?? defaultAllowedTypes.join(','))
    .split(',')
    .map((type) => type.trim().toLowerCase())
    .filter(Boolean);
  if (allowedTypes.length === 0) throw new ConfigError('PROFILES_ALLOWED_TYPES: must name at least one type');
  for (const type of allowedTypes) {
    if (!/^[a-z]+\/[\w.+-]+$/.test(type)) {
      throw new ConfigError(`PROFILES_ALLOWED_TYPES: "${type}" is not a MIME type such as image/png`);
    }
  }
  return {
    placeholderUrl: absoluteUrl(
      'PROFILES_PLACEHOLDER_URL',
      envString(env, 'PROFILES_PLACEHOLDER_URL', 'https://bit.ly/3mCSn2i'),
    ),
    maxFileBytes: envInt(env, 'PROFILES_MAX_FILE_BYTES', 32 * 1024 * 1024, {
      min: 1,
      max: maxSinglePutBytes,
    }),
    allowedTypes,
    s3,
    publicUrlTemplate: s3 ? (template ?? `https://${s3.bucket}.${s3.region}.${domain}/{key}`) : undefined,
  };
}
