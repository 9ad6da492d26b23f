import { phpList as list, restError } from '../../errors.js';

// /batch/v1's arguments checked as WordPress 6.1's rest_validate_value_from_schema checks them, in its order and
// words (the nested `requests[0][method]` names are core's): its messages are what api-fetch users see.

export const MAX_BATCH = 25;
export const batchMethods = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type BatchMethod = (typeof batchMethods)[number];
/** 6.1 registers this enum (`require-all-validate`, not the `require-all-valid` of the documentation). */
export const validationModes = ['require-all-validate', 'normal'] as const;

export interface SubRequest {
  method: BatchMethod;
  path: string;
  body?: Record<string, unknown>;
}

class Invalid {
  constructor(
    readonly code: string,
    readonly message: string,
  ) {}
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** A PHP array from JSON: a list, or an object whose keys are 0, 1, 2… (a form's `requests[0][path]`). */
function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.every((key, i) => key === String(i)) ? Object.values(value) : undefined;
}

function subRequest(value: unknown, name: string): SubRequest {
  // An empty JSON array is PHP's empty array, which is an object too.
  const item = Array.isArray(value) && value.length === 0 ? {} : value;
  if (!isObject(item) || Array.isArray(item))
    throw new Invalid('rest_invalid_type', `${name} is not of type object.`);
  if (!('path' in item))
    throw new Invalid('rest_property_required', `path is a required property of ${name}.`);
  for (const [key, v] of Object.entries(item)) {
    const label = `${name}[${key}]`;
    if (key === 'method' || key === 'path') {
      if (typeof v !== 'string') throw new Invalid('rest_invalid_type', `${label} is not of type string.`);
      if (key === 'method' && !(batchMethods as readonly string[]).includes(v))
        throw new Invalid('rest_not_in_enum', `${label} is not one of ${list(batchMethods)}.`);
    } else if (key === 'body' || key === 'headers') {
      if (!isObject(v)) throw new Invalid('rest_invalid_type', `${label} is not of type object.`);
    }
  }
  const body = item.body;
  return {
    method: (item.method as BatchMethod | undefined) ?? 'POST',
    path: item.path as string,
    // `! empty( $args['body'] )`: an empty body sets no parameters.
    ...(isObject(body) && Object.keys(body).length > 0 ? { body: { ...body } } : {}),
  };
}

function requestsOf(value: unknown): SubRequest[] {
  const items = asList(value);
  if (!items) throw new Invalid('rest_invalid_type', 'requests is not of type array.');
  const requests = items.map((item, i) => subRequest(item, `requests[${i}]`));
  if (requests.length > MAX_BATCH)
    throw new Invalid('rest_too_many_items', `requests must contain at most ${MAX_BATCH} items.`);
  return requests;
}

function modeOf(value: unknown): (typeof validationModes)[number] {
  if (value === undefined) return 'normal';
  if (typeof value !== 'string') throw new Invalid('rest_invalid_type', 'validation is not of type string.');
  if (!(validationModes as readonly string[]).includes(value))
    throw new Invalid('rest_not_in_enum', `validation is not one of ${list(validationModes)}.`);
  return value as (typeof validationModes)[number];
}

/** The batch's arguments, or core's 400 (`rest_missing_callback_param`, `rest_invalid_param` with details). */
export function batchArguments(body: Record<string, unknown>): {
  mode: (typeof validationModes)[number];
  requests: SubRequest[];
} {
  if (body.requests === undefined || body.requests === null)
    throw restError(400, 'rest_missing_callback_param', 'Missing parameter(s): requests', ['requests']);
  const failed: Record<string, Invalid> = {};
  let mode: (typeof validationModes)[number] = 'normal';
  let requests: SubRequest[] = [];
  const read = (name: string, run: () => void) => {
    try {
      run();
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      failed[name] = error;
    }
  };
  read('validation', () => {
    mode = modeOf(body.validation);
  });
  read('requests', () => {
    requests = requestsOf(body.requests);
  });
  const names = Object.keys(failed);
  if (names.length > 0)
    throw restError(
      400,
      'rest_invalid_param',
      `Invalid parameter(s): ${names.join(', ')}`,
      Object.fromEntries(names.map((n) => [n, failed[n]?.message ?? ''])),
      undefined,
      Object.fromEntries(
        names.map((n) => [n, { code: failed[n]?.code ?? '', message: failed[n]?.message ?? '', data: null }]),
      ),
    );
  return { mode, requests };
}
