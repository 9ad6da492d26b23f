import { HttpError } from '../../platform/errors.js';
import type { ErrorInfo } from '../../platform/service.js';
import type { ErrorBody } from './schemas.js';
import { describeValidation } from './validation.js';

/** The exact bodies the original service's clients match on. */
export const errors = {
  notUnique: { code: 'instance not unique', description: 'document is not unique.' },
  authenticationFailed: {
    code: 'authentication failed',
    description: 'The document was not found or provided password was incorrect.',
  },
  unauthorized: { code: 'unauthorized', description: 'Unauthorized' },
} satisfies Record<string, ErrorBody>;

export const tooManyRequests = (retryAfter: number): ErrorBody => ({
  code: 'too many requests',
  description: `Too many attempts from this address; try again in ${retryAfter} s.`,
});

const codeByStatus: Record<number, string> = {
  400: 'invalid argument',
  401: 'unauthorized',
  404: 'not found',
  405: 'method not allowed',
  409: 'instance not unique',
  413: 'invalid argument',
  415: 'invalid argument',
  429: 'too many requests',
  503: 'unavailable',
};

/** Renders any failure the platform catches (validation, unknown route, body limits, outages) as `{code, description}`. */
export function errorBody({ status, message, validation, validationContext }: ErrorInfo): ErrorBody {
  const code = codeByStatus[status] ?? (status >= 500 ? 'internal error' : 'invalid argument');
  const description = validation
    ? describeValidation(validationContext ?? 'request', validation[0])
    : message;
  return { code, description };
}

/** A decided answer in the service's shape (e.g. a body that is not JSON). */
export const thingsError = (status: number, description: string) =>
  new HttpError(status, { code: codeByStatus[status] ?? 'invalid argument', description });
