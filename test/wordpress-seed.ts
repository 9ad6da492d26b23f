import { migrate } from '../src/platform/migrations.js';
import { migrations } from '../src/services/content/migrations.js';
import { contentSettings } from '../src/services/content/settings.js';
import { createTestDatabase } from './db.js';

/** Backlot's first-start site as test/wordpress/seed.php takes it: what seed.ts wrote, read back out of the tables. */
export interface WordPressSeed {
  site: { name: string; description: string; timezone: string };
  users: {
    id: number;
    login: string;
    email: string;
    display_name: string;
    first_name: string;
    last_name: string;
    nickname: string;
    description: string;
    url: string;
    slug: string;
    role: string;
    registered: string;
  }[];
  terms: { id: number; taxonomy: string; name: string; slug: string; description: string; parent: number }[];
  posts: {
    id: number;
    author: number;
    title: string;
    content: string;
    excerpt: string;
    slug: string;
    status: string;
    comment_status: string;
    ping_status: string;
    sticky: boolean;
    format: string;
    date: string;
    terms: number[];
    type: string;
    parent: number;
    menu_order: number;
    template: string;
    password: string;
  }[];
  comments: {
    id: number;
    post: number;
    parent: number;
    author: number;
    author_name: string;
    author_email: string;
    author_url: string;
    author_ip: string;
    content: string;
    status: string;
    date: string;
  }[];
}

/** WordPress stores `Y-m-d H:i:s`; backlot's site is UTC, so local and GMT dates are the same. */
const mysqlDate = (value: unknown) =>
  (value instanceof Date ? value : new Date(String(value))).toISOString().slice(0, 19).replace('T', ' ');

type Row = Record<string, unknown>;

/**
 * Runs content's migrations on a throwaway test database and reads the seed back, so the WordPress twin
 * follows seed.ts without a second copy of it.
 */
export async function backlotSeed(): Promise<WordPressSeed> {
  const db = await createTestDatabase();
  try {
    await migrate(db, 'content', migrations);
    const rows = async (sql: string) => (await db.query<Row>(sql)).rows;
    const settings = contentSettings({});
    const users = await rows('SELECT * FROM content.users ORDER BY id');
    const terms = await rows(
      'SELECT id, taxonomy, name, slug, description, parent FROM content.terms ORDER BY id',
    );
    const posts = await rows(
      `SELECT p.*, (SELECT array_agg(term_id ORDER BY term_id) FROM content.post_terms WHERE post_id = p.id) AS terms
       FROM content.posts p ORDER BY id`,
    );
    const comments = await rows('SELECT * FROM content.comments ORDER BY id');
    return {
      site: { name: settings.siteName, description: settings.siteDescription, timezone: 'UTC' },
      users: users.map((u) => ({
        ...(u as unknown as WordPressSeed['users'][number]),
        registered: mysqlDate(u.registered_at),
        registered_at: undefined,
        trashed_at: undefined,
        language: undefined,
      })),
      terms: terms as unknown as WordPressSeed['terms'],
      posts: posts.map((p) => ({
        ...(p as unknown as WordPressSeed['posts'][number]),
        date: mysqlDate(p.date),
        modified: undefined,
        trashed_from: undefined,
        terms: (p.terms as number[] | null) ?? [],
      })),
      comments: comments.map((c) => ({
        ...(c as unknown as WordPressSeed['comments'][number]),
        date: mysqlDate(c.date),
      })),
    };
  } finally {
    await db.close();
  }
}
