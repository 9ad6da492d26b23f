import { HttpError } from '../../platform/errors.js';
import type { ErrorInfo } from '../../platform/service.js';

/**
 * An API error in the provider's shape `{id, message, request_id}`; `request_id` is added to every error body
 * (these, the guard's and the platform's) by the service's preSerialization hook.
 */
export const apiError = (status: number, id: string, message: string) =>
  new HttpError(status, { id, message });

export const notFound = () =>
  apiError(404, 'not_found', 'The resource you were accessing could not be found.');
export const unprocessable = (message: string) => apiError(422, 'unprocessable_entity', message);
export const badRequest = (message: string) => apiError(400, 'bad_request', message);

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

/** Schema validation failures: body problems are 422s naming the field, query ones 400s, bad path ids 404s. */
function validationError({ validation, validationContext }: ErrorInfo): HttpError {
  const first = validation?.[0];
  const field = (first?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const missing = (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
  if (validationContext === 'params') return notFound();
  if (validationContext === 'querystring') {
    return badRequest(
      `invalid query parameter ${field || missing || ''}: ${first?.message ?? 'invalid'}`.trim(),
    );
  }
  if (!field && !missing) return unprocessable('The request body must be a JSON object.');
  return unprocessable(`${field || missing} ${first?.message ?? 'is invalid'}`);
}

/** Renders any error the platform catches (validation, unknown routes, body limits, outages). */
export function errorBody(info: ErrorInfo): { id: string; message: string; request_id?: string } | HttpError {
  if (info.validation) return validationError(info);
  // The request id is set here too: an unreadable URL is answered before the service's hooks can add it.
  const body = bodyFor(info);
  return info.requestId ? { ...body, request_id: info.requestId } : body;
}

function bodyFor({ status, message, code }: ErrorInfo): { id: string; message: string } {
  const id = idByStatus[status] ?? (status >= 500 ? 'server_error' : 'bad_request');
  if (status === 404) return { id, message: notFound().message };
  if (status === 400 && code?.startsWith('FST_ERR_CTP_'))
    return { id, message: 'error parsing request body' };
  if (status === 413) return { id, message: 'The request body is too large.' };
  if (status === 415) return { id, message: 'Content-Type must be application/json.' };
  return { id, message };
}
