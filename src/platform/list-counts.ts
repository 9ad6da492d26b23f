import type { Migration, Queryable } from './database.js';

/**
 * Exact list totals without counting on every request. A statement trigger replaces `<schema>.list_version`'s
 * row with a new random token in the same transaction as any write to the listed tables, so a total counted under
 * one token is the total of every snapshot that reads that token: processes sharing the database stay exact.
 * Each process remembers the last total per filter with the token it was counted under.
 *
 * The table has no key on purpose: a checkpoint restore deletes and re-inserts every table in its own order,
 * triggers firing, so it may hold two rows for a while (as may two writers that committed at once). Readers take
 * the token only when there is exactly one row, and count otherwise; the next write leaves one row again.
 */
export function listVersionMigration(name: string, schema: string, tables: string[]): Migration {
  const bump = `${schema}.bump_list_version`;
  return {
    name,
    sql: `
      CREATE TABLE ${schema}.list_version (token bigint NOT NULL);
      CREATE FUNCTION ${bump}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM ${schema}.list_version;
        INSERT INTO ${schema}.list_version (token) VALUES ((random() * 9e18)::bigint);
        RETURN NULL;
      END $$;
      INSERT INTO ${schema}.list_version (token) VALUES ((random() * 9e18)::bigint);
      ${tables
        .map(
          (
            table,
          ) => `CREATE TRIGGER list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${schema}.${table}
        FOR EACH STATEMENT EXECUTE FUNCTION ${bump}();`,
        )
        .join('\n')}
    `,
  };
}

export interface PageShape {
  /** Rows the page query returned. */
  rows: number;
  /** Undefined: the query had no LIMIT (and no OFFSET), so the rows are the whole list. */
  limit?: number;
  offset: number;
  /** The token read by the page query itself (`tokenSql` as a column), absent when it returned no row. */
  token?: unknown;
}

export class ListCounts {
  private readonly known = new Map<string, { token: string; n: number }>();

  constructor(
    private readonly schema: string,
    private readonly max = 256,
  ) {}

  /** A scalar subquery: add it to a page query's columns (as `list_token`) so the token and rows share a snapshot. */
  get tokenSql() {
    return `(SELECT CASE WHEN count(*) = 1 THEN min(token) END FROM ${this.schema}.list_version)`;
  }

  /**
   * The total of `FROM … WHERE …` (`from`, with `params`). A page that is not full ends the list, so its total
   * is known from the page; otherwise the remembered total if the token is unchanged, else one count.
   */
  async total(db: Queryable, from: string, params: unknown[], page: PageShape): Promise<number> {
    if (page.limit === undefined) return page.rows;
    if (page.rows > 0 && page.rows < page.limit) return page.offset + page.rows;
    if (page.rows === 0 && page.offset === 0) return 0;
    const key = `${from}\u0000${JSON.stringify(params)}`;
    const token = page.token == null ? undefined : String(page.token);
    const known = this.known.get(key);
    if (token !== undefined && known?.token === token) return known.n;
    const { rows } = await db.query<{ token: unknown; n: number }>(
      `SELECT ${this.tokenSql} AS token, count(*)::int AS n ${from}`,
      params,
    );
    const row = rows[0] as { token: unknown; n: number };
    if (row.token != null) {
      this.known.delete(key);
      if (this.known.size >= this.max) this.known.delete(this.known.keys().next().value as string);
      this.known.set(key, { token: String(row.token), n: row.n });
    }
    return row.n;
  }
}
