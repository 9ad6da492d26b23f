import type { Database } from '../../../../platform/database.js';
import type { PostRow } from '../../store.js';
import { fromLivePost, type RevisionRow, RevisionStore } from '../../store-revisions.js';

const columns = 'id, author, parent, title, content, excerpt, slug, date, modified';

export type AutosaveFields = Partial<Pick<PostRow, 'title' | 'content' | 'excerpt'>>;

/**
 * Autosaves are revisions named `<parent>-autosave-v1` (WordPress's wp_posts rows of type `revision`), one per
 * author and post; the revision count and latest revision of the post include them, as core's do.
 */
export class AutosaveStore {
  private readonly revisions: RevisionStore;
  constructor(private readonly db: Database) {
    this.revisions = new RevisionStore(db);
  }

  /** wp_get_post_revisions filtered to autosaves: newest first (by the second, as WordPress stores dates). */
  async list(parent: number): Promise<RevisionRow[]> {
    const { rows } = await this.db.query<RevisionRow>(
      `SELECT ${columns} FROM content.posts
       WHERE type = 'revision' AND parent = $1 AND slug = $2 ORDER BY date_trunc('second', date) DESC, id DESC`,
      [parent, `${parent}-autosave-v1`],
    );
    return rows;
  }

  /**
   * wp_get_post_autosave: the newest autosave of the post, by `author` when given. Core orders by the date alone
   * (whole seconds), leaving a tie to MariaDB; backlot takes the later id then, as the list does.
   */
  async latest(parent: number, author?: number): Promise<RevisionRow | undefined> {
    const { rows } = await this.db.query<RevisionRow>(
      `SELECT ${columns} FROM content.posts
       WHERE type = 'revision' AND parent = $1 AND slug = $2 AND ($3::int IS NULL OR author = $3)
       ORDER BY date_trunc('second', date) DESC, id DESC LIMIT 1`,
      [parent, `${parent}-autosave-v1`, author ?? null],
    );
    return rows[0];
  }

  /**
   * _wp_put_post_revision(…, true): the fields sent (the others empty), by `author`, dated now; undefined when the
   * post was deleted meanwhile.
   */
  async create(parent: number, author: number, fields: AutosaveFields): Promise<RevisionRow | undefined> {
    const { rows } = await this.db.query<RevisionRow>(
      `INSERT INTO content.posts (type, status, author, parent, title, content, excerpt, slug, date, modified,
                                  comment_status, ping_status)
       ${fromLivePost}
       RETURNING ${columns}`,
      [
        author,
        parent,
        fields.title ?? '',
        fields.content ?? '',
        fields.excerpt ?? '',
        `${parent}-autosave-v1`,
      ],
    );
    await this.revisions.recount(parent);
    return rows[0];
  }

  /** wp_update_post on the author's autosave: the fields sent change, the date moves to now. */
  async update(autosave: RevisionRow, fields: AutosaveFields): Promise<RevisionRow> {
    const { rows } = await this.db.query<RevisionRow>(
      `UPDATE content.posts SET title = coalesce($2, title), content = coalesce($3, content),
         excerpt = coalesce($4, excerpt), date = now(), modified = now()
       WHERE id = $1 RETURNING ${columns}`,
      [autosave.id, fields.title ?? null, fields.content ?? null, fields.excerpt ?? null],
    );
    await this.revisions.recount(autosave.parent);
    return rows[0] as RevisionRow;
  }

  async delete(autosave: RevisionRow) {
    await this.db.query(`DELETE FROM content.posts WHERE id = $1 AND type = 'revision'`, [autosave.id]);
    await this.revisions.recount(autosave.parent);
  }
}
