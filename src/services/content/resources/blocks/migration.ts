import type { Migration } from '../../../../platform/database.js';

/**
 * Reusable blocks (`wp_block`) are posts, as in WordPress: they share the posts' table and id sequence, so the
 * type check grows to allow them (and `wp_navigation`, the navigation menus the block editor stores the same way).
 */
export const blockTypesMigration: Migration = {
  name: '210_block_post_types',
  sql: `
    ALTER TABLE posts DROP CONSTRAINT posts_type_check;
    ALTER TABLE posts ADD CONSTRAINT posts_type_check
      CHECK (type IN ('post', 'page', 'attachment', 'revision', 'wp_block', 'wp_navigation'));
  `,
};
