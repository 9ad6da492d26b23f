/**
 * The one error that carries an HTTP status, always in `statusCode`: the field Fastify, Mercurius and every error
 * handler here read, so no path answers 500 for a refusal that spelled its status differently.
 *
 * With a `body`, it is an answer a service decided on: the platform's error handler sends `body` as is, with
 * `statusCode` and `headers`. Services build these with their own helpers (WordPress `{code, message, data}`,
 * DigitalOcean `{id, message}`…). Without one, it is a client mistake (a body that is not JSON, a query the engine
 * refuses) that the service's `errorBody` words, like anything else thrown.
 */
export class HttpError extends Error {
  /** Fastify's error code (`FST_ERR_CTP_INVALID_JSON_BODY`) or the service's, for `errorBody`. */
  code?: string;
  constructor(
    readonly statusCode: number,
    readonly body?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(messageOf(body) ?? `HTTP ${statusCode}`);
  }

  /** Whether the platform sends it as is, rather than through the service's `errorBody`. */
  get decided(): boolean {
    return this.body !== undefined;
  }
}

/** The message of a body in any service's shape: `message`, `description`, or GraphQL's first `errors[].message`. */
function messageOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { message, description, errors } = body as {
    message?: unknown;
    description?: unknown;
    errors?: unknown;
  };
  const text = message ?? description ?? (Array.isArray(errors) ? errors[0]?.message : undefined);
  return typeof text === 'string' ? text : undefined;
}

/** A client mistake to be worded by the service's `errorBody` (e.g. a body that is not JSON). */
export function clientError(status: number, message: string, code?: string): HttpError {
  const error = new HttpError(status);
  error.message = message;
  error.code = code;
  return error;
}
