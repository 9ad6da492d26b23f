import type { Migration } from '../../../../platform/database.js';

/**
 * Certificates for load balancers and CDN endpoints. A custom certificate keeps its PEM certificates, never the
 * private key: nothing here terminates TLS, so the key is checked against the certificate and dropped.
 */
export const certificatesMigration: Migration = {
  name: '402_certificates',
  sql: `
    CREATE TABLE machines.certificates (
      id uuid PRIMARY KEY,
      name text NOT NULL UNIQUE,
      type text NOT NULL,
      dns_names text[] NOT NULL,
      not_after timestamptz NOT NULL,
      sha1_fingerprint text NOT NULL,
      leaf_certificate text,
      certificate_chain text,
      created_at timestamptz NOT NULL
    );
  `,
};
