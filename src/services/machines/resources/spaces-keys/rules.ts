import { badRequest } from '../../errors.js';

export interface Grant {
  bucket: string;
  permission: 'read' | 'readwrite' | 'fullaccess';
}

const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function checkName(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.trim() || raw.length > 255)
    throw badRequest('name is required (at most 255 characters).');
  return raw;
}

/**
 * Per-bucket `read`/`readwrite` grants, or one `fullaccess` grant with an empty bucket (every bucket), as the
 * provider's document describes them.
 */
export function checkGrants(raw: unknown): Grant[] {
  if (!Array.isArray(raw) || !raw.length)
    throw badRequest('grants must name at least one bucket, or fullaccess.');
  const grants = raw.map((g): Grant => {
    const { bucket, permission } = (g ?? {}) as Record<string, unknown>;
    if (permission !== 'read' && permission !== 'readwrite' && permission !== 'fullaccess')
      throw badRequest('permission must be read, readwrite or fullaccess.');
    if (typeof bucket !== 'string') throw badRequest('bucket is required in every grant.');
    if (permission === 'fullaccess' ? bucket !== '' : !bucketPattern.test(bucket))
      throw badRequest(
        permission === 'fullaccess'
          ? 'A fullaccess grant has an empty bucket (it covers every bucket).'
          : `${JSON.stringify(bucket)} is not a valid bucket name.`,
      );
    return { bucket, permission };
  });
  if (grants.some((g) => g.permission === 'fullaccess') && grants.length > 1)
    throw badRequest('A fullaccess grant is the only grant of its key.');
  const buckets = grants.map((g) => g.bucket);
  if (new Set(buckets).size !== buckets.length) throw badRequest('Each bucket is granted once.');
  return grants;
}
