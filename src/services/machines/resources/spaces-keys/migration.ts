import type { Migration } from '../../../../platform/database.js';

/** Spaces access keys: the secret is shown once, at creation, and kept only as its SHA-256 hash. */
export const spacesKeysMigration: Migration = {
  name: '406_spaces_keys',
  sql: `
    CREATE TABLE machines.spaces_keys (
      access_key text PRIMARY KEY,
      name text NOT NULL,
      grants jsonb NOT NULL,
      secret_hash text NOT NULL,
      created_at timestamptz NOT NULL
    );
  `,
};
