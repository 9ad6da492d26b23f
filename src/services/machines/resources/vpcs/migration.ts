import type { Migration } from '../../../../platform/database.js';
import { defaultVpcUuid, regions } from '../catalog/data.js';
import { defaultRange } from './addresses.js';

// Each region's default range, as machines made before VPCs were stored already show it.
const ranges = regions
  .map((r) => `('${r.slug}', '${defaultRange(r.slug)}', '${defaultVpcUuid(r.slug)}')`)
  .join(', ');

/**
 * VPCs and their peerings; machines keep their private address. Regions that already have machines get their
 * default VPC (the id those machines name) and each machine the private address it was already shown; a machine
 * that named a VPC never stored (any UUID was taken before) moves to its region's default.
 * (Numbered 5xx: do-b's range, apart from the other machines migrations written in parallel.)
 */
export const vpcsMigration: Migration = {
  name: '501_vpcs',
  sql: `
    CREATE TABLE machines.vpcs (
      id uuid PRIMARY KEY,
      name text NOT NULL UNIQUE,
      description text NOT NULL DEFAULT '',
      region text NOT NULL,
      ip_range text NOT NULL,
      is_default boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX vpcs_one_default ON machines.vpcs (region) WHERE is_default;
    CREATE TABLE machines.vpc_peerings (
      id uuid PRIMARY KEY,
      name text NOT NULL UNIQUE,
      vpc_a uuid NOT NULL REFERENCES machines.vpcs (id) ON DELETE CASCADE,
      vpc_b uuid NOT NULL REFERENCES machines.vpcs (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL
    );
    ALTER TABLE machines.machines ADD COLUMN private_ip text;
    CREATE TEMPORARY TABLE default_vpcs (region text, ip_range text, id text) ON COMMIT DROP;
    INSERT INTO default_vpcs VALUES ${ranges};
    INSERT INTO machines.vpcs (id, name, region, ip_range, is_default, created_at)
      SELECT r.id::uuid, 'default-' || r.region, r.region, r.ip_range, true, now()
      FROM default_vpcs r WHERE EXISTS (SELECT 1 FROM machines.machines m WHERE m.region = r.region);
    UPDATE machines.machines m SET vpc_uuid = r.id,
      private_ip = split_part(r.ip_range, '.', 1) || '.' || split_part(r.ip_range, '.', 2)
        || '.' || ((m.id % 65024) / 250 % 250) || '.' || ((m.id % 65024) % 250 + 2)
      FROM default_vpcs r WHERE r.region = m.region;
    CREATE INDEX machines_vpc ON machines.machines (vpc_uuid);
  `,
};
