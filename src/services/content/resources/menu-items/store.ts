import type { Database } from '../../../../platform/database.js';
import { likePattern } from '../../like.js';

/** A menu item (WordPress's `nav_menu_item` post and its `_menu_item_*` meta) as stored. */
export interface MenuItemRow {
  id: number;
  menu_id: number;
  /** '' for an item of a post or term that shows the object's own title. */
  title: string;
  status: 'publish' | 'draft';
  type: 'taxonomy' | 'post_type' | 'post_type_archive' | 'custom';
  object: string;
  object_id: number;
  url: string;
  attr_title: string;
  description: string;
  parent: number;
  menu_order: number;
  target: string;
  classes: string[];
  xfn: string[];
}

export type MenuItemFields = Omit<MenuItemRow, 'id'>;

export interface MenuItemFilter {
  menus?: number[];
  menusExclude?: number[];
  include?: number[];
  exclude?: number[];
  search?: string;
  statuses: string[];
  menuOrder?: number;
  orderby: 'menu_order' | 'id' | 'title' | 'include';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const columns = [
  'menu_id',
  'title',
  'status',
  'type',
  'object',
  'object_id',
  'url',
  'attr_title',
  'description',
  'parent',
  'menu_order',
  'target',
  'classes',
  'xfn',
] as const;

export class MenuItemStore {
  constructor(readonly db: Database) {}

  async list(filter: MenuItemFilter) {
    const params: unknown[] = [filter.statuses];
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['status = ANY($1::text[])'];
    if (filter.menus?.length) where.push(`menu_id = ANY(${add(filter.menus)}::int[])`);
    if (filter.menusExclude?.length) where.push(`NOT (menu_id = ANY(${add(filter.menusExclude)}::int[]))`);
    if (filter.include?.length) where.push(`id = ANY(${add(filter.include)}::int[])`);
    if (filter.exclude?.length) where.push(`NOT (id = ANY(${add(filter.exclude)}::int[]))`);
    if (filter.menuOrder !== undefined) where.push(`menu_order = ${add(filter.menuOrder)}`);
    if (filter.search) {
      const pattern = add(likePattern(filter.search));
      where.push(`(title ILIKE ${pattern} OR description ILIKE ${pattern} OR attr_title ILIKE ${pattern})`);
    }
    const sql = `FROM content.menu_items WHERE ${where.join(' AND ')}`;
    const total = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n ${sql}`, params);
    const order =
      filter.orderby === 'include' && filter.include?.length
        ? `array_position(${add(filter.include)}::int[], id) ${filter.order}`
        : `${filter.orderby === 'include' ? 'id' : filter.orderby} ${filter.order}, id ${filter.order}`;
    const { rows } = await this.db.query<MenuItemRow>(
      `SELECT * ${sql} ORDER BY ${order} LIMIT ${add(filter.limit)} OFFSET ${add(filter.offset)}`,
      params,
    );
    return { rows, total: total.rows[0]?.n ?? 0 };
  }

  async find(id: number): Promise<MenuItemRow | undefined> {
    const { rows } = await this.db.query<MenuItemRow>('SELECT * FROM content.menu_items WHERE id = $1', [id]);
    return rows[0];
  }

  async create(item: MenuItemFields): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>(
      `INSERT INTO content.menu_items (${columns.join(', ')})
       VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
      columns.map((c) => item[c]),
    );
    const id = rows[0]?.id as number;
    // A custom link is its own object, as wp_update_nav_menu_item records it.
    if (item.type === 'custom')
      await this.db.query("UPDATE content.menu_items SET object = 'custom', object_id = id WHERE id = $1", [
        id,
      ]);
    return id;
  }

  async update(id: number, item: MenuItemFields) {
    await this.db.query(
      `UPDATE content.menu_items SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`,
      [id, ...columns.map((c) => item[c])],
    );
    if (item.type === 'custom')
      await this.db.query("UPDATE content.menu_items SET object = 'custom', object_id = id WHERE id = $1", [
        id,
      ]);
  }

  async delete(id: number) {
    await this.db.query('DELETE FROM content.menu_items WHERE id = $1', [id]);
  }

  /** Any term by id (get_term without a taxonomy): categories, tags and menus. */
  async termOf(
    id: number,
  ): Promise<{ id: number; taxonomy: string; name: string; slug: string } | undefined> {
    const { rows } = await this.db.query<{ id: number; taxonomy: string; name: string; slug: string }>(
      `SELECT id, taxonomy, name, slug FROM content.terms WHERE id = $1
       UNION ALL SELECT id, 'nav_menu', name, slug FROM content.menus WHERE id = $1`,
      [id],
    );
    return rows[0];
  }
}
