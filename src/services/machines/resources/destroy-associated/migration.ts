import type { Migration } from '../../../../platform/database.js';

/**
 * What a destroy-with-associated-resources request destroyed, kept for its status after the droplet is gone (no
 * foreign key: the machine row is deleted by the request itself).
 */
export const destroyRequestsMigration: Migration = {
  name: '504_destroy_requests',
  sql: `
    CREATE TABLE machines.destroy_requests (
      machine_id integer PRIMARY KEY,
      machine_name text NOT NULL,
      -- {"reserved_ips": [{"id", "name"}], "snapshots": […], "volumes": […], "volume_snapshots": […]}
      resources jsonb NOT NULL,
      started_at timestamptz NOT NULL
    );
  `,
};
