import { isoSeconds, isProvisioned } from '../../time.js';
import type { CertificateRow } from './store.js';

/** A custom certificate is verified at once; a Let's Encrypt one is `pending` for the provisioning time. */
export function presentCertificate(row: CertificateRow, provisionMs: number, now: number) {
  const issued = row.type === 'custom' || isProvisioned(new Date(row.created_at), provisionMs, now);
  return {
    id: row.id,
    name: row.name,
    not_after: isoSeconds(new Date(row.not_after)),
    sha1_fingerprint: row.sha1_fingerprint,
    created_at: isoSeconds(new Date(row.created_at)),
    dns_names: row.dns_names,
    state: issued ? ('verified' as const) : ('pending' as const),
    type: row.type,
  };
}
