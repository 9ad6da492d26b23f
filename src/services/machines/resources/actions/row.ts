import type { Queryable } from '../../../../platform/database.js';
import { isRowId } from '../../store.js';

export interface ActionRow {
  id: number;
  type: string;
  resource_id: number | null;
  resource_type: string;
  region: string;
  started_at: Date;
  params: Record<string, unknown>;
}

export async function findAction(db: Queryable, id: number): Promise<ActionRow | undefined> {
  if (!isRowId(id)) return undefined;
  const { rows } = await db.query<ActionRow>(`SELECT ${actionColumns} FROM machines.actions WHERE id = $1`, [
    id,
  ]);
  return rows[0];
}

export const actionColumns = 'id, type, resource_id, resource_type, region, started_at, params';
