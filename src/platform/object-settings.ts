import { ConfigError, type Env, envBool, envEnum, envString, requirePeer } from '../config.js';
import type { S3Settings } from './objects.js';

// The STORAGE_* settings: one S3-compatible store for every service that keeps files (profiles' images,
// content's media), each under its own keys.
const storageVariables = {
  endpoint: 'STORAGE_ENDPOINT',
  region: 'STORAGE_REGION',
  bucket: 'STORAGE_BUCKET',
  accessKeyId: 'STORAGE_ACCESS_KEY',
  secretAccessKey: 'STORAGE_SECRET_KEY',
} as const;

export function absoluteUrl(name: string, value: string) {
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
  requirePeer('STORAGE_ENDPOINT', 'S3 storage', '@aws-sdk/client-s3');
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
