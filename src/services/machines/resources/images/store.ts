import type { Queryable } from '../../../../platform/database.js';
import { isRowId } from '../../store.js';
import type { UserImageRow } from './row.js';

const columns =
  'id, name, type, machine_id, base_image_id, region, min_disk_size, size_gigabytes, tags, created_at';

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
