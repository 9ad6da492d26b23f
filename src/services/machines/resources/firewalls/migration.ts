import type { Migration } from '../../../../platform/database.js';

/**
 * Firewalls, their rules as the provider's JSON, and the droplets they name. A deleted machine leaves its
 * firewalls by the cascade. (Tokens stored with the legacy `machine:*` scopes cover the firewall scopes: scopes.ts.)
 */
export const firewallsMigration: Migration = {
  name: '006_firewalls',
  sql: `
    CREATE TABLE machines.firewalls (
      id uuid PRIMARY KEY,
      name text NOT NULL UNIQUE,
      inbound_rules jsonb NOT NULL DEFAULT '[]',
      outbound_rules jsonb NOT NULL DEFAULT '[]',
      tags text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      -- the last change, from which the status is 'waiting' for the provisioning time
      changed_at timestamptz NOT NULL
    );
    CREATE INDEX firewalls_tags ON machines.firewalls USING gin (tags);
    CREATE TABLE machines.firewall_droplets (
      firewall_id uuid NOT NULL REFERENCES machines.firewalls (id) ON DELETE CASCADE,
      machine_id integer NOT NULL REFERENCES machines.machines (id) ON DELETE CASCADE,
      PRIMARY KEY (firewall_id, machine_id)
    );
    CREATE INDEX firewall_droplets_machine ON machines.firewall_droplets (machine_id);
  `,
};
