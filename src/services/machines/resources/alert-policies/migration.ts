import type { Migration } from '../../../../platform/database.js';

/** Monitoring alert policies, kept as given (nothing here measures droplets, so no alert ever fires). */
export const alertPoliciesMigration: Migration = {
  name: '405_alert_policies',
  sql: `
    CREATE TABLE machines.alert_policies (
      uuid uuid PRIMARY KEY,
      type text NOT NULL,
      description text NOT NULL,
      compare text NOT NULL,
      value double precision NOT NULL,
      "window" text NOT NULL,
      entities text[] NOT NULL,
      tags text[] NOT NULL,
      alerts jsonb NOT NULL,
      enabled boolean NOT NULL,
      created_at timestamptz NOT NULL
    );
  `,
};
