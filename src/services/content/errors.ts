import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../platform/errors.js';
import type { ErrorInfo } from '../../platform/service.js';

type Params = Record<string, string> | string[];

/** Core's `data.details` of rest_invalid_param: per parameter, the `{code, message, data}` of its failure. */
/** `[]` when no argument failed with a WP_Error (core's empty PHP array). */
type Details = Record<string, { code: string; message: string; data: unknown }> | [];

export function restErrorBody(
  status: number,
  code: string,
  message: string,
  params?: Params,
  details?: Details,
) {
  if (!params) return { code, message, data: { status } };
  return { code, message, data: details ? { status, params, details } : { status, params } };
}

/** A WordPress REST error: `{code, message, data: {status, params?}}`. */
export const restError = (
  status: number,
  code: string,
  message: string,
  params?: Params,
  headers?: Record<string, string>,
  details?: Details,
) => new HttpError(status, restErrorBody(status, code, message, params, details), headers);

/** A WordPress.com error, the shape of `/me/settings/`: `{error, message}`. */
export const settingsError = (
  status: number,
  error: string,
  message: string,
  headers?: Record<string, string>,
) => new HttpError(status, { error, message }, headers);

/** `/me/settings/` and `/rest/v1.1/me/settings/` (see settings-routes.ts) answer in WordPress.com's shape. */
const isSettingsRoute = (url: string | undefined) =>
  url !== undefined && /^(\/rest\/v1\.1)?\/me\/settings$/.test(url);

/** For hooks that run before every route (authentication, the NUL check): the error in that route's shape. */
export const errorFor = (
  request: FastifyRequest,
  status: number,
  code: string,
  message: string,
  params?: Params,
  headers?: Record<string, string>,
) =>
  isSettingsRoute(request.routeOptions.url)
    ? settingsError(status, code, message, headers)
    : restError(status, code, message, params, headers);

/** WordPress answers a refused caller with 401 when nobody is logged in and 403 otherwise. */
export const refused = (loggedIn: boolean, code: string, message: string) =>
  restError(loggedIn ? 403 : 401, code, message);

export const noRoute = () =>
  restError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

/** wp_sprintf's `%l`, how core lists allowed values: "a", "a and b", "a, b, and c". */
export const phpList = (items: readonly string[]) =>
  items.length < 3 ? items.join(' and ') : `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;

/** A property's schema, to word validation messages the way WordPress does. */
function propertySchema(info: ErrorInfo, name: string) {
  const schema = (info.route?.schema as Record<string, unknown> | undefined)?.[
    info.validationContext ?? ''
  ] as { properties?: Record<string, Record<string, unknown>> } | undefined;
  return schema?.properties?.[name];
}

const enumOf = (schema: Record<string, unknown> | undefined): unknown[] | undefined => {
  const anyOf = schema?.anyOf as Record<string, unknown>[] | undefined;
  return anyOf?.every((s) => typeof s.const === 'string') ? anyOf.map((s) => s.const) : undefined;
};

/** A validation failure as `rest_missing_callback_param` or `rest_invalid_param`, naming the parameter. */
function validationBody(info: ErrorInfo) {
  const issue = info.validation?.[0];
  if (!issue) return restErrorBody(400, 'rest_invalid_param', 'Invalid parameter(s).');
  if (issue.keyword === 'required') {
    const missing = String((issue.params as { missingProperty: string }).missingProperty);
    return restErrorBody(400, 'rest_missing_callback_param', `Missing parameter(s): ${missing}`, [missing]);
  }
  const segments = issue.instancePath.split('/').filter(Boolean);
  const name = segments[0] ?? info.validationContext ?? 'body';
  const label =
    name +
    segments
      .slice(1)
      .map((s) => `[${s}]`)
      .join('');
  let property = propertySchema(info, name);
  if (segments.length > 1 && property?.items) property = property.items as Record<string, unknown>;
  const values = enumOf(property);
  const p = issue.params as Record<string, unknown>;
  let message: string;
  if (values)
    message =
      values.length === 1
        ? `${label} is not ${values[0]}.`
        : `${label} is not one of ${phpList(values.map(String))}.`;
  else if (issue.keyword === 'minimum' || issue.keyword === 'maximum')
    message =
      property?.minimum !== undefined && property?.maximum !== undefined
        ? `${label} must be between ${property.minimum} (inclusive) and ${property.maximum} (inclusive)`
        : issue.keyword === 'minimum'
          ? `${label} must be greater than or equal to ${p.limit}`
          : `${label} must be less than or equal to ${p.limit}`;
  else if (issue.keyword === 'type') message = `${label} is not of type ${p.type}.`;
  else if (issue.keyword === 'anyOf' && property?.anyOf)
    message = `${label} is not of type ${(property.anyOf as Record<string, unknown>[]).map((s) => s.type).join(',')}.`;
  else if (issue.keyword === 'maxLength')
    message = `${label} must be at most ${p.limit} character${p.limit === 1 ? '' : 's'} long.`;
  else if (issue.keyword === 'maxItems')
    message = `${label} must contain at most ${p.limit} item${p.limit === 1 ? '' : 's'}.`;
  else if (issue.keyword === 'pattern') message = `${label} does not match pattern ${p.pattern}.`;
  else message = `${label} ${issue.message ?? 'is invalid'}.`;
  // Core's `details`: the inner error of each parameter, as rest_validate_value_from_schema words it.
  const detail = values ? 'rest_not_in_enum' : (detailCodes[issue.keyword] ?? 'rest_invalid_param');
  return restErrorBody(
    400,
    'rest_invalid_param',
    `Invalid parameter(s): ${name}`,
    { [name]: message },
    // Only core's type errors carry data (the parameter's name); the others have none (null).
    { [name]: { code: detail, message, data: detail === 'rest_invalid_type' ? { param: label } : null } },
  );
}

const detailCodes: Record<string, string> = {
  type: 'rest_invalid_type',
  anyOf: 'rest_invalid_type',
  minimum: 'rest_out_of_bounds',
  maximum: 'rest_out_of_bounds',
  maxLength: 'rest_too_long',
  minLength: 'rest_too_short',
  pattern: 'rest_invalid_pattern',
  enum: 'rest_not_in_enum',
  maxItems: 'rest_too_many_items',
};

/** Failures on `/me/settings/` in WordPress.com's `{error, message}`. */
function settingsErrorBody(info: ErrorInfo) {
  if (info.validation) {
    const first = info.validation[0];
    const key = first?.instancePath.replace(/^\//, '').split('/')[0];
    const message =
      first?.keyword === 'additionalProperties'
        ? `Unknown setting: ${(first.params as { additionalProperty: string }).additionalProperty}`
        : key
          ? `${key}: ${first?.message ?? 'is invalid'}`
          : 'The settings must be a JSON object.';
    return { error: 'invalid_input', message };
  }
  const error =
    info.status === 503
      ? 'unavailable'
      : info.status >= 500
        ? 'internal_error'
        : info.status === 403
          ? 'forbidden'
          : 'invalid_input';
  return { error, message: info.message };
}

/** Every failure the platform renders (validation, unknown routes, body limits, outages) in WordPress's shape. */
export function contentErrorBody(info: ErrorInfo) {
  if (isSettingsRoute(info.route?.url)) return settingsErrorBody(info);
  if (info.validation) return validationBody(info);
  if (info.status === 404) return noRoute().body;
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
