import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../../platform/database.js';
import type { VolumeRow } from '../volumes/store.js';

export interface VolumeSnapshotRow {
  id: string;
  name: string;
  volume_id: string;
  region: string;
  min_disk_size: number;
  filesystem_type: string;
  filesystem_label: string;
  tags: string[];
  created_at: Date;
}

const columns =
  'id::text AS id, name, volume_id::text AS volume_id, region, min_disk_size, filesystem_type, filesystem_label, tags, created_at';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function insertVolumeSnapshot(
  db: Queryable,
  volume: VolumeRow,
  name: string,
  tags: string[],
  now: Date,
): Promise<VolumeSnapshotRow> {
  const { rows } = await db.query<VolumeSnapshotRow>(
    `INSERT INTO machines.volume_snapshots (id, name, volume_id, region, min_disk_size, filesystem_type,
       filesystem_label, tags, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${columns}`,
    [
      randomUUID(),
      name,
      volume.id,
      volume.region,
      volume.size_gigabytes,
      volume.filesystem_type,
      volume.filesystem_label,
      tags,
      now,
    ],
  );
  return rows[0] as VolumeSnapshotRow;
}

export async function findVolumeSnapshot(db: Queryable, id: string): Promise<VolumeSnapshotRow | undefined> {
  if (!uuid.test(id)) return undefined;
  const { rows } = await db.query<VolumeSnapshotRow>(
    `SELECT ${columns} FROM machines.volume_snapshots WHERE id = $1`,
    [id],
  );
  return rows[0];
}
