import type { Database, Queryable } from '../../../../platform/database.js';
import { deleteMachineIn } from '../droplets/store.js';

export interface Associated {
  id: string;
  name: string;
  cost: string;
}

export const kinds = ['reserved_ips', 'snapshots', 'volumes', 'volume_snapshots'] as const;
export type Kind = (typeof kinds)[number];
export type AssociatedSet = Record<Kind, Associated[]>;

// Monthly prices (USD) of what stays when kept: per GB for storage, flat for an unassigned reserved IP.
const money = (n: number) => n.toFixed(2);

/** A droplet's reserved IP, snapshots, attached volumes and those volumes' snapshots, with what each costs kept. */
export async function associatedOf(db: Queryable, machineId: number): Promise<AssociatedSet> {
  const ips = await db.query<{ ip: string }>('SELECT ip FROM machines.reserved_ips WHERE machine_id = $1', [
    machineId,
  ]);
  const snapshots = await db.query<{ id: number; name: string; size_gigabytes: number }>(
    `SELECT id, name, size_gigabytes FROM machines.images WHERE machine_id = $1 AND type = 'snapshot' ORDER BY id`,
    [machineId],
  );
  const volumes = await db.query<{ id: string; name: string; size_gigabytes: number }>(
    'SELECT id::text AS id, name, size_gigabytes FROM machines.volumes WHERE machine_id = $1 ORDER BY created_at, id',
    [machineId],
  );
  const volumeSnapshots = await db.query<{ id: string; name: string; min_disk_size: number }>(
    `SELECT s.id::text AS id, s.name, s.min_disk_size FROM machines.volume_snapshots s
     WHERE s.volume_id IN (SELECT v.id FROM machines.volumes v WHERE v.machine_id = $1) ORDER BY s.created_at, s.id`,
    [machineId],
  );
  return {
    reserved_ips: ips.rows.map((r) => ({ id: r.ip, name: r.ip, cost: money(5) })),
    snapshots: snapshots.rows.map((s) => ({
      id: String(s.id),
      name: s.name,
      cost: money(s.size_gigabytes * 0.06),
    })),
    volumes: volumes.rows.map((v) => ({ id: v.id, name: v.name, cost: money(v.size_gigabytes * 0.1) })),
    // Nothing is written to a volume here, so its snapshots hold 0 GB.
    volume_snapshots: volumeSnapshots.rows.map((s) => ({ id: s.id, name: s.name, cost: money(0) })),
  };
}

const deletes: Record<Kind, string> = {
  reserved_ips: 'DELETE FROM machines.reserved_ips WHERE ip = ANY ($1::text[])',
  snapshots: 'DELETE FROM machines.images WHERE id::text = ANY ($1::text[])',
  volume_snapshots: 'DELETE FROM machines.volume_snapshots WHERE id::text = ANY ($1::text[])',
  volumes: 'DELETE FROM machines.volumes WHERE id::text = ANY ($1::text[])',
};

/** Deletes the droplet and the chosen resources in one transaction, and records the request for its status. */
export async function destroyWith(
  db: Database,
  machine: { id: number; name: string },
  chosen: AssociatedSet,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await deleteMachineIn(tx, machine.id);
    for (const kind of ['reserved_ips', 'snapshots', 'volume_snapshots', 'volumes'] as const)
      await tx.query(deletes[kind], [chosen[kind].map((r) => r.id)]);
    const resources = Object.fromEntries(
      kinds.map((k) => [k, chosen[k].map(({ id, name }) => ({ id, name }))]),
    );
    await tx.query(
      `INSERT INTO machines.destroy_requests (machine_id, machine_name, resources, started_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (machine_id) DO UPDATE SET machine_name = excluded.machine_name, resources = excluded.resources,
         started_at = excluded.started_at`,
      [machine.id, machine.name, JSON.stringify(resources), now],
    );
  });
}

export interface DestroyRequestRow {
  machine_id: number;
  machine_name: string;
  resources: Record<Kind, { id: string; name: string }[]>;
  started_at: Date;
}

export async function findDestroyRequest(
  db: Queryable,
  machineId: number,
): Promise<DestroyRequestRow | undefined> {
  const { rows } = await db.query<DestroyRequestRow>(
    'SELECT * FROM machines.destroy_requests WHERE machine_id = $1',
    [machineId],
  );
  return rows[0];
}
