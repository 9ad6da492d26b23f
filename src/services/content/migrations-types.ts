import type { Migration } from '../../platform/database.js';

const lit = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Seeded pages (ids follow the 30 posts, as WordPress shares one id sequence across post types). */
export const seedPages = [
  { title: 'About', slug: 'about', author: 1, status: 'publish', parent: 0, order: 0, day: 2 },
  { title: 'Team', slug: 'team', author: 2, status: 'publish', parent: 31, order: 1, day: 3 },
  { title: 'Contact', slug: 'contact', author: 2, status: 'publish', parent: 0, order: 2, day: 4 },
  {
    title: 'Upcoming launch',
    slug: 'upcoming-launch',
    author: 2,
    status: 'draft',
    parent: 0,
    order: 0,
    day: 5,
  },
] as const;

function seedSql() {
  const rows = seedPages.map((p) => {
    const date = new Date(Date.UTC(2024, 1, p.day, 10, 0, 0)).toISOString();
    const content = `The ${p.title.toLowerCase()} page.\n\nIt is seeded on every first start.`;
    return `(${p.author}, 'page', ${lit(p.title)}, ${lit(content)}, ${lit(p.slug)}, ${lit(p.status)}, ${p.parent}, ${p.order}, ${lit(date)}, ${lit(date)})`;
  });
  const comment = (
    post: number,
    parent: number,
    author: number,
    name: string,
    status: string,
    day: number,
    text: string,
  ) =>
    `(${post}, ${parent}, ${author}, ${lit(name)}, ${lit(`${name.toLowerCase().replace(/\W+/g, '.')}@example.com`)}, ${lit(status)}, ${lit(new Date(Date.UTC(2024, 0, day, 12, 0, 0)).toISOString())}, ${lit(text)})`;
  return `
    INSERT INTO posts (author, type, title, content, slug, status, parent, menu_order, date, modified) VALUES
      ${rows.join(',\n      ')};
    INSERT INTO comments (post, parent, author, author_name, author_email, status, date, content) VALUES
      ${[
        comment(1, 0, 0, 'A WordPress Commenter', 'approved', 2, 'Hi, this is a comment.'),
        comment(1, 1, 1, 'Ada Admin', 'approved', 3, 'Thanks for reading!'),
        comment(1, 0, 5, 'Sam Subscriber', 'hold', 4, 'Waiting for moderation.'),
        comment(2, 0, 0, 'Spammer', 'spam', 5, 'Buy now.'),
      ].join(',\n      ')};
  `;
}

/**
 * Pages, attachments and revisions live in the posts table with a `type` column, as in WordPress: they share one
 * id sequence (so `featured_media` and `parent` ids are unambiguous) and most columns.
 */
export const typeMigrations: Migration[] = [
  {
    name: '101_post_types',
    sql: `
      ALTER TABLE posts
        ADD COLUMN type text NOT NULL DEFAULT 'post' CHECK (type IN ('post', 'page', 'attachment', 'revision')),
        ADD COLUMN parent integer NOT NULL DEFAULT 0,
        ADD COLUMN menu_order integer NOT NULL DEFAULT 0,
        ADD COLUMN template text NOT NULL DEFAULT '',
        ADD COLUMN password text NOT NULL DEFAULT '',
        ADD COLUMN featured_media integer NOT NULL DEFAULT 0,
        ADD COLUMN mime_type text NOT NULL DEFAULT '',
        -- Attachments: {key, file, width, height, filesize, alt_text}.
        ADD COLUMN media jsonb,
        -- Kept up to date by the revision store, so lists need no per-row subquery for version-history.
        ADD COLUMN revision_count integer NOT NULL DEFAULT 0,
        ADD COLUMN last_revision integer;
      ALTER TABLE posts DROP CONSTRAINT posts_status_check;
      ALTER TABLE posts ADD CONSTRAINT posts_status_check
        CHECK (status IN ('publish', 'future', 'draft', 'pending', 'private', 'trash', 'inherit'));
      DROP INDEX posts_status_date_id;
      CREATE INDEX posts_type_status_date_id ON posts (type, status, date DESC, id DESC);
      CREATE INDEX posts_parent_type ON posts (parent, type);

      CREATE TABLE comments (
        id serial PRIMARY KEY,
        post integer NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
        parent integer NOT NULL DEFAULT 0,
        -- 0 for a visitor who was not logged in.
        author integer NOT NULL DEFAULT 0,
        author_name text NOT NULL DEFAULT '',
        author_email text NOT NULL DEFAULT '',
        author_url text NOT NULL DEFAULT '',
        author_ip text NOT NULL DEFAULT '',
        author_user_agent text NOT NULL DEFAULT '',
        content text NOT NULL DEFAULT '',
        status text NOT NULL CHECK (status IN ('approved', 'hold', 'spam', 'trash')),
        trashed_from text,
        type text NOT NULL DEFAULT 'comment',
        date timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX comments_post ON comments (post, status, date DESC);
    `,
  },
  { name: '102_seed_pages_comments', sql: seedSql() },
];
