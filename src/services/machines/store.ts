import type { Database, Queryable } from '../../platform/database.js';
import type { Scope } from './scopes.js';

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

export interface UserImageRow {
  id: number;
  name: string;
  type: 'snapshot' | 'backup';
  machine_id: number | null;
  base_image_id: number;
  region: string;
  min_disk_size: number;
  size_gigabytes: number;
  tags: string[];
  created_at: Date | string;
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

export interface ActionRow {
  id: number;
  type: string;
  resource_id: number | null;
  resource_type: string;
  region: string;
  started_at: Date;
  params: Record<string, unknown>;
}

export interface TokenRow {
  id: number;
  name: string;
  token_hash: string;
  scopes: Scope[];
  source: string;
  created_at: Date;
}

export class LimitExceeded extends Error {}

/** Ids are PostgreSQL integers: a larger number names nothing (and must not reach a query, where it is an error). */
export const isRowId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

/** A machine with what other tables say about it (volumes, snapshots, backups, the image it was built from). */
export const machineColumns = `m.id, m.name, m.region, m.size, m.image_id, m.tags, m.features, m.ipv6, m.vpc_uuid,
  m.created_at, m.power, m.disk, m.kernel_id, m.backup_policy,
  ARRAY(SELECT v.id::text FROM machines.volumes v WHERE v.machine_id = m.id ORDER BY v.created_at, v.id) AS volume_ids,
  ARRAY(SELECT i.id FROM machines.images i WHERE i.machine_id = m.id AND i.type = 'snapshot' ORDER BY i.id) AS snapshot_ids,
  ARRAY(SELECT i.id FROM machines.images i WHERE i.machine_id = m.id AND i.type = 'backup' ORDER BY i.id) AS backup_ids,
  (SELECT row_to_json(u) FROM machines.images u WHERE u.id = m.image_id) AS user_image`;
export const actionColumns = 'id, type, resource_id, resource_type, region, started_at, params';

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
      const inserted = await tx.query<{ id: number }>(
        `INSERT INTO machines.machines (name, region, size, image_id, tags, features, ipv6, vpc_uuid, user_data,
           ssh_key_ids, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
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
    conditions.push(`m.name = $${params.length}`);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const { rows } = await db.query<MachineRow>(
    `SELECT ${machineColumns} FROM machines.machines m ${where} ORDER BY m.id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, opts.limit, opts.offset],
  );
  const count = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM machines.machines m ${where}`,
    params,
  );
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
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
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query('DELETE FROM machines.machines WHERE id = $1', [id]);
    await tx.query('UPDATE machines.volumes SET machine_id = NULL WHERE machine_id = $1', [id]);
    return rowCount > 0;
  });
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

export async function findAction(db: Queryable, id: number): Promise<ActionRow | undefined> {
  if (!isRowId(id)) return undefined;
  const { rows } = await db.query<ActionRow>(`SELECT ${actionColumns} FROM machines.actions WHERE id = $1`, [
    id,
  ]);
  return rows[0];
}

const tokenColumns = 'id, name, token_hash, scopes, source, created_at';

export async function findTokenByHash(db: Queryable, hash: string): Promise<TokenRow | undefined> {
  const { rows } = await db.query<TokenRow>(
    `SELECT ${tokenColumns} FROM machines.tokens WHERE token_hash = $1`,
    [hash],
  );
  return rows[0];
}

export async function insertToken(
  db: Queryable,
  token: { name: string; hash: string; scopes: Scope[]; source: string },
): Promise<TokenRow> {
  const { rows } = await db.query<TokenRow>(
    `INSERT INTO machines.tokens (name, token_hash, scopes, source) VALUES ($1, $2, $3, $4) RETURNING ${tokenColumns}`,
    [token.name, token.hash, token.scopes, token.source],
  );
  return rows[0] as TokenRow;
}

export async function findTokenByName(db: Queryable, name: string): Promise<TokenRow | undefined> {
  const { rows } = await db.query<TokenRow>(`SELECT ${tokenColumns} FROM machines.tokens WHERE name = $1`, [
    name,
  ]);
  return rows[0];
}

export async function listTokens(db: Queryable): Promise<TokenRow[]> {
  const { rows } = await db.query<TokenRow>(`SELECT ${tokenColumns} FROM machines.tokens ORDER BY id`);
  return rows;
}

export async function deleteToken(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM machines.tokens WHERE id = $1', [id]);
}

/**
 * Makes the stored preset tokens match `MACHINES_TOKENS`: each preset is (re)written by name, and presets no
 * longer configured are removed, so changing the variable and restarting takes effect.
 */
export async function syncPresetTokens(
  db: Database,
  presets: { name: string; hash: string; scopes: Scope[] }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('backlot:machines:tokens'))`);
    await tx.query(`DELETE FROM machines.tokens WHERE source = 'preset' AND NOT (name = ANY ($1))`, [
      presets.map((p) => p.name),
    ]);
    for (const p of presets) {
      await tx.query('DELETE FROM machines.tokens WHERE (name = $1 OR token_hash = $2)', [p.name, p.hash]);
      await tx.query(
        `INSERT INTO machines.tokens (name, token_hash, scopes, source) VALUES ($1, $2, $3, 'preset')`,
        [p.name, p.hash, p.scopes],
      );
    }
  });
}

/** Creates the first-start token only when the account has no token at all (checked under a lock). */
export async function insertTokenIfNone(
  db: Database,
  token: { name: string; hash: string; scopes: Scope[] },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('backlot:machines:tokens'))`);
    const { rows } = await tx.query<{ n: string }>('SELECT count(*) AS n FROM machines.tokens');
    if (Number(rows[0]?.n ?? 0) > 0) return false;
    await insertToken(tx, { ...token, source: 'generated' });
    return true;
  });
}

/** Counts one request in the token's current hour and minute windows; returns both counts. */
export async function countRequest(
  db: Queryable,
  tokenId: number,
  hourStart: number,
  minuteStart: number,
): Promise<{ hour: number; minute: number }> {
  const { rows } = await db.query<{ window_kind: string; count: number }>(
    `INSERT INTO machines.rate_counters (token_id, window_kind, window_start, count)
     VALUES ($1, 'hour', $2, 1), ($1, 'minute', $3, 1)
     ON CONFLICT (token_id, window_kind, window_start)
     DO UPDATE SET count = machines.rate_counters.count + 1
     RETURNING window_kind, count`,
    [tokenId, hourStart, minuteStart],
  );
  const get = (kind: string) => Number(rows.find((r) => r.window_kind === kind)?.count ?? 0);
  return { hour: get('hour'), minute: get('minute') };
}

export async function deleteOldCounters(db: Queryable, before: number): Promise<void> {
  await db.query('DELETE FROM machines.rate_counters WHERE window_start < $1', [before]);
}
