import type { Database } from '../../platform/database.js';
import { restError } from './errors.js';

type Taxonomy = 'category' | 'post_tag';

/** Core's answer to a duplicate term, which names the existing one so a client can use it. */
export function termExists(termId: number | undefined, withParent = false) {
  const message = withParent
    ? 'A term with the name provided already exists with this parent.'
    : 'A term with the name provided already exists in this taxonomy.';
  const error = restError(400, 'term_exists', message);
  if (termId !== undefined) (error.body as { data: Record<string, unknown> }).data.term_id = termId;
  return error;
}

/** A term of that name (case-insensitive) — under the same parent for categories, anywhere for tags. */
export async function termNamed(db: Database, taxonomy: Taxonomy, name: string, parent: number) {
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM content.terms WHERE taxonomy = $1 AND lower(name) = lower($2)
       AND ($1 = 'post_tag' OR parent = $3) LIMIT 1`,
    [taxonomy, name, parent],
  );
  return rows[0]?.id;
}

export async function termSlugged(db: Database, taxonomy: Taxonomy, slug: string) {
  const { rows } = await db.query<{ id: number }>(
    'SELECT id FROM content.terms WHERE taxonomy = $1 AND slug = $2',
    [taxonomy, slug],
  );
  return rows[0]?.id;
}

/** `wp_unique_term_slug`: `name`, then `name-2`, `name-3`… */
export async function uniqueTermSlug(db: Database, taxonomy: Taxonomy, base: string) {
  const { rows } = await db.query<{ slug: string }>(
    'SELECT slug FROM content.terms WHERE taxonomy = $1 AND (slug = $2 OR slug LIKE $3)',
    [taxonomy, base, `${base}-%`],
  );
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function updateTerm(
  db: Database,
  id: number,
  fields: { name?: string; slug?: string; description?: string; parent?: number },
) {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (entries.length)
    await db.query(
      `UPDATE content.terms SET ${entries.map(([k], i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1`,
      [id, ...entries.map(([, v]) => v)],
    );
}

/**
 * `wp_delete_term`: children move up to the deleted category's parent, and posts left without a category go
 * to the default one (Uncategorized, id 1).
 */
export async function deleteTerm(db: Database, taxonomy: Taxonomy, id: number, parent: number) {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ post_id: number }>(
      'DELETE FROM content.post_terms WHERE term_id = $1 RETURNING post_id',
      [id],
    );
    if (taxonomy === 'category') {
      await tx.query('UPDATE content.terms SET parent = $2 WHERE parent = $1 AND taxonomy = $3', [
        id,
        parent,
        taxonomy,
      ]);
      await tx.query(
        `INSERT INTO content.post_terms (post_id, term_id)
         SELECT p, 1 FROM unnest($1::int[]) AS p WHERE NOT EXISTS (
           SELECT 1 FROM content.post_terms pt JOIN content.terms t ON t.id = pt.term_id
           WHERE pt.post_id = p AND t.taxonomy = 'category')
         ON CONFLICT DO NOTHING`,
        [rows.map((r) => r.post_id)],
      );
    }
    await tx.query('DELETE FROM content.terms WHERE id = $1', [id]);
  });
}
