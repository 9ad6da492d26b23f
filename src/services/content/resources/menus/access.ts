import { can } from '../../capabilities.js';
import { refused } from '../../errors.js';
import type { UserRow } from '../../store.js';

/** Menus, their items and locations are the theme's: `edit_theme_options` (administrators) writes them. */
export const canEditMenus = (me: UserRow | undefined) => can(me, 'edit_theme_options');

/**
 * `check_has_read_only_access` (6.1, menus and menu items): reading needs edit_theme_options, or the right to edit
 * any post type shown in the REST API (edit_posts or edit_pages: contributors and up). Visitors and subscribers
 * are refused.
 */
export function checkMenuReader(me: UserRow | undefined, what: 'menus' | 'menu items') {
  if (canEditMenus(me) || can(me, 'edit_posts') || can(me, 'edit_pages')) return;
  throw refused(!!me, 'rest_cannot_view', `Sorry, you are not allowed to view ${what}.`);
}
