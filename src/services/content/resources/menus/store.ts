import type { Database } from '../../../../platform/database.js';
import { likePattern } from '../../like.js';

/** A menu (WordPress's `nav_menu` term); `count` is how many published items it holds, as the term's count. */
export interface MenuRow {
  id: number;
  name: string;
  slug: string;
  description: string;
  auto_add: boolean;
  count: number;
}

export interface MenuFilter {
  search?: string;
  include?: number[];
  exclude?: number[];
  slugs?: string[];
  hideEmpty: boolean;
  /** Menus holding this menu item. */
  item?: number;
  orderby: 'id' | 'name' | 'slug' | 'count' | 'description';
  order: 'asc' | 'desc';
  /** WP_Term_Query's FIELD() orders: `include`, `include_slugs`. */
  listOrder?: { ids: number[] } | { slugs: string[] };
  limit: number;
  offset: number;
}

export class MenuStore {
  constructor(readonly db: Database) {}

  async list(filter: MenuFilter) {
    const params: unknown[] = [];
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['true'];
    if (filter.search) {
      const pattern = add(likePattern(filter.search));
      where.push(`(m.name ILIKE ${pattern} OR m.slug ILIKE ${pattern})`);
    }
    if (filter.include?.length) where.push(`m.id = ANY(${add(filter.include)}::int[])`);
    if (filter.slugs?.length) where.push(`m.slug = ANY(${add(filter.slugs)}::text[])`);
    if (filter.exclude?.length) where.push(`NOT (m.id = ANY(${add(filter.exclude)}::int[]))`);
    if (filter.item !== undefined)
      where.push(
        `EXISTS (SELECT 1 FROM content.menu_items i WHERE i.menu_id = m.id AND i.id = ${add(filter.item)})`,
      );
    const counted = `SELECT m.*, (SELECT count(*)::int FROM content.menu_items i
                       WHERE i.menu_id = m.id AND i.status = 'publish') AS count
                     FROM content.menus m WHERE ${where.join(' AND ')}`;
    const hide = filter.hideEmpty ? 'WHERE count > 0' : '';
    const total = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (${counted}) c ${hide}`,
      params,
    );
    let order = `${filter.orderby} ${filter.order}, id ${filter.order}`;
    const listed = filter.listOrder;
    if (listed && 'ids' in listed) order = `array_position(${add(listed.ids)}::int[], id) ${filter.order}`;
    else if (listed) order = `array_position(${add(listed.slugs)}::text[], slug::text) ${filter.order}`;
    const { rows } = await this.db.query<MenuRow>(
      `SELECT * FROM (${counted}) c ${hide} ORDER BY ${order} LIMIT ${add(filter.limit)} OFFSET ${add(filter.offset)}`,
      params,
    );
    return { rows, total: total.rows[0]?.n ?? 0 };
  }

  async find(id: number): Promise<MenuRow | undefined> {
    const { rows } = await this.list({
      include: [id],
      hideEmpty: false,
      orderby: 'id',
      order: 'asc',
      limit: 1,
      offset: 0,
    });
    return rows[0];
  }

  /** The menu of that name (case-insensitive, as MySQL compares), other than `except`. */
  async named(name: string, except = 0) {
    const { rows } = await this.db.query<{ id: number }>(
      'SELECT id FROM content.menus WHERE lower(name) = lower($1) AND id <> $2 LIMIT 1',
      [name, except],
    );
    return rows[0]?.id;
  }

  /** `wp_unique_term_slug`: `name`, then `name-2`, `name-3`… (a menu keeps its own). */
  async uniqueSlug(base: string, except: number) {
    const { rows } = await this.db.query<{ slug: string }>(
      'SELECT slug FROM content.menus WHERE (slug = $1 OR slug LIKE $2) AND id <> $3',
      [base, `${base}-%`, except],
    );
    const taken = new Set(rows.map((r) => r.slug));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  async create(menu: { name: string; slug: string; description: string; auto_add: boolean }) {
    const { rows } = await this.db.query<{ id: number }>(
      'INSERT INTO content.menus (name, slug, description, auto_add) VALUES ($1, $2, $3, $4) RETURNING id',
      [menu.name, menu.slug, menu.description, menu.auto_add],
    );
    return rows[0]?.id as number;
  }

  async update(
    id: number,
    fields: { name?: string; slug?: string; description?: string; auto_add?: boolean },
  ) {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (entries.length)
      await this.db.query(
        `UPDATE content.menus SET ${entries.map(([k], i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1`,
        [id, ...entries.map(([, v]) => v)],
      );
  }

  /** `wp_delete_nav_menu`: the menu and every item in it. */
  async delete(id: number) {
    await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM content.menu_items WHERE menu_id = $1', [id]);
      await tx.query('DELETE FROM content.menus WHERE id = $1', [id]);
    });
  }
}
