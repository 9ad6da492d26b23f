/**
 * The REST response's own headers (WP_REST_Response::get_headers), named as WordPress names them: what
 * `_envelope` moves into the body and what a /batch/v1 sub-response lists. Headers the server sends itself
 * (no-cache, the API discovery Link) are not among them.
 */
export const envelopeHeaders = {
  'x-wp-total': 'X-WP-Total',
  'x-wp-totalpages': 'X-WP-TotalPages',
  link: 'Link',
  allow: 'Allow',
  location: 'Location',
} as const;
