import { appPasswordOf, newAppPassword } from '../../auth.js';
import { restError } from '../../errors.js';
import type { Call } from '../contract.js';
import { passwordsUser } from './access.js';
import { renderAppPassword } from './render.js';
import { UserStore } from './store.js';

// WP_REST_Application_Passwords_Controller's handlers: a user's application passwords, kept only as hashes.
// Each runs after its endpoint's check (access.ts), which has found the user.

const duplicateName = () =>
  restError(409, 'application_password_duplicate_name', 'Each application name should be unique.');

/** The user the route names, and their password the path's `uuid` names (404 if they have none by it). */
async function named(call: Call) {
  const user = await passwordsUser(call);
  const row = await new UserStore(call.store.db).appPassword(user.id, call.params.uuid ?? '');
  if (!row) throw restError(404, 'rest_application_password_not_found', 'Application password not found.');
  return { user, row };
}

export async function listAppPasswords(call: Call) {
  const user = await passwordsUser(call);
  const rows = await new UserStore(call.store.db).appPasswords(user.id);
  return rows.map((row) => renderAppPassword(call, user.id, row));
}

/** The new password is answered once; only its hash is stored. */
export async function createAppPassword(call: Call) {
  const user = await passwordsUser(call);
  const body = call.body as { name: string; app_id?: string };
  const name = body.name.trim();
  const store = new UserStore(call.store.db);
  if (await store.appPasswordNameTaken(user.id, name)) throw duplicateName();
  const password = newAppPassword();
  const row = await store.createAppPassword(user.id, name, body.app_id ?? '', password);
  const answer = renderAppPassword(call, user.id, row, password);
  call.reply.header('location', answer._links.self[0]?.href);
  return answer;
}

export async function deleteAppPasswords(call: Call) {
  const user = await passwordsUser(call);
  return { deleted: true, count: await new UserStore(call.store.db).deleteAppPasswords(user.id) };
}

/** The application password this request authenticated with. */
export async function introspectAppPassword(call: Call) {
  const user = await passwordsUser(call);
  const used = appPasswordOf(call.request);
  const row = (await new UserStore(call.store.db).appPasswords(user.id)).find((r) => r.id === used);
  if (!row)
    throw restError(404, 'rest_no_authenticated_app_password', 'Cannot introspect application password.');
  return renderAppPassword(call, user.id, row);
}

export async function readAppPassword(call: Call) {
  const { user, row } = await named(call);
  return renderAppPassword(call, user.id, row);
}

export async function renameAppPassword(call: Call) {
  const { user, row } = await named(call);
  const body = call.body as { name?: string; app_id?: string };
  const name = body.name?.trim() ?? row.name;
  const store = new UserStore(call.store.db);
  if (await store.appPasswordNameTaken(user.id, name, row.id)) throw duplicateName();
  return renderAppPassword(
    call,
    user.id,
    await store.renameAppPassword(row.id, name, body.app_id ?? row.app_id),
  );
}

export async function deleteAppPassword(call: Call) {
  const { user, row } = await named(call);
  await new UserStore(call.store.db).deleteAppPassword(row.id);
  return { deleted: true, previous: renderAppPassword(call, user.id, row) };
}
