import { unprocessable } from '../../errors.js';

export interface EndpointFields {
  origin: string;
  ttl: number;
  certificate_id: string | null;
  custom_domain: string | null;
}

const ttls = [60, 600, 3600, 86400, 604800];
// The provider's CDN fronts Spaces only: <bucket>.<region>.digitaloceanspaces.com.
const spacesOrigin = /^[a-z0-9]([a-z0-9-]{1,61}[a-z0-9])\.[a-z]{3}[0-9]\.digitaloceanspaces\.com$/;
const hostname = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The CDN host name of an origin: its bucket and region under cdn.digitaloceanspaces.com. */
export const endpointOf = (origin: string) =>
  origin.replace(/\.digitaloceanspaces\.com$/, '.cdn.digitaloceanspaces.com');

/** A new endpoint, or (with `current`) an update of ttl, certificate_id and custom_domain. */
export function checkEndpoint(body: Record<string, unknown>, current?: EndpointFields): EndpointFields {
  const origin = current?.origin ?? (typeof body.origin === 'string' ? body.origin.toLowerCase() : '');
  if (!current && !spacesOrigin.test(origin))
    throw unprocessable('origin must be a Spaces bucket, e.g. static.nyc3.digitaloceanspaces.com.');
  const ttl = body.ttl ?? current?.ttl ?? 3600;
  if (typeof ttl !== 'number' || !ttls.includes(ttl))
    throw unprocessable(`ttl must be one of ${ttls.join(', ')}.`);
  const pick = (key: 'certificate_id' | 'custom_domain') => {
    const v = body[key] === undefined ? current?.[key] : body[key];
    if (v === '' || v === null || v === undefined) return null;
    if (typeof v !== 'string') throw unprocessable(`${key} must be a string.`);
    return v.toLowerCase();
  };
  const certificate_id = pick('certificate_id');
  const custom_domain = pick('custom_domain');
  if (certificate_id !== null && !uuid.test(certificate_id))
    throw unprocessable('certificate_id must be a certificate id.');
  if (custom_domain !== null && !hostname.test(custom_domain))
    throw unprocessable('custom_domain must be a hostname.');
  if ((custom_domain === null) !== (certificate_id === null))
    throw unprocessable(
      'custom_domain and certificate_id are given together (a custom domain needs a certificate).',
    );
  return { origin, ttl, certificate_id, custom_domain };
}

/** Paths to purge: "*" for everything, a path, or a path ending in "/*". */
export function checkFiles(raw: unknown): string[] {
  if (
    !Array.isArray(raw) ||
    !raw.length ||
    !raw.every((f) => typeof f === 'string' && f !== '' && f.length <= 1024)
  )
    throw unprocessable('files must list at least one path ("*" purges everything).');
  return raw as string[];
}
