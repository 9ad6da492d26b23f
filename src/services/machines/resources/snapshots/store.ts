import type { Queryable } from '../../../../platform/database.js';
import { isRowId } from '../../store.js';
import { isoSeconds } from '../../time.js';

export type SnapshotType = 'droplet' | 'volume';

export interface SnapshotRow {
  id: string;
  name: string;
  created_at: Date;
  region: string;
  min_disk_size: number;
  size_gigabytes: number;
  resource_id: string | null;
  resource_type: SnapshotType;
  tags: string[];
}

// Droplet snapshots are the machines' snapshot images; volume snapshots have their own table (0 GB used: nothing
// is written to a volume here).
const all = `
  SELECT id::text AS id, name, created_at, region, min_disk_size, size_gigabytes::float8 AS size_gigabytes,
    machine_id::text AS resource_id, 'droplet' AS resource_type, tags
  FROM machines.images WHERE type = 'snapshot'
  UNION ALL
  SELECT id::text, name, created_at, region, min_disk_size, 0::float8, volume_id::text, 'volume', tags
  FROM machines.volume_snapshots`;

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isSnapshotId = (id: string) => uuid.test(id) || (/^\d{1,10}$/.test(id) && isRowId(Number(id)));

export async function listSnapshots(
  db: Queryable,
  opts: { type?: SnapshotType; volumeId?: string; limit: number; offset: number },
): Promise<{ rows: SnapshotRow[]; total: number }> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (opts.type) conditions.push(`resource_type = $${params.push(opts.type)}`);
  if (opts.volumeId)
    conditions.push(`resource_type = 'volume' AND resource_id = $${params.push(opts.volumeId)}`);
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const { rows } = await db.query<SnapshotRow & { total: string }>(
    `SELECT s.*, count(*) OVER () AS total FROM (${all}) s ${where} ORDER BY created_at, id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, opts.limit, opts.offset],
  );
  const total = rows[0] ? Number(rows[0].total) : await countSnapshots(db, where, params);
  return { rows, total };
}

// A page past the end has no row to carry the window count.
async function countSnapshots(db: Queryable, where: string, params: unknown[]) {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM (${all}) s ${where}`, params);
  return Number(rows[0]?.n ?? 0);
}

export async function findSnapshot(db: Queryable, id: string): Promise<SnapshotRow | undefined> {
  if (!isSnapshotId(id)) return undefined;
  const { rows } = await db.query<SnapshotRow>(`SELECT * FROM (${all}) s WHERE id = $1`, [id.toLowerCase()]);
  return rows[0];
}

export async function deleteSnapshot(db: Queryable, snapshot: SnapshotRow): Promise<void> {
  if (snapshot.resource_type === 'droplet')
    await db.query('DELETE FROM machines.images WHERE id = $1', [Number(snapshot.id)]);
  else await db.query('DELETE FROM machines.volume_snapshots WHERE id = $1', [snapshot.id]);
}

export const presentSnapshot = (row: SnapshotRow) => ({
  id: row.id,
  name: row.name,
  created_at: isoSeconds(new Date(row.created_at)),
  regions: [row.region],
  min_disk_size: row.min_disk_size,
  size_gigabytes: Number(row.size_gigabytes),
  resource_id: row.resource_id ?? '',
  resource_type: row.resource_type,
  tags: row.tags,
});
