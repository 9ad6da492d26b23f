import { ConfigError, type Env, envString } from '../../config.js';

export interface ContentSettings {
  siteName: string;
  siteDescription: string;
  /** An application password for `admin`, instead of one generated on first start. */
  adminAppPassword?: string;
}

export function contentSettings(env: Env): ContentSettings {
  const adminAppPassword = envString(env, 'CONTENT_ADMIN_APP_PASSWORD');
  if (adminAppPassword !== undefined && !/^[A-Za-z0-9]{24}$/.test(adminAppPassword.replace(/\s/g, ''))) {
    throw new ConfigError('CONTENT_ADMIN_APP_PASSWORD: must be 24 letters or digits (spaces are ignored)');
  }
  return {
    siteName: envString(env, 'CONTENT_SITE_NAME', 'Backlot Sample Site'),
    siteDescription: envString(env, 'CONTENT_SITE_DESCRIPTION', 'Just another backlot site'),
    adminAppPassword,
  };
}
