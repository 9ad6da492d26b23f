import type { Database, Queryable } from '../src/platform/database.js';

/** A database that records every statement sent through it (transactions included), to count them per request. */
export function countingDatabase(db: Database): Database & { statements: string[] } {
  const statements: string[] = [];
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      statements.push(sql);
      return q.query(sql, params);
    },
    exec: (sql) => {
      statements.push(sql);
      return q.exec(sql);
    },
  });
  const plain = wrap(db);
  return {
    kind: db.kind,
    statements,
    query: plain.query,
    exec: plain.exec,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    ping: () => db.ping(),
    close: () => db.close(),
  };
}
