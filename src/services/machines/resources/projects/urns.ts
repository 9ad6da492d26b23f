import type { Queryable } from '../../../../platform/database.js';

/**
 * The kinds of resource a project may hold here, one line each: the table and key a URN names, and the path its
 * `links.self` points at. (Other kinds of the provider's URN pattern name products not served.)
 */
const kinds: Record<string, { exists: string; path: string }> = {
  droplet: { exists: 'SELECT 1 FROM machines.machines WHERE id::text = $1', path: 'droplets' },
  volume: { exists: 'SELECT 1 FROM machines.volumes WHERE id::text = $1', path: 'volumes' },
  floatingip: { exists: 'SELECT 1 FROM machines.reserved_ips WHERE ip = $1', path: 'reserved_ips' },
  domain: { exists: 'SELECT 1 FROM machines.domains WHERE name = $1', path: 'domains' },
  loadbalancer: {
    exists: 'SELECT 1 FROM machines.load_balancers WHERE id::text = $1',
    path: 'load_balancers',
  },
};

const urnPattern = /^do:([a-z]+):(.+)$/;

export type UrnCheck = { urn: string; problem?: 'malformed' | 'kind' | 'missing' };

/** Whether each URN is well formed, of a kind projects hold here, and names a stored resource. */
export async function checkUrn(db: Queryable, urn: string): Promise<UrnCheck> {
  const m = urnPattern.exec(urn);
  if (!m) return { urn, problem: 'malformed' };
  const kind = kinds[m[1] as string];
  if (!kind) return { urn, problem: 'kind' };
  const { rows } = await db.query(kind.exists, [m[2]]);
  return rows.length ? { urn } : { urn, problem: 'missing' };
}

/** `links.self` of an assigned resource. */
export function selfLink(base: string, urn: string): string {
  const [, kind, id] = urnPattern.exec(urn) ?? [];
  const path = kind ? kinds[kind]?.path : undefined;
  return path ? `${base}/v2/${path}/${id}` : `${base}/v2`;
}
