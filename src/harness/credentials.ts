import { GeneratedCredentials } from '../platform/secrets.js';

/**
 * What a caller needs to authenticate to each service, as data: what the banner prints, from the settings when
 * credentials are configured and from `<dataDir>/credentials.json` when the service generated them.
 */
export interface ServiceCredentials {
  /** employees: HTTP Basic (the generated editor `admin`, or the first EMPLOYEES_USERS account). */
  username?: string;
  password?: string;
  /** machines: `Authorization: Bearer <token>` (generated, or the first MACHINES_TOKENS preset). */
  token?: string;
  /** content: HTTP Basic as `admin` with this application password. */
  applicationPassword?: string;
  /** things: the datastore secret (the database role's password), as the banner shows it. */
  datastoreSecret?: string;
}

/** Each service's credentials, with the fields it always has (`start()` types them by the services started). */
export interface CredentialsByService {
  profiles: NoCredentials;
  things: { datastoreSecret: string };
  list: NoCredentials;
  employees: { username: string; password: string };
  posts: NoCredentials;
  machines: { token: string };
  content: { username: string; applicationPassword: string };
}

/** A service callers reach without credentials. */
export type NoCredentials = Record<string, never>;

export function credentialsOf(id: string, settings: unknown, dataDir: string): ServiceCredentials {
  // biome-ignore lint/suspicious/noExplicitAny: each service's own settings, read where it has them
  const s = settings as Record<string, any>;
  const generated = new GeneratedCredentials(dataDir);
  switch (id) {
    case 'employees': {
      const first = (s.accounts as { name: string; password: string }[])[0];
      if (first) return { username: first.name, password: first.password };
      return { username: 'admin', password: generated.recall('employees', 'admin') };
    }
    case 'machines': {
      const preset = (s.presetTokens as { token: string }[])[0];
      return { token: preset ? preset.token : generated.recall('machines', 'token') };
    }
    case 'content':
      return {
        username: 'admin',
        applicationPassword: s.adminAppPassword ?? generated.recall('content', 'admin_app_password'),
      };
    case 'things':
      return { datastoreSecret: s.datastore?.secret ?? generated.recall('things', 'DATASTORE_SECRET') };
    default:
      return {};
  }
}
