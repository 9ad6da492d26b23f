import type { Migration } from '../../../../platform/database.js';

/**
 * Menus and their items (WordPress's `nav_menu` terms and `nav_menu_item` posts). Their ids come from the terms' and
 * posts' sequences, as WordPress keeps them in wp_terms and wp_posts: a menu made between two categories takes the id
 * between theirs, so ids stay WordPress's.
 */
export const menuMigration: Migration = {
  name: '203_menus',
  sql: `
    CREATE TABLE menus (
      id integer PRIMARY KEY DEFAULT nextval('terms_id_seq'),
      name text NOT NULL,
      slug text NOT NULL UNIQUE,
      description text NOT NULL DEFAULT '',
      auto_add boolean NOT NULL DEFAULT false
    );
    CREATE TABLE menu_items (
      id integer PRIMARY KEY DEFAULT nextval('posts_id_seq'),
      -- 0: an item in no menu, which WordPress allows.
      menu_id integer NOT NULL DEFAULT 0,
      title text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'publish' CHECK (status IN ('publish', 'draft')),
      type text NOT NULL CHECK (type IN ('taxonomy', 'post_type', 'post_type_archive', 'custom')),
      object text NOT NULL DEFAULT '',
      object_id integer NOT NULL DEFAULT 0,
      url text NOT NULL DEFAULT '',
      attr_title text NOT NULL DEFAULT '',
      description text NOT NULL DEFAULT '',
      parent integer NOT NULL DEFAULT 0,
      menu_order integer NOT NULL DEFAULT 1,
      target text NOT NULL DEFAULT '',
      classes text[] NOT NULL DEFAULT '{}',
      xfn text[] NOT NULL DEFAULT '{}'
    );
    CREATE INDEX menu_items_menu ON menu_items (menu_id, menu_order);
  `,
};
