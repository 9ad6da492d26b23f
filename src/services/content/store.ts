import { ledgerCount } from '../../platform/count-ledger.js';
import type { Database, Queryable } from '../../platform/database.js';
import { listTotal } from '../../platform/list-counts.js';
import type { ImageMeta } from './image-meta.js';
import type { ImageSize } from './image-sizes.js';
import { likePattern } from './like.js';

export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';
export type PostStatus = 'publish' | 'future' | 'draft' | 'pending' | 'private' | 'trash' | 'inherit';
export type PostType = 'post' | 'page' | 'attachment' | 'revision' | 'wp_block' | 'wp_navigation';

/** An attachment's file: where it is stored and what was read from it. */
export interface MediaInfo {
  key: string;
  file: string;
  filesize: number;
  width?: number;
  height?: number;
  alt_text: string;
  /** Resized copies, in the order core made them (a list: jsonb does not keep key order). */
  sizes?: (ImageSize & { name: string })[];
  image_meta?: ImageMeta;
  /** The uploaded file's name when `file` is its `-scaled` copy, as core's `original_image`. */
  original_image?: string;
}

export interface UserRow {
  id: number;
  login: string;
  email: string;
  display_name: string;
  first_name: string;
  last_name: string;
  nickname: string;
  description: string;
  url: string;
  language: string;
  slug: string;
  role: Role;
  registered_at: Date;
  trashed_at: Date | null;
}

export interface PostRow {
  id: number;
  author: number;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  status: PostStatus;
  trashed_from: PostStatus | null;
  comment_status: string;
  ping_status: string;
  sticky: boolean;
  format: string;
  date: Date;
  modified: Date;
  categories: number[];
  tags: number[];
  type: PostType;
  parent: number;
  menu_order: number;
  template: string;
  password: string;
  featured_media: number;
  mime_type: string;
  media: MediaInfo | null;
  /** The path of its permalink when it was created (`/hello/`), or null for the plain `?p=` one (see guid). */
  guid?: string | null;
  /** A page's ancestors' slugs (`about/team`), which its permalink starts with; null without a parent. */
  path?: string | null;
  /** Kept by RevisionStore: how many revisions the post has, and the newest one's id (lists read them free). */
  revision_count?: number;
  last_revision?: number | null;
}

export interface TermRow {
  id: number;
  taxonomy: 'category' | 'post_tag';
  name: string;
  slug: string;
  description: string;
  parent: number;
  count: number;
}

/** A post's term ids in the order wp_get_object_terms gives them: by name (then id, for equal names). */
const termIds = (taxonomy: string) =>
  `COALESCE((SELECT array_agg(t.id ORDER BY t.name, t.id) FROM content.post_terms pt
     JOIN content.terms t ON t.id = pt.term_id WHERE pt.post_id = p.id AND t.taxonomy = '${taxonomy}'), '{}')`;

/** `about/team`: the slugs from the top ancestor down to `parent` (get_page_uri), cut off at 50 levels. */
export const ancestorsPath = (parent: string) =>
  `WITH RECURSIVE up(id, parent, slug, depth) AS (
     SELECT id, parent, slug, 1 FROM content.posts WHERE id = ${parent}
     UNION ALL SELECT a.id, a.parent, a.slug, up.depth + 1 FROM content.posts a JOIN up ON a.id = up.parent
       WHERE up.depth < 50)
   SELECT string_agg(slug, '/' ORDER BY depth DESC) FROM up`;

/**
 * A post row's columns; `path` (a page's ancestors) only where pages can be among the rows: PGlite plans every
 * query anew, and planning the recursive subquery cost a list of posts a fifth of its time.
 */
const columnsOf = (pages: boolean) => `p.id, p.author, p.title, p.content, p.excerpt, p.slug, p.status,
  p.trashed_from, p.comment_status, p.ping_status, p.sticky, p.format, p.date, p.modified, p.type, p.parent,
  p.menu_order, p.template, p.password, p.featured_media, p.mime_type, p.media,
  p.revision_count, p.last_revision, p.guid,
  ${pages ? `CASE WHEN p.type = 'page' AND p.parent <> 0 THEN (${ancestorsPath('p.parent')}) END` : 'NULL::text'} AS path,
  ${termIds('category')} AS categories,
  ${termIds('post_tag')} AS tags`;
const postColumns = columnsOf(true);
const nonPageColumns = columnsOf(false);

/** LIKE pattern for a user's search words, with the wildcards they typed taken literally. */

export interface PostFilter {
  type?: PostType;
  statuses: PostStatus[];
  search?: string;
  /** A search leaves password-protected posts out (WP_Query's parse_search, for visitors not logged in). */
  searchSkipsProtected?: boolean;
  authors?: number[];
  authorExclude?: number[];
  categories?: number[];
  tags?: number[];
  categoriesExclude?: number[];
  tagsExclude?: number[];
  /** How `categories` and `tags` combine (WordPress's `tax_relation`, AND by default). */
  taxRelation?: 'AND' | 'OR';
  include?: number[];
  exclude?: number[];
  slugs?: string[];
  sticky?: boolean;
  parents?: number[];
  parentExclude?: number[];
  menuOrder?: number;
  /** Attachments of posts the public cannot read stay hidden (core checks each item's parent). */
  publicParentsOnly?: boolean;
  /** Attachments whose MIME type starts with this (`image/`) or equals it. */
  mimePrefix?: string;
  /** The search also matches the attachment's file path (core's wp_allow_query_attachment_by_filename). */
  searchFiles?: boolean;
  /** Strict bounds, as WordPress's date_query without `inclusive`. */
  before?: Date;
  after?: Date;
  modifiedBefore?: Date;
  modifiedAfter?: Date;
  /** Callers who may not see others' unpublished posts: only published ones and their own. */
  visibleTo?: number;
  orderby: 'author' | 'date' | 'id' | 'modified' | 'slug' | 'title' | 'menu_order' | 'parent';
  order: 'asc' | 'desc';
  /**
   * Core's FIELD() orders, ascending whatever `order` says (WP_Query's force_asc): `orderby=include` by the ids'
   * order, `include_slugs` by the slugs' (without slugs, core falls back to the date, ascending).
   */
  listOrder?: ListOrder;
  /** `orderby=relevance`: posts whose title holds the search come first (WP_Query's search_orderby_title). */
  titleFirst?: boolean;
  /** Undefined means every matching post. */
  limit?: number;
  offset: number;
}

/** Core's FIELD() orders: by the position of each row's id (`include`) or slug (`include_slugs`) in the list. */
export type ListOrder = { ids: number[] } | { slugs: string[] };

const postOrder: Record<PostFilter['orderby'], string> = {
  author: 'p.author',
  date: 'p.date',
  id: 'p.id',
  modified: 'p.modified',
  slug: 'p.slug',
  title: 'p.title',
  menu_order: 'p.menu_order',
  parent: 'p.parent',
};

/**
 * The count-ledger keys whose sum is the total of a list filtered by type, statuses and (optionally) authors
 * (migration 903_post_counts keys each post by `type/status` and `type/status/author`); each post is in one key.
 */
export function postCountKeys(type: string, statuses: string[], authors?: number[]) {
  const keys: string[] = [];
  for (const status of new Set(statuses)) {
    if (!authors) keys.push(`${type}/${status}`);
    else for (const author of new Set(authors)) keys.push(`${type}/${status}/${author}`);
  }
  return keys;
}

export class ContentStore {
  constructor(readonly db: Database) {}

  transaction<T>(fn: (tx: Queryable) => Promise<T>) {
    return this.db.transaction(fn);
  }

  async findUser(id: number, includeTrashed = false): Promise<UserRow | undefined> {
    const { rows } = await this.db.query<UserRow>(
      `SELECT * FROM content.users WHERE id = $1 ${includeTrashed ? '' : 'AND trashed_at IS NULL'}`,
      [id],
    );
    return rows[0];
  }

  /** By login or e-mail, as the Basic-auth user name may be either. */
  async findUserByLogin(name: string): Promise<UserRow | undefined> {
    const { rows } = await this.db.query<UserRow>(
      'SELECT * FROM content.users WHERE (login = $1 OR lower(email) = lower($1)) AND trashed_at IS NULL ORDER BY login = $1 DESC LIMIT 1',
      [name],
    );
    return rows[0];
  }

  async findUsers(ids: number[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<UserRow>(
      'SELECT * FROM content.users WHERE id = ANY($1::int[]) AND trashed_at IS NULL',
      [ids],
    );
    return rows;
  }

  async userHasPublishedPosts(id: number) {
    const { rows } = await this.db.query(
      `SELECT 1 FROM content.posts WHERE author = $1 AND status = 'publish' LIMIT 1`,
      [id],
    );
    return rows.length > 0;
  }

  async listUsers(filter: {
    publishedOnly: boolean;
    search?: string;
    roles?: string[];
    include?: number[];
    exclude?: number[];
    slugs?: string[];
    /** `who=authors`: users above subscriber (user_level > 0). */
    authors?: boolean;
    orderby: 'id' | 'name' | 'slug' | 'registered_date' | 'email' | 'username' | 'url';
    order: 'asc' | 'desc';
    /** WP_User_Query's FIELD() orders: `include` (with `order`), `include_slugs` (nicename__in, without). */
    listOrder?: ListOrder;
    limit?: number;
    offset: number;
  }) {
    const where = ['u.trashed_at IS NULL'];
    const params: unknown[] = [];
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filter.publishedOnly)
      where.push(`EXISTS (SELECT 1 FROM content.posts p WHERE p.author = u.id AND p.status = 'publish')`);
    if (filter.search) {
      const like = add(likePattern(filter.search));
      // As core: e-mail addresses are searched only for callers who may list users (`list_users`).
      const email = filter.publishedOnly ? '' : ` OR u.email ILIKE ${like}`;
      where.push(`(u.login ILIKE ${like} OR u.display_name ILIKE ${like} OR u.slug ILIKE ${like}${email})`);
    }
    if (filter.roles?.length) where.push(`u.role = ANY(${add(filter.roles)}::text[])`);
    if (filter.include?.length) where.push(`u.id = ANY(${add(filter.include)}::int[])`);
    // As core's queries (post__in/post__not_in, include/exclude): with `include`, `exclude` is ignored.
    if (filter.exclude?.length && !filter.include?.length)
      where.push(`NOT (u.id = ANY(${add(filter.exclude)}::int[]))`);
    if (filter.slugs?.length) where.push(`u.slug = ANY(${add(filter.slugs)}::text[])`);
    if (filter.authors) where.push(`u.role <> 'subscriber'`);
    const column = {
      id: 'u.id',
      name: 'u.display_name',
      slug: 'u.slug',
      registered_date: 'u.registered_at',
      email: 'u.email',
      username: 'u.login',
      url: 'u.url',
    }[filter.orderby];
    // WordPress's tables use a case-insensitive collation: `newbie` sorts before `Sam`.
    const sortKey = column === 'u.id' || column === 'u.registered_at' ? column : `lower(${column})`;
    const whereSql = where.join(' AND ');
    const total = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM content.users u WHERE ${whereSql}`,
      params,
    );
    let order = `${sortKey} ${filter.order}, u.id ${filter.order}`;
    const listed = filter.listOrder;
    if (listed && 'ids' in listed) order = `array_position(${add(listed.ids)}::int[], u.id) ${filter.order}`;
    else if (listed?.slugs.length) order = `array_position(${add(listed.slugs)}::text[], u.slug::text)`;
    // FIELD(user_nicename, '') ties every user; MySQL then answers by id.
    else if (listed) order = 'u.id ASC';
    const limit = filter.limit === undefined ? '' : `LIMIT ${add(filter.limit)} OFFSET ${add(filter.offset)}`;
    const { rows } = await this.db.query<UserRow>(
      `SELECT u.* FROM content.users u WHERE ${whereSql} ORDER BY ${order} ${limit}`,
      params,
    );
    return { rows, total: total.rows[0]?.n ?? 0 };
  }

  async credentialHashes(userId: number, kind: 'app_password' | 'bearer') {
    const { rows } = await this.db.query<{ id: number; name: string; secret_hash: string }>(
      'SELECT id, name, secret_hash FROM content.credentials WHERE user_id = $1 AND kind = $2',
      [userId, kind],
    );
    return rows;
  }

  async findBearer(secretHash: string): Promise<UserRow | undefined> {
    const { rows } = await this.db.query<UserRow & { credential_id: number }>(
      `SELECT u.*, c.id AS credential_id FROM content.credentials c JOIN content.users u ON u.id = c.user_id
       WHERE c.kind = 'bearer' AND c.secret_hash = $1 AND u.trashed_at IS NULL`,
      [secretHash],
    );
    const row = rows[0];
    if (row) await this.markUsed(row.credential_id);
    return row;
  }

  async markUsed(credentialId: number, ip?: string) {
    await this.db.query('UPDATE content.credentials SET last_used_at = now(), last_ip = $2 WHERE id = $1', [
      credentialId,
      ip ?? null,
    ]);
  }

  /** Adds an application password for `userId` only when it has none at all (under a lock); true if added. */
  async addFirstAppPassword(userId: number, name: string, secretHash: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('backlot:content:app-passwords'))`);
      const { rows } = await tx.query(
        `INSERT INTO content.credentials (user_id, kind, name, secret_hash)
         SELECT $1, 'app_password', $2, $3
          WHERE NOT EXISTS (SELECT 1 FROM content.credentials WHERE user_id = $1 AND kind = 'app_password')
         ON CONFLICT (secret_hash) DO NOTHING
         RETURNING id`,
        [userId, name, secretHash],
      );
      return rows.length > 0;
    });
  }

  async addCredential(userId: number, kind: 'app_password' | 'bearer', name: string, secretHash: string) {
    await this.db.query(
      `INSERT INTO content.credentials (user_id, kind, name, secret_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT (secret_hash) DO NOTHING`,
      [userId, kind, name, secretHash],
    );
  }

  async listPosts(filter: PostFilter) {
    // One status (the public's case) is an equality, so the (status, date, id) index also gives the order.
    const single = filter.statuses.length === 1;
    const where = [single ? 'p.status = $1' : 'p.status = ANY($1::text[])', 'p.type = $2'];
    const params: unknown[] = [single ? filter.statuses[0] : filter.statuses, filter.type ?? 'post'];
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filter.search) {
      const like = add(likePattern(filter.search));
      const file = filter.searchFiles ? ` OR p.media->>'file' ILIKE ${like}` : '';
      where.push(`(p.title ILIKE ${like} OR p.content ILIKE ${like} OR p.excerpt ILIKE ${like}${file})`);
      if (filter.searchSkipsProtected) where.push(`p.password = ''`);
    }
    if (filter.authors?.length) where.push(`p.author = ANY(${add(filter.authors)}::int[])`);
    // Type, statuses and authors alone (no condition before these, none after): the ledger has the total.
    const ledgerCovers = where.length === (filter.authors?.length ? 3 : 2) ? where.length : -1;
    if (filter.authorExclude?.length) where.push(`NOT (p.author = ANY(${add(filter.authorExclude)}::int[]))`);
    if (filter.include?.length) where.push(`p.id = ANY(${add(filter.include)}::int[])`);
    // As core's queries (post__in/post__not_in, include/exclude): with `include`, `exclude` is ignored.
    if (filter.exclude?.length && !filter.include?.length)
      where.push(`NOT (p.id = ANY(${add(filter.exclude)}::int[]))`);
    if (filter.slugs?.length) where.push(`p.slug = ANY(${add(filter.slugs)}::text[])`);
    if (filter.sticky !== undefined) where.push(`p.sticky = ${add(filter.sticky)}`);
    if (filter.visibleTo !== undefined)
      where.push(`(p.status = 'publish' OR p.author = ${add(filter.visibleTo)})`);
    if (filter.parents?.length) where.push(`p.parent = ANY(${add(filter.parents)}::int[])`);
    if (filter.parentExclude?.length) where.push(`NOT (p.parent = ANY(${add(filter.parentExclude)}::int[]))`);
    if (filter.publicParentsOnly)
      where.push(
        `(p.parent = 0 OR EXISTS (SELECT 1 FROM content.posts pp WHERE pp.id = p.parent AND pp.status = 'publish'))`,
      );
    if (filter.mimePrefix)
      where.push(
        `(p.mime_type = ${add(filter.mimePrefix)} OR p.mime_type LIKE ${add(`${filter.mimePrefix.replace(/[\\%_]/g, '')}%`)})`,
      );
    if (filter.menuOrder !== undefined) where.push(`p.menu_order = ${add(filter.menuOrder)}`);
    if (filter.before) where.push(`p.date < ${add(filter.before)}`);
    if (filter.after) where.push(`p.date > ${add(filter.after)}`);
    if (filter.modifiedBefore) where.push(`p.modified < ${add(filter.modifiedBefore)}`);
    if (filter.modifiedAfter) where.push(`p.modified > ${add(filter.modifiedAfter)}`);
    const hasTerm = (ids: number[]) =>
      `EXISTS (SELECT 1 FROM content.post_terms pt WHERE pt.post_id = p.id AND pt.term_id = ANY(${add(ids)}::int[]))`;
    const included = [filter.categories, filter.tags].filter((ids) => ids?.length) as number[][];
    if (included.length)
      where.push(`(${included.map(hasTerm).join(filter.taxRelation === 'OR' ? ' OR ' : ' AND ')})`);
    for (const ids of [filter.categoriesExclude, filter.tagsExclude])
      if (ids?.length) where.push(`NOT ${hasTerm(ids)}`);
    const whereSql = where.join(' AND ');
    const countParams = [...params];
    let order = `${postOrder[filter.orderby]} ${filter.order}, p.id ${filter.order}`;
    const listed = filter.listOrder;
    if (listed && 'ids' in listed) order = `array_position(${add(listed.ids)}::int[], p.id)`;
    else if (listed?.slugs.length) order = `array_position(${add(listed.slugs)}::text[], p.slug::text)`;
    else if (listed) order = 'p.date ASC, p.id ASC';
    if (filter.titleFirst && filter.search)
      order = `(p.title ILIKE ${add(likePattern(filter.search))}) DESC, ${order}`;
    const limit = filter.limit === undefined ? '' : `LIMIT ${add(filter.limit)} OFFSET ${add(filter.offset)}`;
    const { rows } = await this.db.query<PostRow>(
      `SELECT ${filter.type && filter.type !== 'page' ? nonPageColumns : postColumns}
       FROM content.posts p WHERE ${whereSql} ORDER BY ${order} ${limit}`,
      params,
    );
    const shape = {
      rows: rows.length,
      limit: filter.limit,
      offset: filter.offset,
    };
    const authors = filter.authors?.length ? filter.authors : undefined;
    const counted =
      where.length === ledgerCovers
        ? () =>
            ledgerCount(
              this.db,
              'content.post_counts',
              postCountKeys(filter.type ?? 'post', filter.statuses, authors),
            )
        : undefined;
    const total = await listTotal(
      this.db,
      `FROM content.posts p WHERE ${whereSql}`,
      countParams,
      shape,
      counted,
    );
    return { rows, total };
  }

  async findPost(id: number, db: Queryable = this.db): Promise<PostRow | undefined> {
    const { rows } = await db.query<PostRow>(`SELECT ${postColumns} FROM content.posts p WHERE p.id = $1`, [
      id,
    ]);
    return rows[0];
  }

  /** Term ids among `ids` that do not exist in the taxonomy. */
  async missingTerms(ids: number[], taxonomy: 'category' | 'post_tag') {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<{ id: number }>(
      'SELECT id FROM content.terms WHERE taxonomy = $1 AND id = ANY($2::int[])',
      [taxonomy, ids],
    );
    const found = new Set(rows.map((r) => r.id));
    return ids.filter((id) => !found.has(id));
  }

  /** WordPress-style unique slug: `hello`, then `hello-2`, `hello-3`… */
  async uniqueSlug(tx: Queryable, base: string, exceptId: number) {
    // As wp_unique_post_slug: posts and pages clash only within their own type, attachments with every type;
    // revisions' slugs (`5-revision-v1`) never take a name away.
    const { rows } = await tx.query<{ slug: string }>(
      `WITH me AS (SELECT type FROM content.posts WHERE id = $3)
       SELECT slug FROM content.posts, me WHERE (slug = $1 OR slug LIKE $2) AND id <> $3 AND posts.type <> 'revision'
         AND (posts.type = me.type OR me.type = 'attachment' OR posts.type = 'attachment')`,
      [base, `${base}-%`, exceptId],
    );
    const taken = new Set(rows.map((r) => r.slug));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  async savePost(
    fields: Partial<Omit<PostRow, 'id' | 'categories' | 'tags'>> & { categories?: number[]; tags?: number[] },
    id?: number,
  ): Promise<PostRow> {
    return this.db.transaction(async (tx) => {
      const columns: string[] = [];
      const values: unknown[] = [];
      const keys = [
        'author',
        'title',
        'content',
        'excerpt',
        'status',
        'trashed_from',
        'date',
        'sticky',
      ] as const;
      const more = [
        'type',
        'parent',
        'menu_order',
        'template',
        'password',
        'featured_media',
        'mime_type',
      ] as const;
      for (const key of [...keys, 'comment_status', 'ping_status', 'format', ...more, 'modified'] as const) {
        if (fields[key] !== undefined) {
          columns.push(key);
          values.push(fields[key]);
        }
      }
      if (fields.media !== undefined) {
        columns.push('media');
        values.push(fields.media === null ? null : JSON.stringify(fields.media));
      }
      let postId = id;
      if (postId === undefined) {
        const placeholders = values.map((_, i) => `$${i + 1}`);
        const { rows } = await tx.query<{ id: number }>(
          `INSERT INTO content.posts (${columns.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING id`,
          values,
        );
        postId = rows[0]?.id as number;
      } else {
        // Any update moves `modified`, even one that changes no column (core's wp_update_post).
        const sets = columns.map((c, i) => `${c} = $${i + 2}`);
        if (fields.modified === undefined) sets.push('modified = now()');
        await tx.query(`UPDATE content.posts SET ${sets.join(', ')} WHERE id = $1`, [postId, ...values]);
      }
      if (fields.slug !== undefined) {
        const slug = fields.slug === '' ? '' : await this.uniqueSlug(tx, fields.slug, postId);
        await tx.query('UPDATE content.posts SET slug = $2 WHERE id = $1', [postId, slug]);
      }
      // wp_insert_post: a new post's guid is its permalink then, pretty once it is published or private.
      if (id === undefined && fields.type !== 'attachment')
        await tx.query(
          `UPDATE content.posts p SET guid = '/' || CASE WHEN p.type = 'page' AND p.parent <> 0
             THEN (${ancestorsPath('p.parent')}) || '/' ELSE '' END || p.slug || '/'
           WHERE p.id = $1 AND p.status IN ('publish', 'private') AND p.slug <> ''`,
          [postId],
        );
      for (const [taxonomy, ids] of [
        ['category', fields.categories],
        ['post_tag', fields.tags],
      ] as const) {
        if (ids === undefined) continue;
        await tx.query(
          `DELETE FROM content.post_terms pt USING content.terms t
           WHERE pt.post_id = $1 AND t.id = pt.term_id AND t.taxonomy = $2`,
          [postId, taxonomy],
        );
        if (ids.length)
          await tx.query(
            'INSERT INTO content.post_terms (post_id, term_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
            [postId, ids],
          );
      }
      return (await this.findPost(postId, tx)) as PostRow;
    });
  }

  /**
   * Deleting a post deletes its revisions too (its comments go by the foreign key), as in WordPress. The post is
   * locked first, so a revision being added (store-revisions.ts, fromLivePost) is either committed before the delete
   * statement starts, which then sees it, or finds the post gone.
   */
  async deletePost(id: number) {
    await this.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM content.posts WHERE id = $1 FOR UPDATE', [id]);
      await tx.query(`DELETE FROM content.posts WHERE id = $1 OR (type = 'revision' AND parent = $1)`, [id]);
    });
  }

  /**
   * Moves the user's posts to `reassign` (when given), then trashes or deletes the user. Deleting for good without
   * reassign is wp_delete_user's wp_delete_post on each post of a type deleted with its user (`delete_with_user`,
   * or no such setting and author support): media, revisions and what was already in the trash go for good (with
   * the revisions of those posts), while the posts and pages left (returned) stay, by the deleted author, for the
   * caller to trash. Menu items (`delete_with_user: false`), reusable blocks and navigation menus (no author
   * support) stay with the deleted author's id, as in WordPress.
   */
  async removeUser(id: number, options: { reassign?: number; force: boolean }): Promise<number[]> {
    return this.db.transaction(async (tx) => {
      if (options.reassign !== undefined)
        await tx.query('UPDATE content.posts SET author = $2 WHERE author = $1', [id, options.reassign]);
      if (options.force) {
        await tx.query(
          `WITH gone AS (
             DELETE FROM content.posts
             WHERE author = $1 AND (type IN ('attachment', 'revision') OR (type IN ('post', 'page') AND status = 'trash'))
             RETURNING id
           )
           DELETE FROM content.posts WHERE type = 'revision' AND parent IN (SELECT id FROM gone)`,
          [id],
        );
        await tx.query('DELETE FROM content.users WHERE id = $1', [id]);
        const { rows } = await tx.query<{ id: number }>(
          'SELECT id FROM content.posts WHERE author = $1 ORDER BY id',
          [id],
        );
        return rows.map((row) => row.id);
      } else {
        await tx.query('UPDATE content.users SET trashed_at = now() WHERE id = $1', [id]);
      }
      return [];
    });
  }

  async restoreUser(id: number) {
    await this.db.query('UPDATE content.users SET trashed_at = NULL WHERE id = $1', [id]);
  }

  async updateUserSettings(id: number, fields: Partial<Record<string, string>>) {
    const entries = Object.entries(fields);
    if (entries.length === 0) return;
    const sets = entries.map(([column], i) => `${column} = $${i + 2}`);
    await this.db.query(`UPDATE content.users SET ${sets.join(', ')} WHERE id = $1`, [
      id,
      ...entries.map(([, v]) => v),
    ]);
  }

  async emailTaken(email: string, exceptId: number) {
    const { rows } = await this.db.query(
      'SELECT 1 FROM content.users WHERE lower(email) = lower($1) AND id <> $2',
      [email, exceptId],
    );
    return rows.length > 0;
  }

  async listTerms(filter: {
    taxonomy: 'category' | 'post_tag';
    search?: string;
    include?: number[];
    exclude?: number[];
    slugs?: string[];
    hideEmpty: boolean;
    post?: number;
    parent?: number;
    orderby: 'id' | 'name' | 'slug' | 'count' | 'description';
    order: 'asc' | 'desc';
    /** WP_Term_Query's FIELD() orders, with `order`: `include`, `include_slugs` (slug__in). */
    listOrder?: ListOrder;
    limit?: number;
    offset: number;
  }) {
    const params: unknown[] = [filter.taxonomy];
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['t.taxonomy = $1'];
    if (filter.search) {
      const like = add(likePattern(filter.search));
      where.push(`(t.name ILIKE ${like} OR t.slug ILIKE ${like})`);
    }
    if (filter.include?.length) where.push(`t.id = ANY(${add(filter.include)}::int[])`);
    if (filter.slugs?.length) where.push(`t.slug = ANY(${add(filter.slugs)}::text[])`);
    // As core's queries (post__in/post__not_in, include/exclude): with `include`, `exclude` is ignored.
    if (filter.exclude?.length && !filter.include?.length)
      where.push(`NOT (t.id = ANY(${add(filter.exclude)}::int[]))`);
    if (filter.parent !== undefined) where.push(`t.parent = ${add(filter.parent)}`);
    if (filter.post !== undefined)
      where.push(
        `EXISTS (SELECT 1 FROM content.post_terms pt WHERE pt.term_id = t.id AND pt.post_id = ${add(filter.post)})`,
      );
    const counted = `SELECT t.*, (SELECT count(*)::int FROM content.post_terms pt JOIN content.posts p ON p.id = pt.post_id
                      WHERE pt.term_id = t.id AND p.status = 'publish') AS count
                     FROM content.terms t WHERE ${where.join(' AND ')}`;
    const hide = filter.hideEmpty ? 'WHERE count > 0' : '';
    const total = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (${counted}) c ${hide}`,
      params,
    );
    let order = `${filter.orderby} ${filter.order}, id ${filter.order}`;
    const listed = filter.listOrder;
    if (listed && 'ids' in listed) order = `array_position(${add(listed.ids)}::int[], id) ${filter.order}`;
    else if (listed?.slugs.length)
      order = `array_position(${add(listed.slugs)}::text[], slug::text) ${filter.order}`;
    const limit = filter.limit === undefined ? '' : `LIMIT ${add(filter.limit)} OFFSET ${add(filter.offset)}`;
    if (filter.hideEmpty || filter.orderby === 'count') {
      const { rows } = await this.db.query<TermRow>(
        `SELECT * FROM (${counted}) c ${hide} ORDER BY ${order} ${limit}`,
        params,
      );
      return { rows, total: total.rows[0]?.n ?? 0 };
    }
    const { rows } = await this.db.query<TermRow>(
      `SELECT t.* FROM content.terms t
       WHERE ${where.join(' AND ')} ORDER BY ${order} ${limit}`,
      params,
    );
    await this.withTermCounts(rows);
    return { rows, total: total.rows[0]?.n ?? 0 };
  }

  /** Undefined when a term with that slug already exists in the taxonomy. */
  /** Fills each term's `count`: its published posts, as WordPress's term_taxonomy.count. */
  private async withTermCounts(rows: TermRow[]) {
    if (rows.length === 0) return;
    const { rows: counted } = await this.db.query<{ id: number; n: number }>(
      `SELECT ids.id,
         (SELECT count(*)::int FROM content.post_terms pt JOIN content.posts p ON p.id = pt.post_id
           WHERE pt.term_id = ids.id AND p.status = 'publish') AS n
       FROM unnest($1::int[]) AS ids(id)`,
      [rows.map((r) => r.id)],
    );
    for (const c of counted) {
      const row = rows.find((r) => r.id === c.id);
      if (row) row.count = c.n;
    }
  }

  async createTerm(term: {
    taxonomy: 'category' | 'post_tag';
    name: string;
    slug: string;
    description: string;
    parent: number;
  }) {
    const { rows } = await this.db.query<{ id: number }>(
      `INSERT INTO content.terms (taxonomy, name, slug, description, parent) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (taxonomy, slug) DO NOTHING RETURNING id`,
      [term.taxonomy, term.name, term.slug, term.description, term.parent],
    );
    return rows[0]?.id;
  }

  async findTerm(taxonomy: 'category' | 'post_tag', id: number) {
    const { rows } = await this.listTerms({
      taxonomy,
      include: [id],
      hideEmpty: false,
      orderby: 'id',
      order: 'asc',
      offset: 0,
    });
    return rows[0];
  }
}
