import type { Migration } from '../../../../platform/database.js';

/** Volume snapshots keep what a volume restored from them needs: its size and filesystem. */
export const volumeSnapshotsMigration: Migration = {
  name: '005_volume_snapshots',
  sql: `
    CREATE TABLE machines.volume_snapshots (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      volume_id uuid NOT NULL,
      region text NOT NULL,
      min_disk_size integer NOT NULL,
      filesystem_type text NOT NULL DEFAULT '',
      filesystem_label text NOT NULL DEFAULT '',
      tags text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL
    );
    CREATE INDEX volume_snapshots_volume ON machines.volume_snapshots (volume_id);
  `,
};
