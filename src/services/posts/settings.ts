import { ConfigError, type Env, envInt, envString } from '../../config.js';

/** POSTS_CACHE_MIB's default: room for every fixed answer of one origin about twice over. */
export const defaultCacheMiB = 32;

export interface PostsSettings {
  /** Fixed origin for photo URLs; undefined means "the origin the client used" (its Host header). */
  publicUrl?: string;
  /** Bound of the cache of fixed answers (identity, gzip and brotli bytes together). */
  cacheBytes: number;
}

export function postsSettings(env: Env): PostsSettings {
  const cacheBytes = envInt(env, 'POSTS_CACHE_MIB', defaultCacheMiB, { min: 0, max: 4096 }) * 2 ** 20;
  const raw = envString(env, 'POSTS_PUBLIC_URL');
  if (raw === undefined) return { cacheBytes };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`POSTS_PUBLIC_URL: must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`POSTS_PUBLIC_URL: must be an http or https URL, got "${raw}"`);
  }
  // A path prefix is kept (a proxy may serve the API under one); a trailing slash is not.
  return { publicUrl: (url.origin + url.pathname).replace(/\/+$/, ''), cacheBytes };
}
