import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../../platform/database.js';

export interface VolumeRow {
  id: string;
  name: string;
  region: string;
  size_gigabytes: number;
  description: string;
  filesystem_type: string;
  filesystem_label: string;
  tags: string[];
  machine_id: number | null;
  created_at: Date;
}

const columns =
  'id::text AS id, name, region, size_gigabytes, description, filesystem_type, filesystem_label, tags, machine_id, created_at';
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Undefined when the region already has a volume of that name. */
export async function insertVolume(
  db: Queryable,
  v: Omit<VolumeRow, 'id' | 'machine_id' | 'created_at'>,
  now: Date,
): Promise<VolumeRow | undefined> {
  const { rows } = await db.query<VolumeRow>(
    `INSERT INTO machines.volumes (id, name, region, size_gigabytes, description, filesystem_type, filesystem_label,
       tags, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (region, name) DO NOTHING RETURNING ${columns}`,
    [
      randomUUID(),
      v.name,
      v.region,
      v.size_gigabytes,
      v.description,
      v.filesystem_type,
      v.filesystem_label,
      v.tags,
      now,
    ],
  );
  return rows[0];
}

export async function findVolume(db: Queryable, id: string): Promise<VolumeRow | undefined> {
  if (!uuidPattern.test(id)) return undefined;
  const { rows } = await db.query<VolumeRow>(`SELECT ${columns} FROM machines.volumes WHERE id = $1`, [id]);
  return rows[0];
}

export async function findVolumeByName(
  db: Queryable,
  name: string,
  region?: string,
): Promise<VolumeRow | undefined> {
  const { rows } = await db.query<VolumeRow>(
    `SELECT ${columns} FROM machines.volumes WHERE name = $1 AND ($2::text IS NULL OR region = $2) ORDER BY created_at LIMIT 1`,
    [name, region ?? null],
  );
  return rows[0];
}

export async function listVolumes(
  db: Queryable,
  filter: { name?: string; region?: string; limit: number; offset: number },
): Promise<{ rows: VolumeRow[]; total: number }> {
  const where = 'WHERE ($1::text IS NULL OR name = $1) AND ($2::text IS NULL OR region = $2)';
  const params = [filter.name ?? null, filter.region ?? null];
  const { rows } = await db.query<VolumeRow>(
    `SELECT ${columns} FROM machines.volumes ${where} ORDER BY created_at, id LIMIT $3 OFFSET $4`,
    [...params, filter.limit, filter.offset],
  );
  const count = await db.query<{ n: string }>(`SELECT count(*) AS n FROM machines.volumes ${where}`, params);
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

export async function deleteVolume(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM machines.volumes WHERE id = $1', [id]);
}

/** Whether a volume has an attach, detach or resize that has not completed by `cutoff`. */
export async function volumeBusy(db: Queryable, id: string, cutoff: Date): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM machines.actions WHERE params->>'volume_id' = $1 AND started_at > $2 LIMIT 1`,
    [id, cutoff],
  );
  return rows.length > 0;
}
