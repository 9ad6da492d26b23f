import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../../platform/database.js';
import { apiError, unprocessable } from '../../errors.js';
import type { EndpointFields } from './rules.js';

export interface EndpointRow extends EndpointFields {
  id: string;
  created_at: Date;
}

const columns =
  'id::text AS id, origin, ttl, certificate_id::text AS certificate_id, custom_domain, created_at';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findEndpoint(db: Queryable, id: string): Promise<EndpointRow | undefined> {
  if (!uuid.test(id)) return undefined;
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${columns} FROM machines.cdn_endpoints WHERE id = $1`,
    [id],
  );
  return rows[0];
}

export async function listEndpoints(db: Queryable, limit: number, offset: number) {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${columns} FROM machines.cdn_endpoints ORDER BY created_at, id LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM machines.cdn_endpoints');
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

async function checkCertificate(db: Queryable, f: EndpointFields) {
  if (f.certificate_id === null) return;
  const { rows } = await db.query('SELECT 1 FROM machines.certificates WHERE id = $1', [f.certificate_id]);
  if (!rows.length) throw unprocessable(`Certificate ${f.certificate_id} could not be found.`);
}

export async function insertEndpoint(db: Queryable, f: EndpointFields, now: Date): Promise<EndpointRow> {
  await checkCertificate(db, f);
  const { rows } = await db.query<EndpointRow>(
    `INSERT INTO machines.cdn_endpoints (id, origin, ttl, certificate_id, custom_domain, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (origin) DO NOTHING RETURNING ${columns}`,
    [randomUUID(), f.origin, f.ttl, f.certificate_id, f.custom_domain, now],
  );
  if (!rows[0]) throw apiError(409, 'conflict', `An endpoint for ${f.origin} already exists.`);
  return rows[0];
}

export async function updateEndpoint(db: Queryable, id: string, f: EndpointFields): Promise<EndpointRow> {
  await checkCertificate(db, f);
  const { rows } = await db.query<EndpointRow>(
    `UPDATE machines.cdn_endpoints SET ttl = $2, certificate_id = $3, custom_domain = $4 WHERE id = $1
     RETURNING ${columns}`,
    [id, f.ttl, f.certificate_id, f.custom_domain],
  );
  return rows[0] as EndpointRow;
}

export async function markPurged(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query('UPDATE machines.cdn_endpoints SET purged_at = $2 WHERE id = $1', [id, now]);
}

export async function deleteEndpoint(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM machines.cdn_endpoints WHERE id = $1', [id]);
}
