import type { Database } from '../../platform/database.js';
import { likePattern } from './like.js';

export type CommentStatus = 'approved' | 'hold' | 'spam' | 'trash';

export interface CommentRow {
  id: number;
  post: number;
  parent: number;
  author: number;
  author_name: string;
  author_email: string;
  author_url: string;
  author_ip: string;
  author_user_agent: string;
  content: string;
  status: CommentStatus;
  trashed_from: CommentStatus | null;
  type: string;
  date: Date;
  /** The registered author's e-mail when there is one, else the comment's: what core's avatar is made from. */
  avatar_email: string;
  /** Joined: the post's slug and status, for the comment's link. */
  post_slug: string;
  post_status: string;
  post_type: string;
  has_children: boolean;
}

export interface CommentFilter {
  statuses: CommentStatus[];
  posts?: number[];
  postExclude?: number[];
  parents?: number[];
  parentExclude?: number[];
  authors?: number[];
  authorExclude?: number[];
  authorEmail?: string;
  include?: number[];
  exclude?: number[];
  search?: string;
  before?: Date;
  after?: Date;
  /** Core's comment_type (`comment` by default); every comment stored here is a `comment`. */
  type?: string;
  /** Callers without moderate_comments: approved comments, and their own. */
  visibleTo?: number | 'anonymous';
  orderby: 'date' | 'id' | 'post' | 'parent';
  /** `orderby=include`: the ids' order, whatever `order` says (WP_Comment_Query's comment__in FIELD()). */
  includeOrder?: number[];
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const columns = `c.*, p.slug AS post_slug, p.status AS post_status, p.type AS post_type,
  COALESCE((SELECT u.email FROM content.users u WHERE u.id = c.author AND c.author <> 0), c.author_email) AS avatar_email,
  EXISTS (SELECT 1 FROM content.comments k WHERE k.parent = c.id) AS has_children`;

export class CommentStore {
  constructor(private readonly db: Database) {}

  async list(filter: CommentFilter) {
    const params: unknown[] = [filter.statuses];
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['c.status = ANY($1::text[])'];
    const ids = (column: string, list: number[] | undefined, not = false) => {
      if (list?.length) where.push(`${not ? 'NOT ' : ''}(${column} = ANY(${add(list)}::int[]))`);
    };
    ids('c.post', filter.posts);
    ids('c.post', filter.postExclude, true);
    ids('c.parent', filter.parents);
    ids('c.parent', filter.parentExclude, true);
    ids('c.author', filter.authors);
    ids('c.author', filter.authorExclude, true);
    ids('c.id', filter.include);
    ids('c.id', filter.exclude, true);
    if (filter.authorEmail) where.push(`lower(c.author_email) = lower(${add(filter.authorEmail)})`);
    if (filter.search) {
      const like = add(likePattern(filter.search));
      where.push(
        `(c.content ILIKE ${like} OR c.author_name ILIKE ${like} OR c.author_email ILIKE ${like} OR c.author_url ILIKE ${like})`,
      );
    }
    if (filter.before) where.push(`c.date < ${add(filter.before)}`);
    if (filter.after) where.push(`c.date > ${add(filter.after)}`);
    // Comments on posts the public cannot read stay hidden from the public.
    if (filter.visibleTo === 'anonymous') where.push(`c.status = 'approved' AND p.status = 'publish'`);
    else if (filter.visibleTo !== undefined)
      where.push(
        `((c.status = 'approved' AND (p.status = 'publish' OR p.author = ${add(filter.visibleTo)})) OR c.author = ${add(filter.visibleTo)})`,
      );
    // Only plain comments are stored (no pingbacks, trackbacks or notes), so another type matches none.
    if (filter.type !== undefined && filter.type !== 'comment') where.push('false');
    const whereSql = where.join(' AND ');
    const from = 'content.comments c JOIN content.posts p ON p.id = c.post';
    const total = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${from} WHERE ${whereSql}`,
      params,
    );
    const column = { date: 'c.date', id: 'c.id', post: 'c.post', parent: 'c.parent' }[filter.orderby];
    const order = filter.includeOrder?.length
      ? `array_position(${add(filter.includeOrder)}::int[], c.id)`
      : `${column} ${filter.order}, c.id ${filter.order}`;
    const { rows } = await this.db.query<CommentRow>(
      `SELECT ${columns} FROM ${from} WHERE ${whereSql} ORDER BY ${order}
       LIMIT ${add(filter.limit)} OFFSET ${add(filter.offset)}`,
      params,
    );
    return { rows, total: total.rows[0]?.n ?? 0 };
  }

  async find(id: number): Promise<CommentRow | undefined> {
    const { rows } = await this.db.query<CommentRow>(
      `SELECT ${columns} FROM content.comments c JOIN content.posts p ON p.id = c.post WHERE c.id = $1`,
      [id],
    );
    return rows[0];
  }

  /** Whether this e-mail already has an approved comment (core's comment_previously_approved). */
  async previouslyApproved(email: string) {
    const { rows } = await this.db.query(
      `SELECT 1 FROM content.comments WHERE lower(author_email) = lower($1) AND status = 'approved' LIMIT 1`,
      [email],
    );
    return rows.length > 0;
  }

  /**
   * wp_check_comment_flood's query: when, in the last hour, this user (a visitor: this IP) or this e-mail last
   * commented.
   */
  async lastCommentAt(by: { user: number } | { ip: string }, email: string): Promise<Date | undefined> {
    const [column, value] = 'user' in by ? ['author', by.user] : ['author_ip', by.ip];
    const { rows } = await this.db.query<{ date: Date }>(
      `SELECT date FROM content.comments WHERE date >= now() - interval '1 hour'
       AND (${column} = $1 OR lower(author_email) = lower($2)) ORDER BY date DESC LIMIT 1`,
      [value, email],
    );
    return rows[0] ? new Date(rows[0].date) : undefined;
  }

  async duplicate(post: number, parent: number, email: string, content: string) {
    const { rows } = await this.db.query(
      `SELECT 1 FROM content.comments WHERE post = $1 AND parent = $2 AND lower(author_email) = lower($3)
       AND content = $4 AND status <> 'trash' LIMIT 1`,
      [post, parent, email, content],
    );
    return rows.length > 0;
  }

  async save(
    fields: Partial<Omit<CommentRow, 'id' | 'post_slug' | 'post_status' | 'post_type' | 'has_children'>>,
    id?: number,
  ) {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    let commentId = id;
    if (commentId === undefined) {
      const { rows } = await this.db.query<{ id: number }>(
        `INSERT INTO content.comments (${entries.map(([k]) => k).join(', ')})
         VALUES (${entries.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
        entries.map(([, v]) => v),
      );
      commentId = rows[0]?.id as number;
    } else if (entries.length) {
      await this.db.query(
        `UPDATE content.comments SET ${entries.map(([k], i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1`,
        [commentId, ...entries.map(([, v]) => v)],
      );
    }
    return (await this.find(commentId)) as CommentRow;
  }

  /**
   * A new comment, unless an identical one (the `duplicate` rule) is stored first: identical comments sent at once
   * take turns on a lock per post and e-mail, so one is stored and the others find it (WordPress checks, then
   * inserts, and may store both). Undefined for a duplicate.
   */
  async createUnlessDuplicate(
    fields: Partial<Omit<CommentRow, 'id' | 'post_slug' | 'post_status' | 'post_type' | 'has_children'>> & {
      post: number;
      parent: number;
      author_email: string;
      content: string;
    },
  ): Promise<CommentRow | undefined> {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    const n = entries.length;
    const id = await this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('backlot comment ' || $1 || ' ' || lower($2)))`, [
        fields.post,
        fields.author_email,
      ]);
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO content.comments (${entries.map(([k]) => k).join(', ')})
         SELECT ${entries.map((_, i) => `$${i + 1}`).join(', ')}
          WHERE NOT EXISTS (SELECT 1 FROM content.comments WHERE post = $${n + 1} AND parent = $${n + 2}
                              AND lower(author_email) = lower($${n + 3}) AND content = $${n + 4} AND status <> 'trash')
         RETURNING id`,
        [...entries.map(([, v]) => v), fields.post, fields.parent, fields.author_email, fields.content],
      );
      return rows[0]?.id;
    });
    return id === undefined ? undefined : this.find(id);
  }

  /** Deleting a comment for good re-attaches its replies to its parent, as wp_delete_comment does. */
  async delete(comment: CommentRow) {
    await this.db.transaction(async (tx) => {
      await tx.query('UPDATE content.comments SET parent = $2 WHERE parent = $1', [
        comment.id,
        comment.parent,
      ]);
      await tx.query('DELETE FROM content.comments WHERE id = $1', [comment.id]);
    });
  }
}
