import { can } from '../../capabilities.js';
import { refused, restError } from '../../errors.js';
import { validId } from '../../http.js';
import type { UserRow } from '../../store.js';
import type { Check } from '../contract.js';
import { rolesOf } from './params.js';

// The users and application passwords controllers' permission checks, one per endpoint: the routes run them
// before their handlers, and the Allow header runs the same ones for every method of the matched route.

export const invalidUserId = () => restError(404, 'rest_user_invalid_id', 'Invalid user ID.');
const cannotView = (check: Check) =>
  refused(!!check.me, 'rest_user_cannot_view', 'Sorry, you are not allowed to list users.');

/** Orderings that would reveal private fields. */
const privateOrderings = new Set(['email', 'registered_date', 'username']);

/**
 * The user a route names: its `id`, or on `/users/me` the caller (anonymous callers are user 0, an unknown
 * user). Trashed users are found only when `withTrashed` (those who may list or delete users see them).
 */
export async function namedUser(check: Check, withTrashed = false): Promise<UserRow> {
  const id = check.params.id === undefined ? (check.me?.id ?? 0) : Number(check.params.id);
  const user = validId(id) ? await check.store.findUser(id, withTrashed) : undefined;
  if (!user) throw invalidUserId();
  return user;
}

/** Listing by role, capability or a private ordering, or in edit context, needs list_users. */
export function checkList(check: Check) {
  const { me, query } = check;
  const listUsers = can(me, 'list_users');
  const refuse = (code: string, message: string) => refused(!!me, code, message);
  if ((query.roles as string[] | undefined)?.length && !listUsers)
    throw refuse('rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.');
  if ((query.capabilities as string[] | undefined)?.length && !listUsers)
    throw refuse('rest_user_cannot_view', 'Sorry, you are not allowed to filter users by capability.');
  if (check.context === 'edit' && !listUsers)
    throw refuse('rest_forbidden_context', 'Sorry, you are not allowed to list users.');
  if (privateOrderings.has(String(query.orderby)) && !listUsers)
    throw refuse('rest_forbidden_orderby', 'Sorry, you are not allowed to order users by this parameter.');
  // who=authors: someone who may edit a post type with authors.
  if (query.who === 'authors' && !can(me, 'edit_posts') && !can(me, 'edit_pages'))
    throw refuse('rest_forbidden_who', 'Sorry, you are not allowed to query users by this parameter.');
}

export function checkCreate(check: Check) {
  if (!can(check.me, 'create_users'))
    throw refused(!!check.me, 'rest_cannot_create_user', 'Sorry, you are not allowed to create new users.');
}

/** Yourself; others with list_users, or (outside edit context) anyone when they have published posts. */
export async function checkRead(check: Check) {
  const listUsers = can(check.me, 'list_users');
  const user = await namedUser(check, listUsers);
  if (check.me?.id === user.id || listUsers) return;
  if (check.context === 'edit' || !(await check.store.userHasPublishedPosts(user.id)))
    throw cannotView(check);
}

/** Roles need promote_users (and alone need nothing more); other fields yourself, or edit_users. */
export async function checkUpdate(check: Check) {
  const user = await namedUser(check);
  const { me, body = {} } = check;
  const roles = rolesOf(body.roles);
  if (roles?.length && !can(me, 'promote_users'))
    throw refused(!!me, 'rest_cannot_edit_roles', 'Sorry, you are not allowed to edit roles of this user.');
  const onlyRoles = roles?.length && Object.keys(body).every((k) => k === 'roles');
  if (!onlyRoles && me?.id !== user.id && !can(me, 'edit_users'))
    throw refused(!!me, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this user.');
}

export async function checkDelete(check: Check) {
  const admin = can(check.me, 'delete_users');
  await namedUser(check, admin);
  if (!admin)
    throw refused(!!check.me, 'rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.');
}

/** Bringing a trashed user back (backlot's own route) takes delete_users, as trashing one does. */
export async function checkRestore(check: Check) {
  const admin = can(check.me, 'delete_users');
  await namedUser(check, admin);
  if (!admin) throw refused(!!check.me, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this user.');
}

/** The application passwords controller's `get_user`: `me` is the caller (401 without one), ids name a user. */
export async function passwordsUser(check: Check): Promise<UserRow> {
  const raw = check.params.user_id ?? 'me';
  if (raw === 'me') {
    if (!check.me) throw restError(401, 'rest_not_logged_in', 'You are not currently logged in.');
    return check.me;
  }
  const id = Number(raw);
  const user = validId(id) ? await check.store.findUser(id) : undefined;
  if (!user) throw invalidUserId();
  return user;
}

/** The `*_app_password(s)` meta capabilities map to `edit_user`: yourself, or administrators. */
export const passwordsCheck = (code: string, message: string) => async (check: Check) => {
  const user = await passwordsUser(check);
  if (check.me?.id !== user.id && !can(check.me, 'edit_users')) throw refused(!!check.me, code, message);
};

/** Only the caller's own application passwords can be introspected. */
export async function checkIntrospect(check: Check) {
  const user = await passwordsUser(check);
  if (check.me?.id !== user.id)
    throw refused(
      !!check.me,
      'rest_cannot_introspect_app_password_for_non_authenticated_user',
      'The authenticated application password can only be introspected for the current user.',
    );
}
