import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../../platform/database.js';
import { apiError, unprocessable } from '../../errors.js';
import { type CertificateFields, fingerprintOf } from './rules.js';

export interface CertificateRow {
  id: string;
  name: string;
  type: 'custom' | 'lets_encrypt';
  dns_names: string[];
  not_after: Date;
  sha1_fingerprint: string;
  created_at: Date;
}

const columns = 'id::text AS id, name, type, dns_names, not_after, sha1_fingerprint, created_at';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LETS_ENCRYPT_DAYS = 90;

export async function findCertificate(db: Queryable, id: string): Promise<CertificateRow | undefined> {
  if (!uuid.test(id)) return undefined;
  const { rows } = await db.query<CertificateRow>(
    `SELECT ${columns} FROM machines.certificates WHERE id = $1`,
    [id],
  );
  return rows[0];
}

export async function listCertificates(
  db: Queryable,
  name: string | undefined,
  limit: number,
  offset: number,
) {
  const where = name ? 'WHERE name = $3' : '';
  const { rows } = await db.query<CertificateRow>(
    `SELECT ${columns} FROM machines.certificates ${where} ORDER BY created_at, id LIMIT $1 OFFSET $2`,
    [limit, offset, ...(name ? [name] : [])],
  );
  const count = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM machines.certificates ${where.replace('$3', '$1')}`,
    name ? [name] : [],
  );
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** The names a Let's Encrypt certificate covers must be in domains managed here, as the provider requires. */
async function checkManaged(db: Queryable, names: string[]) {
  for (const n of names) {
    const host = n.replace(/^\*\./, '');
    const { rows } = await db.query(
      `SELECT 1 FROM machines.domains WHERE name = $1 OR right($1, length(name) + 1) = '.' || name`,
      [host],
    );
    if (!rows.length) throw unprocessable(`${n} is not in a domain managed by DigitalOcean's DNS.`);
  }
}

export async function insertCertificate(
  db: Queryable,
  f: CertificateFields,
  now: Date,
): Promise<CertificateRow> {
  const { rows: taken } = await db.query('SELECT 1 FROM machines.certificates WHERE name = $1', [f.name]);
  if (taken.length) throw unprocessable(`A certificate named ${f.name} already exists.`);
  if (f.type === 'lets_encrypt') await checkManaged(db, f.dns_names);
  const id = randomUUID();
  const notAfter = f.not_after ?? new Date(now.getTime() + LETS_ENCRYPT_DAYS * 86_400_000);
  const { rows } = await db.query<CertificateRow>(
    `INSERT INTO machines.certificates
       (id, name, type, dns_names, not_after, sha1_fingerprint, leaf_certificate, certificate_chain, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${columns}`,
    [
      id,
      f.name,
      f.type,
      f.dns_names,
      notAfter,
      f.sha1_fingerprint ?? fingerprintOf(id),
      f.leaf_certificate ?? null,
      f.certificate_chain ?? null,
      now,
    ],
  );
  return rows[0] as CertificateRow;
}

/** A certificate a load balancer or CDN endpoint uses stays until they stop using it. */
export async function deleteCertificate(db: Queryable, id: string): Promise<void> {
  const { rows } = await db.query(
    `SELECT 1 FROM machines.load_balancers l, jsonb_array_elements(l.forwarding_rules) r
       WHERE r->>'certificate_id' = $1
     UNION ALL SELECT 1 FROM machines.cdn_endpoints c WHERE c.certificate_id = $1::uuid`,
    [id],
  );
  if (rows.length)
    throw apiError(409, 'conflict', 'The certificate is in use by a load balancer or CDN endpoint.');
  await db.query('DELETE FROM machines.certificates WHERE id = $1', [id]);
}
