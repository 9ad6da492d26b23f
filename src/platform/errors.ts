/**
 * An answer a service decided on: the platform's error handler sends `body` as is, with `status` and `headers`.
 * Services build these with their own helpers (WordPress `{code, message, data}`, DigitalOcean `{id, message}`…);
 * anything else thrown is rendered through the service's `errorBody`.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(messageOf(body) ?? `HTTP ${status}`);
  }
}

function messageOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { message, description } = body as { message?: unknown; description?: unknown };
  const text = message ?? description;
  return typeof text === 'string' ? text : undefined;
}

/** A client mistake to be worded by the service's `errorBody` (e.g. a body that is not JSON). */
export function clientError(status: number, message: string, code?: string) {
  return Object.assign(new Error(message), { statusCode: status, code });
}
