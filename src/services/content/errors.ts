import type { ErrorInfo } from '../../platform/service.js';

/** A WordPress REST error: `{code, message, data: {status, params?}}`. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly params?: Record<string, string> | string[],
  ) {
    super(message);
  }

  body() {
    return restErrorBody(this.status, this.code, this.message, this.params);
  }
}

export function restErrorBody(
  status: number,
  code: string,
  message: string,
  params?: Record<string, string> | string[],
) {
  return { code, message, data: params ? { status, params } : { status } };
}

/** WordPress answers a refused caller with 401 when nobody is logged in and 403 otherwise. */
export const refused = (loggedIn: boolean, code: string, message: string) =>
  new RestError(loggedIn ? 403 : 401, code, message);

export const noRoute = () =>
  new RestError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

/** The platform's error handler (unknown routes, body limits, outages) in WordPress's shape. */
export function contentErrorBody(info: ErrorInfo) {
  if (info.status === 404) return noRoute().body();
  if (info.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (info.status === 400 && /JSON/i.test(info.message)))
    return restErrorBody(400, 'rest_invalid_json', 'Invalid JSON body passed.');
  if (info.validationContext)
    return restErrorBody(400, 'rest_invalid_param', `Invalid parameter(s): ${info.validationContext}`);
  const code =
    info.status === 403
      ? 'rest_forbidden'
      : info.status === 413
        ? 'rest_request_too_large'
        : info.status === 415
          ? 'rest_unsupported_media_type'
          : info.status === 503
            ? 'rest_unavailable'
            : info.status >= 500
              ? 'internal_server_error'
              : 'rest_bad_request';
  return restErrorBody(info.status, code, info.message);
}
