import { pickItemFields } from '../../embed-param.js';
import { fieldList, sendFields } from '../../http.js';
import { type Context, renderUser, wpDate } from '../../render.js';
import type { UserRow } from '../../store.js';
import type { Call } from '../contract.js';
import type { AppPasswordRow } from './store.js';

/** A user as the call's context and `_fields` ask (the header naming the fields is the caller's to send). */
export const userAnswer = (
  call: Call,
  user: UserRow,
  context: Context,
  fields?: string[],
  collection = false,
) => pickItemFields(call.request, renderUser(user, call.site, context), fields, collection);

/** One user, in the query's context, with `_fields` applied and announced. */
export function userItem(call: Call, user: UserRow) {
  const fields = fieldList(call.query._fields as string | undefined);
  sendFields(call.reply, fields);
  return userAnswer(call, user, call.context as Context, fields);
}

/** An application password; its plain `password` only in the answer that created it. */
export const renderAppPassword = (call: Call, userId: number, row: AppPasswordRow, password?: string) => ({
  uuid: row.uuid,
  app_id: row.app_id,
  name: row.name,
  created: wpDate(row.created_at),
  last_used: row.last_used_at ? wpDate(row.last_used_at) : null,
  last_ip: row.last_ip || null,
  ...(password ? { password } : {}),
  _links: {
    self: [{ href: `${call.site.api}/wp/v2/users/${userId}/application-passwords/${row.uuid}` }],
  },
});
