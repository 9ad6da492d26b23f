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
}

export interface ActionRow {
  id: number;
  type: string;
  resource_id: number;
  resource_type: string;
  region: string;
  started_at: Date;
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

const machineColumns = 'id, name, region, size, image_id, tags, features, ipv6, vpc_uuid, created_at';

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
      const machine = await tx.query<MachineRow>(
        `INSERT INTO machines.machines (name, region, size, image_id, tags, features, ipv6, vpc_uuid, user_data, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${machineColumns}`,
        [m.name, m.region, m.size, m.imageId, m.tags, m.features, m.ipv6, m.vpcUuid, m.userData, opts.now],
      );
      const row = machine.rows[0] as MachineRow;
      created.push(row);
      const action = await tx.query<ActionRow>(
        `INSERT INTO machines.actions (type, resource_id, resource_type, region, started_at)
         VALUES ('create', $1, $2, $3, $4) RETURNING id, type, resource_id, resource_type, region, started_at`,
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
  opts: { tag?: string; limit: number; offset: number },
): Promise<{ rows: MachineRow[]; total: number }> {
  const where = opts.tag === undefined ? '' : 'WHERE tags @> ARRAY[$3]::text[]';
  const params: unknown[] = [opts.limit, opts.offset];
  if (opts.tag !== undefined) params.push(opts.tag);
  const { rows } = await db.query<MachineRow>(
    `SELECT ${machineColumns} FROM machines.machines ${where} ORDER BY id LIMIT $1 OFFSET $2`,
    params,
  );
  const count = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM machines.machines ${opts.tag === undefined ? '' : 'WHERE tags @> ARRAY[$1]::text[]'}`,
    opts.tag === undefined ? [] : [opts.tag],
  );
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

export async function findMachine(db: Queryable, id: number): Promise<MachineRow | undefined> {
  const { rows } = await db.query<MachineRow>(
    `SELECT ${machineColumns} FROM machines.machines WHERE id = $1`,
    [id],
  );
  return rows[0];
}

export async function deleteMachine(db: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM machines.machines WHERE id = $1', [id]);
  return rowCount > 0;
}

export async function deleteMachinesByTag(db: Queryable, tag: string): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM machines.machines WHERE tags @> ARRAY[$1]::text[]', [tag]);
  return rowCount;
}

export async function findAction(db: Queryable, id: number): Promise<ActionRow | undefined> {
  const { rows } = await db.query<ActionRow>(
    'SELECT id, type, resource_id, resource_type, region, started_at FROM machines.actions WHERE id = $1',
    [id],
  );
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
