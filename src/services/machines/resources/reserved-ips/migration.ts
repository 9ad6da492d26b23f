import type { Migration } from '../../../../platform/database.js';

/**
 * Reserved IPs: in a region, assigned to at most one machine each (a machine has at most one). A deleted machine
 * leaves its IP reserved and unassigned, as the provider's does. They join projects as `do:floatingip:<ip>`
 * through the triggers of 502_projects.
 */
export const reservedIpsMigration: Migration = {
  name: '503_reserved_ips',
  sql: `
    CREATE TABLE machines.reserved_ips (
      ip text PRIMARY KEY,
      region text NOT NULL,
      machine_id integer UNIQUE REFERENCES machines.machines (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL
    );
    CREATE TRIGGER reserved_ips_in_project AFTER INSERT ON machines.reserved_ips
      FOR EACH ROW EXECUTE FUNCTION machines.project_resource_made('do:floatingip:', 'ip');
    CREATE TRIGGER reserved_ips_out_of_project AFTER DELETE ON machines.reserved_ips
      FOR EACH ROW EXECUTE FUNCTION machines.project_resource_gone('do:floatingip:', 'ip');
  `,
};
