/** The deterministic first-start site: one user per role, categories, tags and ~30 posts. */

export const seedUsers = [
  { login: 'admin', role: 'administrator', first: 'Ada', last: 'Admin' },
  { login: 'editor', role: 'editor', first: 'Eddie', last: 'Editor' },
  { login: 'author', role: 'author', first: 'Aurora', last: 'Author' },
  { login: 'contributor', role: 'contributor', first: 'Cory', last: 'Contributor' },
  { login: 'subscriber', role: 'subscriber', first: 'Sam', last: 'Subscriber' },
] as const;

const categories = [
  ['Uncategorized', 'uncategorized', ''],
  ['News', 'news', 'What is new on the site.'],
  ['Tutorials', 'tutorials', 'Step-by-step guides.'],
  ['Reviews', 'reviews', 'Opinions on tools and books.'],
  ['Announcements', 'announcements', 'Releases and events.'],
];
const tags = [
  'javascript',
  'typescript',
  'rest',
  'testing',
  'performance',
  'security',
  'design',
  'databases',
];

const topics = [
  'Getting started with REST clients',
  'Why typed schemas pay off',
  'A week of testing in production',
  'Caching without tears',
  'Designing friendly error messages',
  'Notes from the release train',
  'Pagination done right',
  'Choosing a database for prototypes',
  'Security checklists that people use',
  'Measuring what matters',
];

const lit = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Post n (1-based): who wrote it and in which state; mostly published, some drafts, pending, private, future. */
export function seedPostPlan(n: number) {
  const author = [1, 2, 3, 4][(n - 1) % 4] as number;
  let status = 'publish';
  if (author === 4) status = n % 8 === 0 ? 'pending' : 'draft';
  else if (n === 7 || n === 19) status = 'draft';
  else if (n === 11) status = 'private';
  else if (n === 30) status = 'future';
  return { author, status };
}

export const SEED_POSTS = 30;

/** Every seeded post's plan in id order (post n has id n): tests derive their counts from it. */
export const seededPosts = Array.from({ length: SEED_POSTS }, (_, i) => ({
  id: i + 1,
  ...seedPostPlan(i + 1),
}));

export function seedSql(): string {
  const statements: string[] = [];
  seedUsers.forEach((u, i) => {
    const registered = new Date(Date.UTC(2023, 11, 1 + i, 8, 0, 0)).toISOString();
    statements.push(
      `INSERT INTO users (login, email, display_name, first_name, last_name, nickname, description, url, slug, role, registered_at)
       VALUES (${lit(u.login)}, ${lit(`${u.login}@example.com`)}, ${lit(`${u.first} ${u.last}`)}, ${lit(u.first)},
               ${lit(u.last)}, ${lit(u.login)}, ${lit(`The site's ${u.role}.`)}, '', ${lit(u.login)}, ${lit(u.role)},
               ${lit(registered)});`,
    );
  });
  for (const [name, slug, description] of categories) {
    statements.push(
      `INSERT INTO terms (taxonomy, name, slug, description) VALUES ('category', ${lit(name as string)}, ${lit(slug as string)}, ${lit(description as string)});`,
    );
  }
  for (const tag of tags) {
    statements.push(
      `INSERT INTO terms (taxonomy, name, slug) VALUES ('post_tag', ${lit(tag)}, ${lit(tag)});`,
    );
  }
  for (let n = 1; n <= SEED_POSTS; n++) {
    const { author, status } = seedPostPlan(n);
    const topic = topics[(n - 1) % topics.length] as string;
    const title = `${topic}, part ${Math.ceil(n / topics.length)}`;
    // Pending posts are the contributor's, who may not name them (wp_insert_post leaves their slug empty).
    const slug =
      status === 'pending'
        ? ''
        : title
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-|-$/g, '');
    const content = [
      `This is post number ${n}: ${topic.toLowerCase()}.`,
      'Backlot seeds the same site on every first start, so examples and tests can rely on it.',
      `Paragraph three of post ${n} closes the piece with a short summary.`,
    ].join('\n\n');
    const excerpt = n % 3 === 0 ? `A short summary of post ${n}.` : '';
    const date =
      status === 'future'
        ? new Date(Date.UTC(2030, 0, 1, 9, 0, 0)).toISOString()
        : new Date(Date.UTC(2024, 0, n, 9 + (n % 8), n % 60, 0)).toISOString();
    statements.push(
      `INSERT INTO posts (author, title, content, excerpt, slug, status, sticky, date, modified)
       VALUES (${author}, ${lit(title)}, ${lit(content)}, ${lit(excerpt)}, ${lit(slug)}, ${lit(status)}, ${n === 1},
               ${lit(date)}, ${lit(date)});`,
    );
    const category = 1 + (n % categories.length);
    const tagA = categories.length + 1 + (n % tags.length);
    const tagB = categories.length + 1 + ((n + 3) % tags.length);
    statements.push(
      `INSERT INTO post_terms (post_id, term_id) VALUES (${n}, ${category}), (${n}, ${tagA}), (${n}, ${tagB});`,
    );
  }
  return statements.join('\n');
}
