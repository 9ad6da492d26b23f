import type { Migration } from '../../platform/database.js';

export const migrations: Migration[] = [
  {
    name: '001_users',
    sql: `
      CREATE TABLE IF NOT EXISTS profiles.users (
        id uuid PRIMARY KEY,
        full_name text NOT NULL,
        email text NOT NULL,
        img_uri text NOT NULL,
        date_created text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        seq bigint GENERATED ALWAYS AS IDENTITY
      );
      CREATE INDEX IF NOT EXISTS users_created_at ON profiles.users (created_at, seq);
    `,
  },
];
