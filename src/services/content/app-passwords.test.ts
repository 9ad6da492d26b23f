import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, basic, type ContentTest, ids, type Json, json, startContent } from '../../../test/content.js';
import { tokenHash } from '../../platform/secrets.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const send = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  auth?: string,
  payload?: object,
) => t.app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });
const base = (user: number | 'me') => `${api}/users/${user}/application-passwords`;

describe('application passwords', () => {
  test('create answers the password once (201, Location); only its hash is stored; it signs in', async () => {
    const appId = '8a6d7c1e-1111-4222-8333-444455556666';
    const res = await send('POST', base('me'), t.auth.author, { name: 'My phone', app_id: appId });
    assert.equal(res.statusCode, 201);
    const created = json(res);
    assert.match(created.password, /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    assert.match(created.uuid, /^[0-9a-f-]{36}$/);
    assert.equal(created.app_id, appId);
    assert.equal(created.name, 'My phone');
    assert.equal(created.last_used, null);
    assert.equal(created.last_ip, null);
    assert.match(created.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    assert.equal(
      res.headers.location,
      `http://localhost:80/wp-json/wp/v2/users/${ids.author}/application-passwords/${created.uuid}`,
    );
    const stored = await t.db.query<{ secret_hash: string }>(
      'SELECT secret_hash FROM content.credentials WHERE uuid = $1',
      [created.uuid],
    );
    assert.equal(stored.rows[0]?.secret_hash, tokenHash(created.password.replaceAll(' ', '')));
    const auth = basic('author', created.password);
    const introspect = await send('GET', `${base('me')}/introspect`, auth);
    assert.equal(introspect.statusCode, 200);
    assert.equal(json(introspect).uuid, created.uuid);
    assert.equal(json(introspect).password, undefined);
    const listed = json(await send('GET', base(ids.author), t.auth.author));
    const mine = listed.find((p: Json) => p.uuid === created.uuid);
    assert.equal(mine.password, undefined);
    assert.match(mine.last_used, /^\d{4}-/);
    assert.equal(mine.last_ip, '127.0.0.1');
  });

  test('rename, read and delete one; duplicate names are 409; unknown uuids are 404', async () => {
    const first = json(await send('POST', base(ids.editor), t.auth.editor, { name: 'CI' }));
    const dup = await send('POST', base(ids.editor), t.auth.editor, { name: 'CI' });
    assert.equal(dup.statusCode, 409);
    assert.equal(json(dup).code, 'application_password_duplicate_name');
    const renamed = await send('PATCH', `${base(ids.editor)}/${first.uuid}`, t.auth.editor, { name: 'CI 2' });
    assert.equal(renamed.statusCode, 200);
    assert.equal(json(renamed).name, 'CI 2');
    assert.equal(json(await send('GET', `${base('me')}/${first.uuid}`, t.auth.editor)).name, 'CI 2');
    const missing = await send('GET', `${base(ids.editor)}/not-a-uuid`, t.auth.editor);
    assert.equal(missing.statusCode, 404);
    assert.equal(json(missing).code, 'rest_application_password_not_found');
    const del = await send('DELETE', `${base(ids.editor)}/${first.uuid}`, t.auth.editor);
    assert.equal(json(del).deleted, true);
    assert.equal(json(del).previous.uuid, first.uuid);
    assert.equal((await send('GET', `${base(ids.editor)}/${first.uuid}`, t.auth.editor)).statusCode, 404);
  });

  test('others’ passwords need edit_users; me without a login is 401; bad names are 400', async () => {
    const other = await send('GET', base(ids.editor), t.auth.author);
    assert.equal(other.statusCode, 403);
    assert.equal(json(other).code, 'rest_cannot_list_application_passwords');
    const anonymous = await send('POST', base(ids.editor), undefined, { name: 'x' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(json(anonymous).code, 'rest_cannot_create_application_passwords');
    const me = await send('GET', base('me'));
    assert.equal(me.statusCode, 401);
    assert.equal(json(me).code, 'rest_not_logged_in');
    assert.equal((await send('GET', base(999), t.auth.admin)).statusCode, 404);
    assert.equal((await send('GET', base(ids.editor), t.auth.admin)).statusCode, 200);
    const blank = await send('POST', base('me'), t.auth.author, { name: '   ' });
    assert.equal(blank.statusCode, 400);
    assert.equal(json(blank).code, 'rest_invalid_param');
    const missing = await send('POST', base('me'), t.auth.author, {});
    assert.equal(json(missing).code, 'rest_missing_callback_param');
    const introspectOther = await send('GET', `${base(ids.editor)}/introspect`, t.auth.author);
    assert.equal(
      json(introspectOther).code,
      'rest_cannot_introspect_app_password_for_non_authenticated_user',
    );
  });

  test('deleting all of a user’s application passwords revokes every one of them', async () => {
    const created = json(await send('POST', base('me'), t.auth.subscriber, { name: 'extra' }));
    const extra = basic('subscriber', created.password);
    assert.equal((await send('GET', `${api}/users/me`, extra)).statusCode, 200);
    const all = await send('DELETE', base(ids.subscriber), t.auth.admin);
    assert.deepEqual(json(all), { deleted: true, count: 2 });
    assert.equal((await send('GET', `${api}/users/me`, extra)).statusCode, 401);
    assert.equal((await send('GET', `${api}/users/me`, t.auth.subscriber)).statusCode, 401);
  });
});
