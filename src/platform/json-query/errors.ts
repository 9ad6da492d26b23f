/** A query the engine refuses; services answer it with 400 in their own error shape. */
export class QueryError extends Error {
  override name = 'QueryError';
  readonly statusCode = 400;
}
