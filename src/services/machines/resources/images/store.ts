import type { Queryable } from '../../../../platform/database.js';
import { isRowId } from '../../store.js';
import type { UserImageRow } from './row.js';

const columns = `id, name, type, machine_id, base_image_id, region, min_disk_size, size_gigabytes, tags, created_at,
  url, distribution, description, transferred`;

export async function findUserImage(db: Queryable, id: number): Promise<UserImageRow | undefined> {
  if (!isRowId(id)) return undefined;
  const { rows } = await db.query<UserImageRow>(`SELECT ${columns} FROM machines.images WHERE id = $1`, [id]);
  return rows[0];
}

export async function listUserImages(
  db: Queryable,
  filter: { type?: 'snapshot' | 'backup'; machineId?: number; tag?: string } = {},
): Promise<UserImageRow[]> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.type) add('type = ?', filter.type);
  if (filter.machineId !== undefined) add('machine_id = ?', filter.machineId);
  if (filter.tag !== undefined) add('tags @> ARRAY[?]::text[]', filter.tag);
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const { rows } = await db.query<UserImageRow>(
    `SELECT ${columns} FROM machines.images ${where} ORDER BY id`,
    params,
  );
  return rows;
}

export async function insertUserImage(
  db: Queryable,
  image: Omit<UserImageRow, 'id' | 'tags'>,
): Promise<UserImageRow> {
  const { rows } = await db.query<UserImageRow>(
    `INSERT INTO machines.images (name, type, machine_id, base_image_id, region, min_disk_size, size_gigabytes, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${columns}`,
    [
      image.name,
      image.type,
      image.machine_id,
      image.base_image_id,
      image.region,
      image.min_disk_size,
      image.size_gigabytes,
      image.created_at,
    ],
  );
  return rows[0] as UserImageRow;
}

/** A custom image imported from `url`; it is `NEW` until the provisioning time has passed. */
export async function insertCustomImage(
  db: Queryable,
  image: {
    name: string;
    url: string;
    region: string;
    distribution: string;
    description: string;
    tags: string[];
  },
  now: Date,
): Promise<UserImageRow> {
  const { rows } = await db.query<UserImageRow>(
    `INSERT INTO machines.images (name, type, region, min_disk_size, size_gigabytes, url, distribution, description,
       tags, created_at)
     VALUES ($1, 'custom', $2, 20, 2, $3, $4, $5, $6, $7) RETURNING ${columns}`,
    [image.name, image.region, image.url, image.distribution, image.description, image.tags, now],
  );
  return rows[0] as UserImageRow;
}

export async function updateUserImage(
  db: Queryable,
  id: number,
  change: { name?: string; distribution?: string; description?: string },
): Promise<void> {
  await db.query(
    `UPDATE machines.images SET name = coalesce($2, name), distribution = coalesce($3, distribution),
       description = coalesce($4, description) WHERE id = $1`,
    [id, change.name ?? null, change.distribution ?? null, change.description ?? null],
  );
}

export async function deleteUserImage(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM machines.images WHERE id = $1', [id]);
}

/** Image actions' effects: a transfer adds a region, a convert makes a backup a snapshot. */
export async function transferImage(db: Queryable, id: number, region: string): Promise<void> {
  await db.query('UPDATE machines.images SET transferred = array_append(transferred, $2) WHERE id = $1', [
    id,
    region,
  ]);
}
export async function convertImage(db: Queryable, id: number): Promise<void> {
  await db.query(`UPDATE machines.images SET type = 'snapshot' WHERE id = $1`, [id]);
}
