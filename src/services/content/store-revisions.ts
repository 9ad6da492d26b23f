import type { Database } from '../../platform/database.js';
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

const normalize = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();

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
    const [latest] = await this.list(post.id);
    if (
      latest &&
      (['title', 'content', 'excerpt'] as const).every((f) => normalize(latest[f]) === normalize(post[f]))
    )
      return;
    await this.db.query(
      `INSERT INTO content.posts (type, status, author, parent, title, content, excerpt, slug, date, modified,
                                  comment_status, ping_status)
       VALUES ('revision', 'inherit', $1, $2, $3, $4, $5, $6, now(), now(), 'closed', 'closed')`,
      [by, post.id, post.title, post.content, post.excerpt, `${post.id}-revision-v1`],
    );
    await this.recount(post.id);
  }

  /** The post's revision_count and last_revision, after a revision is added or removed. */
  private async recount(parent: number) {
    await this.db.query(
      `UPDATE content.posts SET
         revision_count = (SELECT count(*)::int FROM content.posts r WHERE r.type = 'revision' AND r.parent = $1),
         last_revision = (SELECT max(r.id) FROM content.posts r WHERE r.type = 'revision' AND r.parent = $1)
       WHERE id = $1`,
      [parent],
    );
  }

  async delete(revision: RevisionRow) {
    await this.db.query(`DELETE FROM content.posts WHERE id = $1 AND type = 'revision'`, [revision.id]);
    await this.recount(revision.parent);
  }
}
