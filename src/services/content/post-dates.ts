import { restError } from './errors.js';

/** rest_parse_date's pattern: RFC 3339, `T` or a space, optional fraction and offset. */
const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** A bad value of a parameter, worded as core's rest_invalid_param with `params` and `details`. */
export function invalidParam(name: string, message: string, code: string, data: unknown = null) {
  return restError(
    400,
    'rest_invalid_param',
    `Invalid parameter(s): ${name}`,
    { [name]: message },
    undefined,
    {
      [name]: { code, message, data },
    },
  );
}

/**
 * A date as WordPress reads it: without an offset it is in the site's time zone (UTC here); with one it is
 * converted. Undefined for text that is not a date.
 */
export function parseWpDate(value: string): Date | undefined {
  const m = rfc3339.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, , offset] = m;
  const base = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const date = new Date(base);
  if (date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d) || Number(h) > 23)
    return undefined;
  if (!offset || offset.toUpperCase() === 'Z') return date;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
  return new Date(base - sign * minutes * 60_000);
}

/** A date parameter, or 400 rest_invalid_param with core's `rest_invalid_date` detail. */
export function dateParam(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = parseWpDate(value);
  if (!date) throw invalidParam(name, 'Invalid date.', 'rest_invalid_date');
  return date;
}
