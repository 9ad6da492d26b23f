import type { Static } from '@sinclair/typebox';
import { hashPassword } from '../../../../platform/secrets.js';
import { roleCapabilities } from '../../capabilities.js';
import { phpList, restError } from '../../errors.js';
import { languages } from '../../languages.js';
import { isTrue } from '../../schemas.js';
import type { Role } from '../../store.js';
import type { UserWriteBody } from './schemas.js';
import type { UserFields } from './store.js';

// The users controller's parameter rules: the checks core's sanitize and validate callbacks run before any
// permission check (400s), and how a write's fields become columns.

export type UserBody = Static<typeof UserWriteBody>;

/** `rest_invalid_param` for one parameter, with core's `params` and `details`. */
export function invalidParam(name: string, message: string, code = 'rest_invalid_param') {
  const error = restError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, { [name]: message });
  (error.body as { data: Record<string, unknown> }).data.details = {
    [name]: { code, message, data: { status: 400 } },
  };
  return error;
}

const missingParams = (names: string[]) =>
  restError(400, 'rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, names);

const postTypes = ['post', 'page', 'attachment'];

/**
 * `has_published_posts` (core's boolean-or-post-types parameter): true or types limit the list to users with
 * published posts, false lifts nothing; anything else is a 400 naming the value.
 */
export function publishedFilter(values: string[] | undefined): boolean | undefined {
  if (!values?.length) return undefined;
  if (values.length === 1 && ['true', '1'].includes(values[0] as string)) return true;
  if (values.length === 1 && ['false', '0', ''].includes(values[0] as string)) return undefined;
  values.forEach((value, i) => {
    if (!postTypes.includes(value))
      throw invalidParam(
        'has_published_posts',
        `has_published_posts[${i}] is not one of ${phpList(postTypes)}.`,
        'rest_not_in_enum',
      );
  });
  return true;
}

/** `reassign`: an id, or false (also `0`, `""`, `"false"`) to delete the user's posts with them. */
export function reassignOf(value: unknown): number | false | undefined {
  if (value === undefined) return undefined;
  if (value === false || value === 'false' || value === '' || value === 0 || value === '0') return false;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  throw invalidParam('reassign', 'Invalid user parameter(s).');
}

/** A delete's `force` and `reassign`, from the body first as core's parameters are. */
export const deleteParams = (body: Record<string, unknown>, query: Record<string, unknown>) => ({
  force: isTrue((body.force ?? query.force) as string | boolean | undefined),
  reassign: reassignOf(body.reassign ?? query.reassign),
});

/** Deleting for good must say what happens to the user's posts, as core requires `reassign`. */
export function checkDeleteParams(force: boolean, reassign: number | false | undefined) {
  if (force && reassign === undefined) throw missingParams(['reassign']);
}

/**
 * WP_User_Query's role__in: the roles asked for, plus (capability__in) every role holding one of the capabilities
 * and the capability names themselves, which core matches against role names too.
 */
export function rolesFilter(roles: string[] | undefined, capabilities: string[] | undefined) {
  if (!capabilities?.length) return roles;
  const holders = Object.entries(roleCapabilities)
    .filter(([, caps]) => capabilities.some((cap) => caps.includes(cap)))
    .map(([role]) => role);
  return [...new Set([...(roles ?? []), ...holders, ...capabilities])];
}

export const rolesOf = (roles: unknown) =>
  roles === undefined
    ? undefined
    : (typeof roles === 'string' ? roles.split(',') : (roles as string[])).map((r) => r.trim());

/** `sanitize_text_field`: no tags, no line breaks or tabs, trimmed. */
const plainText = (value: string) =>
  value
    .replace(/<[^>]*>/g, '')
    .replace(/[\r\n\t ]+/g, ' ')
    .trim();

/** `validate_username`: letters, digits, space, `_ . - @`, with no leading, trailing or doubled spaces. */
const validUsername = (name: string) => /^[A-Za-z0-9_.@-]+( [A-Za-z0-9_.@-]+)*$/.test(name);

/** `is_email` for the common cases: one `@`, a dotted domain, no white space. */
const validEmail = (email: string) => /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email) && email.length <= 100;

/** A user write's fields, checked as core's sanitize callbacks do. */
export function checkUserParams(body: UserBody) {
  if (body.username !== undefined && !validUsername(body.username))
    throw invalidParam(
      'username',
      'This username is invalid because it uses illegal characters. Please enter a valid username.',
      'rest_user_invalid_username',
    );
  if (body.email !== undefined && !validEmail(body.email))
    throw invalidParam('email', 'Invalid email address.', 'rest_invalid_email');
  if (body.password !== undefined) {
    if (body.password === '')
      throw invalidParam('password', 'Passwords cannot be empty.', 'rest_user_invalid_password');
    if (body.password.includes('\\'))
      throw invalidParam(
        'password',
        'Passwords cannot contain the "\\" character.',
        'rest_user_invalid_password',
      );
  }
  if (body.url !== undefined && body.url !== '' && !/^https?:\/\/[^\s]+$/i.test(body.url))
    throw invalidParam('url', 'Invalid URL.', 'rest_invalid_url');
  const locales = ['', 'en_US', ...Object.values(languages)];
  if (body.locale !== undefined && !locales.includes(body.locale))
    throw invalidParam('locale', `locale is not one of ${phpList(locales)}.`, 'rest_not_in_enum');
}

/** Creating a user needs username, email and password, then the fields' own checks. */
export function checkNewUserParams(body: UserBody) {
  const missing = (['username', 'email', 'password'] as const).filter((k) => body[k] === undefined);
  if (missing.length) throw missingParams([...missing]);
  checkUserParams(body);
}

/** The columns a body sets (names sanitized as core does); the password is hashed here. */
export async function fieldsOf(body: UserBody, roles: string[] | undefined): Promise<UserFields> {
  const text = (value: string | undefined) => (value === undefined ? undefined : plainText(value));
  const locale = body.locale;
  return {
    email: body.email,
    display_name: text(body.name),
    first_name: text(body.first_name),
    last_name: text(body.last_name),
    nickname: text(body.nickname),
    description: body.description,
    url: body.url,
    language:
      locale === undefined
        ? undefined
        : (Object.entries(languages).find(([, l]) => l === locale)?.[0] ?? 'en'),
    role: roles?.length ? (roles[0] as Role) : undefined,
    password_hash: body.password === undefined ? undefined : await hashPassword(body.password),
  };
}
