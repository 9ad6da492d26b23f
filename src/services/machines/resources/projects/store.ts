import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../../../platform/database.js';

export interface ProjectRow {
  id: string;
  name: string;
  description: string;
  purpose: string;
  environment: string | null;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ProjectFields {
  name: string;
  description: string;
  purpose: string;
  environment: string | null;
  isDefault: boolean;
}

const columns =
  'p.id::text AS id, p.name, p.description, p.purpose, p.environment, p.is_default, p.created_at, p.updated_at';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Names are checked and written, and the default moved, under one lock.
const lock = `SELECT pg_advisory_xact_lock(hashtext('backlot:projects'))`;

export class NameTaken extends Error {}

/** A project by id, or the default one for `default`. */
export async function findProject(db: Queryable, id: string): Promise<ProjectRow | undefined> {
  if (id !== 'default' && !uuid.test(id)) return undefined;
  const { rows } = await db.query<ProjectRow>(
    `SELECT ${columns} FROM machines.projects p WHERE ${id === 'default' ? 'p.is_default' : 'p.id = $1'}`,
    id === 'default' ? [] : [id],
  );
  return rows[0];
}

export async function listProjects(db: Queryable, limit: number, offset: number) {
  const { rows } = await db.query<ProjectRow>(
    `SELECT ${columns} FROM machines.projects p ORDER BY p.created_at, p.id LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM machines.projects');
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

async function nameTaken(db: Queryable, name: string, except: string) {
  const { rows } = await db.query(
    'SELECT 1 FROM machines.projects WHERE lower(name) = lower($1) AND id::text <> $2',
    [name, except],
  );
  return rows.length > 0;
}

/** Writes a project (new when `id` is undefined); `isDefault` moves the account's default to it. */
export async function saveProject(db: Database, f: ProjectFields, now: Date, id?: string): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.query(lock);
    if (await nameTaken(tx, f.name, id ?? '')) throw new NameTaken();
    const key = id ?? randomUUID();
    if (f.isDefault)
      await tx.query('UPDATE machines.projects SET is_default = false WHERE is_default AND id <> $1', [key]);
    if (id === undefined) {
      await tx.query(
        `INSERT INTO machines.projects (id, name, description, purpose, environment, is_default, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
        [key, f.name, f.description, f.purpose, f.environment, f.isDefault, now],
      );
    } else {
      await tx.query(
        `UPDATE machines.projects SET name = $2, description = $3, purpose = $4, environment = $5,
           is_default = $6, updated_at = $7 WHERE id = $1`,
        [key, f.name, f.description, f.purpose, f.environment, f.isDefault, now],
      );
    }
    return key;
  });
}

export async function resourceCount(db: Queryable, projectId: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM machines.project_resources WHERE project_id = $1',
    [projectId],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function deleteProject(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM machines.projects WHERE id = $1', [id]);
}

export interface AssignedRow {
  urn: string;
  assigned_at: Date;
}

export async function listResources(db: Queryable, projectId: string, limit: number, offset: number) {
  const { rows } = await db.query<AssignedRow>(
    `SELECT urn, assigned_at FROM machines.project_resources WHERE project_id = $1
     ORDER BY assigned_at, urn LIMIT $2 OFFSET $3`,
    [projectId, limit, offset],
  );
  return { rows, total: await resourceCount(db, projectId) };
}

/** Moves resources into a project (a resource is in one project at a time). */
export async function assignResources(
  db: Database,
  projectId: string,
  urns: string[],
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const urn of urns) {
      await tx.query(
        `INSERT INTO machines.project_resources (urn, project_id, assigned_at) VALUES ($1, $2, $3)
         ON CONFLICT (urn) DO UPDATE SET project_id = excluded.project_id, assigned_at = excluded.assigned_at
         WHERE machines.project_resources.project_id <> excluded.project_id`,
        [urn, projectId, now],
      );
    }
  });
}
