import type { Database, Queryable } from '../../../../platform/database.js';
import { isRowId } from '../../store.js';

export type TaggableType = 'droplet' | 'image' | 'volume';

/** Where each taggable resource keeps its tags, and how its id is written in SQL. */
const tables: Record<TaggableType, { table: string; id: string }> = {
  droplet: { table: 'machines.machines', id: 'id = $2::int' },
  image: { table: 'machines.images', id: 'id = $2::int' },
  volume: { table: 'machines.volumes', id: 'id = $2::uuid' },
};

export interface TagStats {
  name: string;
  last_type: TaggableType | null;
  last_id: string | null;
  counts: Record<TaggableType, number>;
  latest: Record<TaggableType, string | null>;
}

/** Creates a tag unless one exists in any case. */
export async function createTag(db: Queryable, name: string): Promise<void> {
  await db.query(
    `INSERT INTO machines.tags (name) SELECT $1::text
     WHERE NOT EXISTS (SELECT 1 FROM machines.tags WHERE lower(name) = lower($1)) ON CONFLICT DO NOTHING`,
    [name],
  );
}

/** Names as their tags are spelled: a tag keeps its first spelling, as the provider's do (`casetag` is `CaseTag`). */
export async function tagSpellings(db: Queryable, names: string[]): Promise<string[]> {
  if (!names.length) return names;
  const { rows } = await db.query<{ name: string }>(
    'SELECT name FROM machines.tags WHERE lower(name) = ANY ($1::text[])',
    [names.map((n) => n.toLowerCase())],
  );
  const spelled = names.map((n) => rows.find((r) => r.name.toLowerCase() === n.toLowerCase())?.name ?? n);
  return [...new Set(spelled)];
}

export async function tagSpelling(db: Queryable, name: string): Promise<string> {
  return (await tagSpellings(db, [name]))[0] as string;
}

/** How many resources of each type carry the tag, and the newest of each. */
export async function tagStats(db: Queryable, name: string): Promise<TagStats | undefined> {
  const { rows } = await db.query<{ name: string; last_type: TaggableType | null; last_id: string | null }>(
    'SELECT name, last_type, last_id FROM machines.tags WHERE name = $1',
    [name],
  );
  const tag = rows[0];
  if (!tag) return undefined;
  const { rows: stats } = await db.query<{ kind: TaggableType; n: string; latest: string | null }>(
    `SELECT 'droplet' AS kind, count(*) AS n, max(id)::text AS latest FROM machines.machines WHERE tags @> ARRAY[$1]::text[]
     UNION ALL
     SELECT 'image', count(*), max(id)::text FROM machines.images WHERE tags @> ARRAY[$1]::text[]
     UNION ALL
     SELECT 'volume', count(*), (array_agg(id::text ORDER BY created_at DESC))[1] FROM machines.volumes
       WHERE tags @> ARRAY[$1]::text[]`,
    [name],
  );
  const counts = { droplet: 0, image: 0, volume: 0 };
  const latest: Record<TaggableType, string | null> = { droplet: null, image: null, volume: null };
  for (const s of stats) {
    counts[s.kind] = Number(s.n);
    latest[s.kind] = s.latest;
  }
  return { ...tag, counts, latest };
}

export async function listTagNames(
  db: Queryable,
  limit: number,
  offset: number,
): Promise<{ names: string[]; total: number }> {
  const { rows } = await db.query<{ name: string }>(
    'SELECT name FROM machines.tags ORDER BY name LIMIT $1 OFFSET $2',
    [limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM machines.tags');
  return { names: rows.map((r) => r.name), total: Number(count.rows[0]?.n ?? 0) };
}

/** Removes the tag from every resource, then the tag itself. */
export async function deleteTag(db: Database, name: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    for (const { table } of Object.values(tables)) {
      await tx.query(`UPDATE ${table} SET tags = array_remove(tags, $1) WHERE tags @> ARRAY[$1]::text[]`, [
        name,
      ]);
    }
    const { rowCount } = await tx.query('DELETE FROM machines.tags WHERE name = $1', [name]);
    return rowCount > 0;
  });
}

export interface ResourceRef {
  type: TaggableType;
  id: string;
}

/**
 * Tags or untags resources, all or none: false when the tag or any resource does not exist.
 */
export async function changeTagging(
  db: Database,
  name: string,
  resources: ResourceRef[],
  add: boolean,
): Promise<boolean> {
  return db
    .transaction(async (tx) => {
      const tag = await tx.query('SELECT 1 FROM machines.tags WHERE name = $1 FOR UPDATE', [name]);
      if (tag.rows.length === 0) return false;
      for (const r of resources) {
        if (r.type !== 'volume' && !isRowId(Number(r.id))) throw new MissingResource();
        const { table, id } = tables[r.type];
        const change = add
          ? 'CASE WHEN tags @> ARRAY[$1]::text[] THEN tags ELSE array_append(tags, $1) END'
          : 'array_remove(tags, $1)';
        const { rowCount } = await tx.query(`UPDATE ${table} SET tags = ${change} WHERE ${id}`, [name, r.id]);
        if (rowCount === 0) throw new MissingResource();
      }
      const last = resources.at(-1);
      if (add && last) {
        await tx.query('UPDATE machines.tags SET last_type = $2, last_id = $3 WHERE name = $1', [
          name,
          last.type,
          last.id,
        ]);
      }
      return true;
    })
    .catch((error) => {
      if (error instanceof MissingResource) return false;
      throw error;
    });
}

class MissingResource extends Error {}
