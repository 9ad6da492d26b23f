import type { Migration } from '../../../../platform/database.js';

/**
 * Custom images (imported from a URL) live with snapshots and backups: no base image, a distribution and
 * description of their own, and the regions they were transferred to besides the first.
 */
export const customImagesMigration: Migration = {
  name: '505_custom_images',
  sql: `
    ALTER TABLE machines.images
      ALTER COLUMN base_image_id DROP NOT NULL,
      ADD COLUMN url text,
      ADD COLUMN distribution text,
      ADD COLUMN description text,
      ADD COLUMN transferred text[] NOT NULL DEFAULT '{}';
  `,
};
