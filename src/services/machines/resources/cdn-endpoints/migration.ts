import type { Migration } from '../../../../platform/database.js';

/** CDN endpoints in front of Spaces buckets; `purged_at` is the last cache purge (nothing is cached here). */
export const cdnEndpointsMigration: Migration = {
  name: '404_cdn_endpoints',
  sql: `
    CREATE TABLE machines.cdn_endpoints (
      id uuid PRIMARY KEY,
      origin text NOT NULL UNIQUE,
      ttl integer NOT NULL,
      certificate_id uuid,
      custom_domain text,
      purged_at timestamptz,
      created_at timestamptz NOT NULL
    );
  `,
};
