import { HttpError } from '../errors.js';

/** A query the engine refuses; services answer it with 400 in their own error shape. */
export class QueryError extends HttpError {
  override name = 'QueryError';
  constructor(message: string) {
    super(400);
    this.message = message;
  }
}
