import { can, roleCapabilities } from '../../capabilities.js';
import { restError } from '../../errors.js';
import { fieldList, paginate, sendFields, setCaller, validId } from '../../http.js';
import { removeAttachmentFiles } from '../../media-files.js';
import { trashPost } from '../../post-write.js';
import { slugify } from '../../posts.js';
import { type Context, renderUser, withoutLinks } from '../../render.js';
import type { Role, UserRow } from '../../store.js';
import { RevisionStore } from '../../store-revisions.js';
import type { Call } from '../contract.js';
import { namedUser } from './access.js';
import { deleteParams, fieldsOf, publishedFilter, rolesFilter, rolesOf, type UserBody } from './params.js';
import { userAnswer, userItem } from './render.js';
import { UserStore } from './store.js';

// The users controller's handlers: each runs after its endpoint's parameter and permission checks (access.ts).

const users = (call: Call) => new UserStore(call.store.db);
const roleNames = Object.keys(roleCapabilities) as Role[];
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** `check_role_update`: known roles only, and administrators cannot demote themselves. */
function checkRoles(me: UserRow, targetId: number | undefined, roles: string[]) {
  for (const role of roles) {
    if (!roleNames.includes(role as Role))
      throw restError(400, 'rest_user_invalid_role', `The role ${role} does not exist.`);
    if (targetId === me.id && !roleCapabilities[role as Role].includes('edit_users'))
      throw restError(403, 'rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.');
  }
}

interface ListQuery {
  context?: Context;
  page?: number;
  per_page?: number;
  offset?: number;
  search?: string;
  include?: number[];
  exclude?: number[];
  slug?: string[];
  roles?: string[];
  capabilities?: string[];
  who?: 'authors';
  has_published_posts?: string[];
  orderby?: string;
  order?: 'asc' | 'desc';
  _fields?: string;
}

/** Everyone for those who may list users; otherwise authors of published posts. */
export async function listUsers(call: Call) {
  const q = call.query as ListQuery;
  const listUsers = can(call.me, 'list_users');
  const perPage = q.per_page ?? 10;
  const page = q.page ?? 1;
  // include without include is no FIELD(): core falls back to user_login.
  const orderby =
    q.orderby === 'include' ? 'username' : q.orderby === 'include_slugs' ? 'id' : (q.orderby ?? 'name');
  const { rows, total } = await call.store.listUsers({
    // As core: who=authors lifts the published-posts limit; has_published_posts sets it explicitly.
    publishedOnly: publishedFilter(q.has_published_posts) ?? (!listUsers && q.who !== 'authors'),
    search: q.search,
    roles: rolesFilter(q.roles, q.capabilities),
    include: q.include,
    exclude: q.exclude,
    slugs: q.slug,
    authors: q.who === 'authors',
    orderby: orderby as 'name',
    order: q.order ?? 'asc',
    listOrder:
      q.orderby === 'include' && q.include?.length
        ? { ids: q.include }
        : q.orderby === 'include_slugs'
          ? { slugs: q.slug ?? [] }
          : undefined,
    limit: perPage,
    offset: q.offset ?? (page - 1) * perPage,
  });
  paginate(call.request, call.reply, total, page, Math.ceil(total / perPage));
  const fields = fieldList(q._fields);
  sendFields(call.reply, fields);
  return rows.map((user) => userAnswer(call, user, q.context ?? 'view', fields, true));
}

/** `/users/me`: anyone may ask; without credentials the answer is that nobody is logged in. */
export async function currentUser(call: Call) {
  if (!call.me) throw restError(401, 'rest_not_logged_in', 'You are not currently logged in.');
  return userItem(call, call.me);
}

export async function readUser(call: Call) {
  return userItem(call, await namedUser(call, can(call.me, 'list_users')));
}

export async function createUser(call: Call) {
  const body = call.body as UserBody;
  if ((body as { id?: unknown }).id) throw restError(400, 'rest_user_exists', 'Cannot create existing user.');
  const roles = rolesOf(body.roles);
  if (roles?.length) checkRoles(call.me as UserRow, undefined, roles);
  const login = body.username as string;
  if (login.length > 60)
    throw restError(400, 'user_login_too_long', 'Username may not be longer than 60 characters.');
  const store = users(call);
  if ((await store.holding('login', login)) !== undefined)
    throw restError(400, 'existing_user_login', 'Sorry, that username already exists!');
  if ((await store.holding('email', body.email as string)) !== undefined)
    throw restError(400, 'existing_user_email', 'Sorry, that email address is already used!');
  const fields = await fieldsOf(body, roles);
  const first = fields.first_name ?? '';
  const last = fields.last_name ?? '';
  const slugBase = slugify(body.slug ?? login).slice(0, 50) || slugify(login) || 'user';
  try {
    const user = await store.insert({
      ...fields,
      login,
      email: body.email as string,
      display_name: fields.display_name || [first, last].filter(Boolean).join(' ') || login,
      first_name: first,
      last_name: last,
      nickname: fields.nickname || login,
      description: fields.description ?? '',
      url: fields.url ?? '',
      language: fields.language ?? 'en',
      slug: await store.uniqueSlug(slugBase),
      role: fields.role ?? 'subscriber',
    });
    call.reply.header('location', `${call.site.api}/wp/v2/users/${user.id}`);
    return renderUser(user, call.site, 'edit');
  } catch (error) {
    if (isUniqueViolation(error))
      throw restError(400, 'existing_user_login', 'Sorry, that username already exists!');
    throw error;
  }
}

/** Updates of `/users/{id}` and `/users/me`; an answer about yourself refreshes who the request is. */
export async function updateUser(call: Call) {
  const user = await namedUser(call);
  const body = call.body as UserBody;
  const store = users(call);
  const owner = body.email ? await store.holding('email', body.email) : undefined;
  if (owner !== undefined && owner !== user.id)
    throw restError(400, 'rest_user_invalid_email', 'Invalid email address.');
  if (body.username && body.username !== user.login)
    throw restError(400, 'rest_user_invalid_argument', "Username isn't editable.");
  const slug = body.slug ? slugify(body.slug) : undefined;
  if (slug && slug !== user.slug && (await store.holding('slug', slug)) !== undefined)
    throw restError(400, 'rest_user_invalid_slug', 'Invalid slug.');
  const roles = rolesOf(body.roles);
  if (roles?.length) checkRoles(call.me as UserRow, user.id, roles);
  try {
    await store.update(user.id, { ...(await fieldsOf(body, roles)), slug: slug || undefined });
  } catch (error) {
    if (isUniqueViolation(error)) throw restError(400, 'rest_user_invalid_email', 'Invalid email address.');
    throw error;
  }
  const updated = (await call.store.findUser(user.id)) as UserRow;
  if (call.me?.id === updated.id) setCaller(call.request, updated);
  return renderUser(updated, call.site, 'edit');
}

/**
 * Trashes a user (backlot's own step), or deletes them for good as wp_delete_user: `reassign` moves their posts
 * to another user first; without it their posts and pages go to the trash, and their attachments are deleted
 * with their files (wp_delete_post → wp_delete_attachment, MEDIA_TRASH being off).
 */
export async function deleteUser(call: Call) {
  const { force, reassign } = deleteParams(call.body, call.query);
  const user = await namedUser(call, true);
  if (
    reassign !== undefined &&
    reassign !== false &&
    (reassign === user.id || !validId(reassign) || !(await call.store.findUser(reassign)))
  )
    throw restError(400, 'rest_user_invalid_reassign', 'Invalid user ID for reassignment.');
  if (!force && user.trashed_at)
    throw restError(410, 'rest_already_trashed', 'The user has already been trashed.');
  const previous = withoutLinks(renderUser(user, call.site, 'edit'));
  const attachments = force && !reassign ? await users(call).attachmentsOf(user.id) : [];
  const left = await call.store.removeUser(user.id, { reassign: reassign || undefined, force });
  for (const attachment of attachments)
    await removeAttachmentFiles(call.store.db, call.files.objects, attachment, call.request.log);
  const revisions = new RevisionStore(call.store.db);
  for (const postId of left) {
    const post = await call.store.findPost(postId);
    if (post) await trashPost(call.store, revisions, post, (call.me as UserRow).id);
  }
  return force ? { deleted: true, previous } : { deleted: false, trashed: true, previous };
}

/** Brings a trashed user back (backlot's own route). */
export async function restoreUser(call: Call) {
  const user = await namedUser(call, true);
  if (!user.trashed_at) throw restError(400, 'rest_user_not_trashed', 'The user is not in the trash.');
  await call.store.restoreUser(user.id);
  return renderUser({ ...user, trashed_at: null }, call.site, 'edit');
}
