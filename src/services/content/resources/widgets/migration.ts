import type { Migration } from '../../../../platform/database.js';

/**
 * Widgets as WordPress keeps them, in options: `sidebars_widgets` (each sidebar's widget ids, in order, as
 * [sidebar, ids] pairs so the order of sidebars survives) and `widget_block` (the block widgets' instances by
 * number, as [number, instance] pairs), seeded as a fresh WordPress 6.1 install leaves them; `hash_key` keys the
 * hash that vouches for an encoded instance (WordPress's wp_hash with the site's salt).
 */
export const widgetsMigration: Migration = {
  name: '220_widgets',
  sql: `
    CREATE TABLE widget_options (
      name text PRIMARY KEY,
      value json NOT NULL
    );
    INSERT INTO widget_options (name, value) VALUES
      ('sidebars_widgets', '[["wp_inactive_widgets", []],
        ["sidebar-1", ["block-2", "block-3", "block-4"]],
        ["sidebar-2", ["block-5", "block-6"]]]'),
      ('widget_block', '[
        [2, {"content": "<!-- wp:search /-->"}],
        [3, {"content": "<!-- wp:group --><div class=\\"wp-block-group\\"><!-- wp:heading --><h2>Recent Posts</h2><!-- /wp:heading --><!-- wp:latest-posts /--></div><!-- /wp:group -->"}],
        [4, {"content": "<!-- wp:group --><div class=\\"wp-block-group\\"><!-- wp:heading --><h2>Recent Comments</h2><!-- /wp:heading --><!-- wp:latest-comments {\\"displayAvatar\\":false,\\"displayDate\\":false,\\"displayExcerpt\\":false} /--></div><!-- /wp:group -->"}],
        [5, {"content": "<!-- wp:group --><div class=\\"wp-block-group\\"><!-- wp:heading --><h2>Archives</h2><!-- /wp:heading --><!-- wp:archives /--></div><!-- /wp:group -->"}],
        [6, {"content": "<!-- wp:group --><div class=\\"wp-block-group\\"><!-- wp:heading --><h2>Categories</h2><!-- /wp:heading --><!-- wp:categories /--></div><!-- /wp:group -->"}]
      ]'),
      ('hash_key', to_json(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')));
  `,
};
