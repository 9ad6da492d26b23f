import type { Database } from '../../../../platform/database.js';
import { likePattern } from '../../like.js';

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

/** A comment's stored columns (the rest of CommentRow is joined or derived). */
export type CommentFields = Partial<
  Omit<CommentRow, 'id' | 'avatar_email' | 'post_slug' | 'post_status' | 'post_type' | 'has_children'>
>;
export type NewComment = CommentFields & {
  post: number;
  parent: number;
  author: number;
  author_email: string;
  content: string;
};

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

  /** Changes the given fields of a stored comment. */
  async save(fields: CommentFields, id: number) {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (entries.length)
      await this.db.query(
        `UPDATE content.comments SET ${entries.map(([k], i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1`,
        [id, ...entries.map(([, v]) => v)],
      );
    return (await this.find(id)) as CommentRow;
  }

  /**
   * A new comment, unless WordPress's wp_allow_comment refuses it: an identical comment (same post, parent, e-mail
   * and content, not trashed) is a `duplicate`; with `flood`, a comment less than 15 whole seconds after that
   * user's or that e-mail's last one (in the hour before `now`) is a `flood`. Both are decided under transaction
   * locks on the author, the e-mail and the post with the e-mail, so comments sent at once, by any process on the
   * database, take turns: the first is stored and the others find it (WordPress checks, then inserts, and may store
   * them all). Times are the service clock's (`now`), never SQL's; `now` is also the date of a comment given none.
   */
  async create(
    fields: NewComment,
    { now, flood }: { now: Date; flood: boolean },
  ): Promise<CommentRow | 'duplicate' | 'flood'> {
    const row = { ...fields, date: fields.date ?? now };
    const entries = Object.entries(row).filter(([, v]) => v !== undefined);
    const outcome = await this.db.transaction(async (tx) => {
      // Always in this order (author, e-mail, post and e-mail), so two comments never wait on each other's lock.
      const locks = flood ? [`author ${row.author}`, `email ${row.author_email.toLowerCase()}`] : [];
      locks.push(`${row.post} ${row.author_email.toLowerCase()}`);
      for (const key of locks)
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext('backlot comment ' || $1))`, [key]);
      const duplicate = await tx.query(
        `SELECT 1 FROM content.comments WHERE post = $1 AND parent = $2 AND lower(author_email) = lower($3)
         AND content = $4 AND status <> 'trash' LIMIT 1`,
        [row.post, row.parent, row.author_email, row.content],
      );
      if (duplicate.rows.length) return 'duplicate' as const;
      if (flood) {
        const last = await tx.query<{ date: Date }>(
          `SELECT date FROM content.comments WHERE date >= $1::timestamptz - interval '1 hour'
           AND (author = $2 OR lower(author_email) = lower($3)) ORDER BY date DESC LIMIT 1`,
          [now, row.author, row.author_email],
        );
        const seconds = (date: Date) => Math.floor(new Date(date).getTime() / 1000);
        if (last.rows[0] && seconds(now) - seconds(last.rows[0].date) < 15) return 'flood' as const;
      }
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO content.comments (${entries.map(([k]) => k).join(', ')})
         VALUES (${entries.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
        entries.map(([, v]) => v),
      );
      return rows[0]?.id as number;
    });
    return typeof outcome === 'number' ? ((await this.find(outcome)) as CommentRow) : outcome;
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
