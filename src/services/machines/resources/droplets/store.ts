import { ledgerCount } from '../../../../platform/count-ledger.js';
import type { Database, Queryable } from '../../../../platform/database.js';
import { listTotal } from '../../../../platform/list-counts.js';
import { isRowId } from '../../store.js';
import { type ActionRow, actionColumns } from '../actions/row.js';
import type { UserImageRow } from '../images/row.js';
import { freeAddress, parseCidr, type Range } from '../vpcs/addresses.js';
import { findVpc, usedAddresses } from '../vpcs/store.js';

export interface MachineRow {
  id: number;
  name: string;
  region: string;
  size: string;
  image_id: number;
  tags: string[];
  features: string[];
  ipv6: boolean;
  vpc_uuid: string;
  /** Given from the VPC's range at creation; null only for rows older than stored VPCs. */
  private_ip: string | null;
  vpc_range: string | null;
  /** The reserved IP assigned to it, shown as a second public address. */
  reserved_ip: string | null;
  created_at: Date;
  power: 'on' | 'off';
  disk: number | null;
  kernel_id: number | null;
  backup_policy: BackupPolicy | null;
  volume_ids: string[];
  snapshot_ids: number[];
  backup_ids: number[];
  /** The snapshot or backup the machine was built from, when it was not a catalog image. */
  user_image: UserImageRow | null;
}

export interface BackupPolicy {
  plan: 'daily' | 'weekly';
  weekday: string | null;
  hour: number | null;
  window_length_hours: number;
  retention_period_days: number;
}

export interface NewMachine {
  name: string;
  region: string;
  size: string;
  imageId: number;
  tags: string[];
  features: string[];
  ipv6: boolean;
  vpcUuid: string;
  userData: string | null;
  sshKeyIds: number[];
  volumeIds: string[];
}

export class LimitExceeded extends Error {}
/** The VPC has no free address left. */
export class VpcFull extends Error {}

/** A machine with what other tables say about it (volumes, snapshots, backups, the image it was built from). */
export const machineColumns = `m.id, m.name, m.region, m.size, m.image_id, m.tags, m.features, m.ipv6, m.vpc_uuid,
  m.private_ip, (SELECT v.ip_range FROM machines.vpcs v WHERE v.id::text = m.vpc_uuid) AS vpc_range,
  (SELECT r.ip FROM machines.reserved_ips r WHERE r.machine_id = m.id) AS reserved_ip,
  m.created_at, m.power, m.disk, m.kernel_id, m.backup_policy,
  ARRAY(SELECT v.id::text FROM machines.volumes v WHERE v.machine_id = m.id ORDER BY v.created_at, v.id) AS volume_ids,
  ARRAY(SELECT i.id FROM machines.images i WHERE i.machine_id = m.id AND i.type = 'snapshot' ORDER BY i.id) AS snapshot_ids,
  ARRAY(SELECT i.id FROM machines.images i WHERE i.machine_id = m.id AND i.type = 'backup' ORDER BY i.id) AS backup_ids,
  (SELECT row_to_json(u) FROM machines.images u WHERE u.id = m.image_id) AS user_image`;

/** Creates machines and their create actions at once; the advisory lock keeps the account limit exact across processes. */
export async function createMachines(
  db: Database,
  machines: NewMachine[],
  opts: { limit: number; resourceType: string; now: Date },
): Promise<{ machines: MachineRow[]; actions: ActionRow[] }> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('backlot:machines:create'))`);
    const { rows } = await tx.query<{ n: string }>('SELECT count(*) AS n FROM machines.machines');
    if (Number(rows[0]?.n ?? 0) + machines.length > opts.limit) throw new LimitExceeded();
    const created: MachineRow[] = [];
    const actions: ActionRow[] = [];
    for (const m of machines) {
      // The lowest free address of the VPC's range; the lock above keeps two creates from taking the same one.
      const vpc = await findVpc(tx, m.vpcUuid);
      const range = vpc && (parseCidr(vpc.ip_range) as Range);
      const privateIp = range ? freeAddress(range, await usedAddresses(tx, m.vpcUuid)) : undefined;
      if (!privateIp) throw new VpcFull();
      const inserted = await tx.query<{ id: number }>(
        `INSERT INTO machines.machines (name, region, size, image_id, tags, features, ipv6, vpc_uuid, user_data,
           ssh_key_ids, created_at, private_ip)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
        [
          m.name,
          m.region,
          m.size,
          m.imageId,
          m.tags,
          m.features,
          m.ipv6,
          m.vpcUuid,
          m.userData,
          m.sshKeyIds,
          opts.now,
          privateIp,
        ],
      );
      const id = (inserted.rows[0] as { id: number }).id;
      if (m.volumeIds.length) {
        await tx.query('UPDATE machines.volumes SET machine_id = $1 WHERE id = ANY ($2::uuid[])', [
          id,
          m.volumeIds,
        ]);
      }
      for (const tag of m.tags) {
        await tx.query('INSERT INTO machines.tags (name) VALUES ($1) ON CONFLICT DO NOTHING', [tag]);
      }
      const row = (await findMachine(tx, id)) as MachineRow;
      created.push(row);
      const action = await tx.query<ActionRow>(
        `INSERT INTO machines.actions (type, resource_id, resource_type, region, started_at)
         VALUES ('create', $1, $2, $3, $4) RETURNING ${actionColumns}`,
        [row.id, opts.resourceType, row.region, opts.now],
      );
      actions.push(action.rows[0] as ActionRow);
    }
    return { machines: created, actions };
  });
}

// Tag filters are written as `tags @> ARRAY[tag]`: that form can use the GIN index, `tag = ANY (tags)` cannot.
export async function listMachines(
  db: Queryable,
  opts: { tag?: string; name?: string; none?: boolean; limit: number; offset: number },
): Promise<{ rows: MachineRow[]; total: number }> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (opts.none) conditions.push('false');
  if (opts.tag !== undefined) {
    params.push(opts.tag);
    conditions.push(`m.tags @> ARRAY[$${params.length}]::text[]`);
  }
  if (opts.name !== undefined) {
    params.push(opts.name);
    // The provider matches names case-insensitively.
    conditions.push(`lower(m.name) = lower($${params.length})`);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const { rows } = await db.query<MachineRow>(
    `SELECT ${machineColumns} FROM machines.machines m ${where}
     ORDER BY m.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, opts.limit, opts.offset],
  );
  const page = { rows: rows.length, limit: opts.limit, offset: opts.offset };
  // All machines, or one tag's: the count ledger's keys (migration 903_machine_counts); a name counts the rows.
  const key =
    opts.name !== undefined || opts.none ? undefined : opts.tag === undefined ? '*' : `tag/${opts.tag}`;
  const counted = key === undefined ? undefined : () => ledgerCount(db, 'machines.machine_counts', [key]);
  const total = await listTotal(db, `FROM machines.machines m ${where}`, params, page, counted);
  return { rows, total };
}

export async function findMachine(db: Queryable, id: number): Promise<MachineRow | undefined> {
  if (!isRowId(id)) return undefined;
  const { rows } = await db.query<MachineRow>(
    `SELECT ${machineColumns} FROM machines.machines m WHERE m.id = $1`,
    [id],
  );
  return rows[0];
}

// Volumes are detached and snapshots kept when their machine goes, as the provider does.
export async function deleteMachine(db: Database, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  return db.transaction((tx) => deleteMachineIn(tx, id));
}

/** Deletes a machine inside the caller's transaction; its volumes are detached. */
export async function deleteMachineIn(tx: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await tx.query('DELETE FROM machines.machines WHERE id = $1', [id]);
  await tx.query('UPDATE machines.volumes SET machine_id = NULL WHERE machine_id = $1', [id]);
  return rowCount > 0;
}

export async function deleteMachinesByTag(db: Database, tag: string): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      'DELETE FROM machines.machines WHERE tags @> ARRAY[$1]::text[] RETURNING id',
      [tag],
    );
    const ids = rows.map((r) => r.id);
    await tx.query('UPDATE machines.volumes SET machine_id = NULL WHERE machine_id = ANY ($1::int[])', [ids]);
    return ids.length;
  });
}
