import { ConfigError, type Env, envBool, envEnum, envInt, envString } from '../../config.js';
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

const storageVariables = {
  endpoint: 'STORAGE_ENDPOINT',
  region: 'STORAGE_REGION',
  bucket: 'STORAGE_BUCKET',
  accessKeyId: 'STORAGE_ACCESS_KEY',
  secretAccessKey: 'STORAGE_SECRET_KEY',
} as const;

export const defaultAllowedTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];

function absoluteUrl(name: string, value: string) {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {}
  throw new ConfigError(`${name}: must be an http(s) URL, got "${value}"`);
}

export function s3Settings(env: Env): S3Settings | undefined {
  const values = Object.fromEntries(
    Object.entries(storageVariables).map(([field, name]) => [field, envString(env, name)]),
  ) as Record<keyof typeof storageVariables, string | undefined>;
  const missing = Object.entries(storageVariables)
    .filter(([field]) => values[field as keyof typeof storageVariables] === undefined)
    .map(([, name]) => name);
  if (missing.length === Object.keys(storageVariables).length) return undefined;
  if (missing.length > 0) {
    throw new ConfigError(
      `${missing.join(', ')}: must be set too, since the other STORAGE_* settings are (set all five for S3, or none for the embedded store)`,
    );
  }
  const acl = envEnum(env, 'STORAGE_ACL', ['public-read', 'none'] as const, 'public-read');
  return {
    endpoint: absoluteUrl('STORAGE_ENDPOINT', values.endpoint as string),
    region: values.region as string,
    bucket: values.bucket as string,
    accessKeyId: values.accessKeyId as string,
    secretAccessKey: values.secretAccessKey as string,
    forcePathStyle: envBool(env, 'STORAGE_FORCE_PATH_STYLE', false),
    acl: acl === 'none' ? undefined : acl,
  };
}

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
