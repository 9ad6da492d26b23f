import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { innerRequestHeaders, isInnerRequest } from '../../../../platform/inner-request.js';
import type { UserRow } from '../../store.js';

// A batch's sub-requests run through content's own routes in process (Fastify's inject), as core dispatches them
// inside the one PHP request: they act as the batch's caller (authenticated once, not 25 times) and are counted
// once by the harness. The marks below are honoured only on requests the process made itself.

const BATCH_HEADER = 'x-backlot-batch';
const VALIDATE_HEADER = 'x-backlot-batch-validate';
const callers = new Map<string, UserRow | undefined>();

/** The batch's caller for the sub-requests of `run`: their headers carry a key to it. */
export async function asBatchCaller<T>(
  me: UserRow | undefined,
  run: (headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  const key = randomUUID();
  callers.set(key, me);
  try {
    return await run({ ...innerRequestHeaders(), [BATCH_HEADER]: key });
  } finally {
    callers.delete(key);
  }
}

/** A sub-request's caller (`{user}`, user undefined when anonymous), or undefined for any other request. */
export function batchCaller(request: FastifyRequest): { user: UserRow | undefined } | undefined {
  const key = request.headers[BATCH_HEADER];
  if (typeof key !== 'string' || !callers.has(key) || !isInnerRequest(request.raw)) return undefined;
  return { user: callers.get(key) };
}

/** Headers asking a sub-request only to validate its parameters (`require-all-validate`'s first pass). */
export const validateOnlyHeaders = { [VALIDATE_HEADER]: '1' };
/** The answer a validate-only sub-request gets once its parameters passed: 204 with this header. */
export const VALID_HEADER = 'x-backlot-batch-valid';

export const validateOnly = (request: FastifyRequest) =>
  request.headers[VALIDATE_HEADER] === '1' && batchCaller(request) !== undefined;
