import { ConfigError, type Env, envString } from '../../config.js';

export interface PostsSettings {
  /** Fixed origin for photo URLs; undefined means "the origin the client used" (its Host header). */
  publicUrl?: string;
}

export function postsSettings(env: Env): PostsSettings {
  const raw = envString(env, 'POSTS_PUBLIC_URL');
  if (raw === undefined) return {};
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
  return { publicUrl: (url.origin + url.pathname).replace(/\/+$/, '') };
}
