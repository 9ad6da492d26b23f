import type { ErrorInfo } from '../../platform/service.js';

/** An API error in the provider's shape `{id, message, request_id}` (request_id is added when sent). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly id: string,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = () =>
  new ApiError(404, 'not_found', 'The resource you were accessing could not be found.');
export const unprocessable = (message: string) => new ApiError(422, 'unprocessable_entity', message);
export const badRequest = (message: string) => new ApiError(400, 'bad_request', message);

export const unauthorizedBody = { id: 'unauthorized', message: 'Unable to authenticate you' };
export const forbiddenBody = {
  id: 'forbidden',
  message: 'You do not have permission to perform this action.',
};
export const tooManyRequestsBody = { id: 'too_many_requests', message: 'API rate limit exceeded.' };

const idByStatus: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  413: 'request_entity_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
  500: 'server_error',
  503: 'service_unavailable',
};

/** Renders any error the platform catches; `request_id` is added by the service's preSerialization hook. */
export function errorBody({ status, message, code }: ErrorInfo): { id: string; message: string } {
  const id = idByStatus[status] ?? (status >= 500 ? 'server_error' : 'bad_request');
  if (status === 404) return { id, message: notFound().message };
  if (status === 400 && code?.startsWith('FST_ERR_CTP_'))
    return { id, message: 'error parsing request body' };
  if (status === 413) return { id, message: 'The request body is too large.' };
  if (status === 415) return { id, message: 'Content-Type must be application/json.' };
  return { id, message };
}
