import type { Database } from '../../platform/database.js';
import { likePattern } from './like.js';
import type { PostRow } from './store.js';

export interface RevisionRow {
  id: number;
  author: number;
  parent: number;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  date: Date;
  modified: Date;
}

export interface RevisionQuery {
  search?: string;
  include?: number[];
  exclude?: number[];
  orderby: 'date' | 'id' | 'include' | 'relevance' | 'slug' | 'include_slugs' | 'title';
  order: 'asc' | 'desc';
  /** Undefined: every revision (core's posts_per_page -1, which also ignores the offset). */
  limit?: number;
  offset: number;
}

const stopwords = new Set(
  'about an are as at be by com for from how in is it of on or that the this to was what when where who will with www'.split(
    ' ',
  ),
);

/** WP_Query's parse_search: quoted phrases and words; single letters and stopwords dropped unless nothing is left. */
function searchTerms(search: string): string[] {
  if (!search) return [];
  const found = search.match(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g) ?? [];
  const terms = found
    .map((term) =>
      /^".+"$/.test(term) ? term.replace(/^["']+|["']+$/g, '') : term.replace(/^["' ]+|["' ]+$/g, ''),
    )
    .filter(
      (term) => term && !(term.length === 1 && /^[a-z-]$/i.test(term)) && !stopwords.has(term.toLowerCase()),
    );
  return terms.length === 0 || terms.length > 9 ? [search] : terms;
}

const normalize = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();

/**
 * The values of a new revision (`$1` author, `$2` post, `$3`–`$5` title, content, excerpt, `$6` slug), selected from
 * the post's row under a lock: a post deleted meanwhile gets none. The lock makes a delete either wait for the
 * insert (and then remove the revision with the post, ContentStore.deletePost) or go first (and the insert finds no
 * post), so no revision outlives its post.
 */
export const fromLivePost = `SELECT 'revision', 'inherit', $1::int, $2::int, $3::text, $4::text, $5::text, $6::text, now(), now(),
              'closed', 'closed'
       FROM content.posts WHERE id = $2 FOR KEY SHARE`;

/** Revisions are rows of the posts table with `type = 'revision'` and `parent` = the post, as in WordPress. */
export class RevisionStore {
  constructor(private readonly db: Database) {}

  async list(parent: number): Promise<RevisionRow[]> {
    const { rows } = await this.db.query<RevisionRow>(
      `SELECT id, author, parent, title, content, excerpt, slug, date, modified FROM content.posts
       WHERE type = 'revision' AND parent = $1 ORDER BY date DESC, id DESC`,
      [parent],
    );
    return rows;
  }

  /**
   * Revisions as WP_Query finds them for the revisions controller: every search word (split as core's parse_search)
   * in the title, excerpt or content; `include`/`exclude` by id; ordered by `orderby`; `total` ignores the limit.
   */
  async query(parent: number, q: RevisionQuery): Promise<{ rows: RevisionRow[]; total: number }> {
    const params: unknown[] = [parent];
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = [`type = 'revision'`, 'parent = $1'];
    for (const term of searchTerms(q.search ?? '')) {
      const exclude = term.length > 1 && term.startsWith('-');
      const like = add(likePattern(exclude ? term.slice(1) : term));
      const match = `(title ILIKE ${like} OR excerpt ILIKE ${like} OR content ILIKE ${like})`;
      where.push(exclude ? `NOT ${match}` : match);
    }
    if (q.include?.length) where.push(`id = ANY(${add(q.include)}::int[])`);
    if (q.exclude?.length) where.push(`NOT (id = ANY(${add(q.exclude)}::int[]))`);
    const whereSql = where.join(' AND ');
    const total = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM content.posts WHERE ${whereSql}`,
      params,
    );
    // Core orders `date` as 'date ID'; its other orders name one column, and MySQL then returns ties by id. Dates
    // compare by the second, as WordPress stores them.
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const date = `date_trunc('second', date)`;
    let order = `${date} ${dir}, id ASC`;
    if (q.orderby === 'date') order = `${date} ${dir}, id ${dir}`;
    else if (q.orderby === 'id') order = `id ${dir}`;
    else if (q.orderby === 'slug' || q.orderby === 'title') order = `${q.orderby} ${dir}, id ASC`;
    // include and include_slugs ignore `order` (core's force_asc): FIELD(ID, …) ascending; include_slugs has no
    // post_name__in on this route, so it is the date, ascending.
    else if (q.orderby === 'include' && q.include?.length)
      order = `array_position(${add(q.include)}::int[], id)`;
    else if (q.orderby === 'include_slugs') order = `${date} ASC, id ASC`;
    // Relevance as core's single-phrase search_orderby_title: title matches first, then by date alone.
    else if (q.orderby === 'relevance')
      order = `(title ILIKE ${add(likePattern(q.search ?? ''))}) DESC, ${order}`;
    const limit = q.limit === undefined ? '' : `LIMIT ${add(q.limit)} OFFSET ${add(q.offset)}`;
    const { rows } = await this.db.query<RevisionRow>(
      `SELECT id, author, parent, title, content, excerpt, slug, date, modified FROM content.posts
       WHERE ${whereSql} ORDER BY ${order} ${limit}`,
      params,
    );
    return { rows, total: total.rows[0]?.n ?? 0 };
  }

  async find(parent: number, id: number): Promise<RevisionRow | undefined> {
    const { rows } = await this.db.query<RevisionRow>(
      `SELECT id, author, parent, title, content, excerpt, slug, date, modified FROM content.posts
       WHERE type = 'revision' AND id = $1 AND parent = $2`,
      [id, parent],
    );
    return rows[0];
  }

  /**
   * wp_save_post_revision (its slug is always `<id>-revision-v1` and its author the one who saved) after an update: a copy of the post as it now is, unless its title, content and
   * excerpt equal the latest revision's (the first update always saves one).
   */
  async saveAfterUpdate(post: PostRow, by: number) {
    // wp_save_post_revision compares with the newest real revision, never an autosave.
    const latest = (await this.list(post.id)).find((rev) => rev.slug === `${post.id}-revision-v1`);
    if (
      latest &&
      (['title', 'content', 'excerpt'] as const).every((f) => normalize(latest[f]) === normalize(post[f]))
    )
      return;
    await this.db.query(
      `INSERT INTO content.posts (type, status, author, parent, title, content, excerpt, slug, date, modified,
                                  comment_status, ping_status)
       ${fromLivePost}`,
      [by, post.id, post.title, post.content, post.excerpt, `${post.id}-revision-v1`],
    );
    await this.recount(post.id);
  }

  /**
   * The post's revision_count and last_revision (wp_get_latest_revision_id_and_total_count: autosaves count, the
   * newest by date then id), after a revision or autosave is added, changed or removed.
   */
  async recount(parent: number) {
    await this.db.query(
      `UPDATE content.posts SET
         revision_count = (SELECT count(*)::int FROM content.posts r WHERE r.type = 'revision' AND r.parent = $1),
         last_revision = (SELECT r.id FROM content.posts r WHERE r.type = 'revision' AND r.parent = $1
                          ORDER BY r.date DESC, r.id DESC LIMIT 1)
       WHERE id = $1`,
      [parent],
    );
  }

  async delete(revision: RevisionRow) {
    await this.db.query(`DELETE FROM content.posts WHERE id = $1 AND type = 'revision'`, [revision.id]);
    await this.recount(revision.parent);
  }
}
