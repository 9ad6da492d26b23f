import { isoSeconds } from '../../time.js';
import { endpointOf } from './rules.js';
import type { EndpointRow } from './store.js';

export function presentEndpoint(row: EndpointRow) {
  return {
    id: row.id,
    origin: row.origin,
    endpoint: endpointOf(row.origin),
    ttl: row.ttl,
    ...(row.certificate_id ? { certificate_id: row.certificate_id } : {}),
    ...(row.custom_domain ? { custom_domain: row.custom_domain } : {}),
    created_at: isoSeconds(new Date(row.created_at)),
  };
}
