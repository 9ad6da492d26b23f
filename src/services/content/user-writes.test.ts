import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, basic, type ContentTest, fetchStored, ids, json, startContent } from '../../../test/content.js';
import { storeEnv } from '../../../test/profiles.js';
import { verifyPassword } from '../../platform/secrets.js';

let t: ContentTest;
before(async () => {
  // Media files in the embedded store, or in S3 when run through test/with-services.ts.
  t = await startContent({ env: storeEnv() });
});
after(() => t.close());

const send = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  auth?: string,
  payload?: object,
) => t.app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });
const stored = async (login: string) =>
  (await t.db.query<Record<string, unknown>>('SELECT * FROM content.users WHERE login = $1', [login]))
    .rows[0];

describe('POST /users', () => {
  test('a form body reads as PHP reads it: roles[]=editor makes an editor, meta[k]= a map', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/users`,
      headers: { authorization: t.auth.admin, 'content-type': 'application/x-www-form-urlencoded' },
      payload:
        'username=formed&email=formed%40example.com&password=form-Secret-1&roles[]=editor&name=Form+Ed&meta[x]=1',
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(json(res).roles, ['editor']);
    assert.equal(json(res).name, 'Form Ed');
    assert.equal((await stored('formed'))?.role, 'editor');
  });

  test('an administrator creates a user: 201, Location, edit context, password stored as Argon2id', async () => {
    const res = await send('POST', `${api}/users`, t.auth.admin, {
      username: 'newbie',
      email: 'newbie@example.com',
      password: 'correct horse',
      first_name: 'New',
      last_name: 'Bie',
      roles: ['author'],
    });
    assert.equal(res.statusCode, 201);
    const user = json(res);
    assert.equal(res.headers.location, `http://localhost:80/wp-json/wp/v2/users/${user.id}`);
    assert.equal(user.username, 'newbie');
    assert.equal(user.name, 'New Bie');
    assert.equal(user.slug, 'newbie');
    assert.equal(user.nickname, 'newbie');
    assert.deepEqual(user.roles, ['author']);
    assert.equal('password' in user, false);
    const row = await stored('newbie');
    assert.match(String(row?.password_hash), /^\$argon2id\$/);
    assert.equal(await verifyPassword(String(row?.password_hash), 'correct horse'), true);
  });

  test('missing fields, bad names and passwords are 400 before permissions, as core', async () => {
    const missing = await send('POST', `${api}/users`, undefined, {});
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(json(missing), {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): username, email, password',
      data: { status: 400, params: ['username', 'email', 'password'] },
    });
    const base = { username: 'ok', email: 'ok@example.com', password: 'pw' };
    for (const [field, value, code] of [
      ['username', 'bad/name', 'rest_user_invalid_username'],
      ['email', 'not-an-email', 'rest_invalid_email'],
      ['password', '', 'rest_user_invalid_password'],
      ['password', 'a\\b', 'rest_user_invalid_password'],
    ] as const) {
      const res = await send('POST', `${api}/users`, t.auth.admin, { ...base, [field]: value });
      assert.equal(res.statusCode, 400, field);
      const body = json(res);
      assert.equal(body.code, 'rest_invalid_param');
      assert.equal(body.message, `Invalid parameter(s): ${field}`);
      assert.equal(body.data.details[field].code, code);
      assert.equal(typeof body.data.params[field], 'string');
    }
  });

  test('only administrators create users; taken logins and e-mails are refused', async () => {
    const body = { username: 'someone', email: 'someone@example.com', password: 'pw' };
    const anonymous = await send('POST', `${api}/users`, undefined, body);
    assert.equal(anonymous.statusCode, 401);
    assert.equal(json(anonymous).code, 'rest_cannot_create_user');
    const editor = await send('POST', `${api}/users`, t.auth.editor, body);
    assert.equal(editor.statusCode, 403);
    const login = await send('POST', `${api}/users`, t.auth.admin, { ...body, username: 'editor' });
    assert.deepEqual(json(login), {
      code: 'existing_user_login',
      message: 'Sorry, that username already exists!',
      data: { status: 400 },
    });
    const email = await send('POST', `${api}/users`, t.auth.admin, { ...body, email: 'EDITOR@example.com' });
    assert.equal(json(email).code, 'existing_user_email');
    const role = await send('POST', `${api}/users`, t.auth.admin, { ...body, roles: ['wizard'] });
    assert.equal(role.statusCode, 400);
    assert.equal(json(role).message, 'The role wizard does not exist.');
    assert.equal(await stored('someone'), undefined);
  });
});

describe('updating users', () => {
  test('users edit themselves through /users/me and /users/{id}; PUT and PATCH work too', async () => {
    const me = await send('POST', `${api}/users/me`, t.auth.author, {
      first_name: ' Rory <b>',
      description: 'Hi',
    });
    assert.equal(me.statusCode, 200);
    assert.equal(json(me).first_name, 'Rory');
    assert.equal(json(me).description, 'Hi');
    const put = await send('PUT', `${api}/users/${ids.author}`, t.auth.author, { name: 'Aurora A.' });
    assert.equal(json(put).name, 'Aurora A.');
    const patch = await send('PATCH', `${api}/users/${ids.author}`, t.auth.admin, {
      url: 'https://aurora.example',
    });
    assert.equal(json(patch).url, 'https://aurora.example');
    assert.equal((await stored('author'))?.display_name, 'Aurora A.');
  });

  test('editing others needs edit_users; roles need promote_users; usernames are not editable', async () => {
    const other = await send('POST', `${api}/users/${ids.editor}`, t.auth.author, { name: 'X' });
    assert.equal(other.statusCode, 403);
    assert.equal(json(other).code, 'rest_cannot_edit');
    const promote = await send('POST', `${api}/users/me`, t.auth.author, { roles: ['administrator'] });
    assert.equal(promote.statusCode, 403);
    assert.equal(json(promote).code, 'rest_cannot_edit_roles');
    const rename = await send('POST', `${api}/users/${ids.author}`, t.auth.admin, { username: 'renamed' });
    assert.equal(json(rename).code, 'rest_user_invalid_argument');
    const email = await send('POST', `${api}/users/${ids.author}`, t.auth.admin, {
      email: 'admin@example.com',
    });
    assert.equal(json(email).code, 'rest_user_invalid_email');
    const slug = await send('POST', `${api}/users/${ids.author}`, t.auth.admin, { slug: 'editor' });
    assert.equal(json(slug).code, 'rest_user_invalid_slug');
    const demote = await send('POST', `${api}/users/me`, t.auth.admin, { roles: ['editor'] });
    assert.equal(demote.statusCode, 403);
    assert.equal(json(demote).code, 'rest_user_invalid_role');
    const anonymous = await send('POST', `${api}/users/me`, undefined, { name: 'X' });
    assert.equal(anonymous.statusCode, 404);
    assert.equal(json(anonymous).code, 'rest_user_invalid_id');
  });

  test('an administrator changes a role, and the new role’s capabilities apply at once', async () => {
    const created = json(
      await send('POST', `${api}/users`, t.auth.admin, {
        username: 'promoted',
        email: 'promoted@example.com',
        password: 'pw',
      }),
    );
    assert.deepEqual(created.roles, ['subscriber']);
    const res = await send('POST', `${api}/users/${created.id}`, t.auth.admin, { roles: ['editor'] });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res).roles, ['editor']);
    assert.equal((await stored('promoted'))?.role, 'editor');
  });
});

describe('listing and deleting users', () => {
  test('slug, exclude, include and who=authors filter; a page past the end is 200 []', async () => {
    const bySlug = json(await send('GET', `${api}/users?slug=editor,author`, t.auth.admin));
    assert.deepEqual(bySlug.map((u: { slug: string }) => u.slug).sort(), ['author', 'editor']);
    const excluded = json(await send('GET', `${api}/users?exclude=1,2&per_page=100`, t.auth.admin));
    assert.ok(excluded.every((u: { id: number }) => u.id > 2));
    const authors = await send('GET', `${api}/users?who=authors&per_page=100`, t.auth.contributor);
    assert.equal(authors.statusCode, 200);
    const authorIds = json(authors).map((u: { id: number }) => u.id);
    assert.ok(authorIds.includes(ids.contributor), 'contributors count as authors without published posts');
    assert.ok(!authorIds.includes(ids.subscriber));
    const forbidden = await send('GET', `${api}/users?who=authors`, t.auth.subscriber);
    assert.equal(forbidden.statusCode, 403);
    assert.equal(json(forbidden).code, 'rest_forbidden_who');
    const past = await send('GET', `${api}/users?page=50`);
    assert.equal(past.statusCode, 200);
    assert.deepEqual(json(past), []);
    assert.equal(past.headers['x-wp-total'], '3');
    const published = json(
      await send('GET', `${api}/users?has_published_posts=true&per_page=100`, t.auth.admin),
    );
    assert.deepEqual(
      published.map((u: { id: number }) => u.id).sort(),
      [ids.admin, ids.editor, ids.author].sort(),
    );
    const bad = await send('GET', `${api}/users?has_published_posts=nope`, t.auth.admin);
    assert.equal(bad.statusCode, 400);
    assert.equal(json(bad).code, 'rest_invalid_param');
    assert.ok(json(bad).data.params.has_published_posts);
    const badExclude = await send('GET', `${api}/users?exclude=abc`);
    assert.equal(badExclude.statusCode, 400);
    assert.equal(json(badExclude).code, 'rest_invalid_param');
  });

  test('force without reassign is 400 rest_missing_callback_param and nothing is deleted', async () => {
    const res = await send('DELETE', `${api}/users/${ids.author}?force=true`, t.auth.admin);
    assert.equal(res.statusCode, 400);
    assert.deepEqual(json(res), {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): reassign',
      data: { status: 400, params: ['reassign'] },
    });
    assert.ok(await stored('author'));
    const bad = await send('DELETE', `${api}/users/${ids.author}?force=true&reassign=abc`, t.auth.admin);
    assert.equal(json(bad).code, 'rest_invalid_param');
  });

  test('reassign=false deletes the user and trashes their posts, as core', async () => {
    const created = json(
      await send('POST', `${api}/users`, t.auth.admin, {
        username: 'writer',
        email: 'writer@example.com',
        password: 'pw',
        roles: ['author'],
      }),
    );
    await t.db.query(`INSERT INTO content.posts (author, title, status) VALUES ($1, 'Mine', 'publish')`, [
      created.id,
    ]);
    const res = await send('DELETE', `${api}/users/${created.id}`, t.auth.admin, {
      force: true,
      reassign: false,
    });
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).deleted, true);
    const left = await t.db.query('SELECT status FROM content.posts WHERE author = $1', [created.id]);
    assert.deepEqual(left.rows, [{ status: 'trash' }]);
    assert.equal(await stored('writer'), undefined);
  });

  test('reassign=false deletes their attachments with the files, as wp_delete_user (MEDIA_TRASH off)', async () => {
    const user = json(
      await send('POST', `${api}/users`, t.auth.admin, {
        username: 'uploader',
        email: 'uploader@example.com',
        password: 'pw',
        roles: ['author'],
      }),
    );
    const key = json(
      await send('POST', `${api}/users/${user.id}/application-passwords`, t.auth.admin, { name: 'test' }),
    );
    const gif = Buffer.from('R0lGODlhAwACAIAAAP///wAAACwAAAAAAwACAAACAoRRADs=', 'base64');
    const upload = await t.app.inject({
      method: 'POST',
      url: `${api}/media`,
      payload: gif,
      headers: {
        authorization: basic('uploader', key.password),
        'content-type': 'image/gif',
        'content-disposition': 'attachment; filename="leaving.gif"',
      },
    });
    assert.equal(upload.statusCode, 201, upload.body);
    const media = json(upload);
    assert.equal((await fetchStored(t, media.source_url)).status, 200);
    const featuring = json(
      await send('POST', `${api}/posts`, t.auth.admin, { title: 'Featuring', featured_media: media.id }),
    );
    const res = await send('DELETE', `${api}/users/${user.id}?force=true&reassign=false`, t.auth.admin);
    assert.equal(res.statusCode, 200, res.body);
    const gone = await send('GET', `${api}/media/${media.id}`, t.auth.admin);
    assert.equal(gone.statusCode, 404);
    assert.equal((await fetchStored(t, media.source_url)).status, 404);
    const post = await send('GET', `${api}/posts/${featuring.id}?context=edit`, t.auth.admin);
    assert.equal(json(post).featured_media, 0);
  });

  test('reassign=false keeps their reusable blocks and navigation menus (no author support in 6.1)', async () => {
    const user = json(
      await send('POST', `${api}/users`, t.auth.admin, {
        username: 'designer',
        email: 'designer@example.com',
        password: 'pw',
        roles: ['administrator'],
      }),
    );
    const key = json(
      await send('POST', `${api}/users/${user.id}/application-passwords`, t.auth.admin, { name: 'test' }),
    );
    const as = { authorization: basic('designer', key.password) };
    const made: string[] = [];
    for (const [route, title] of [
      ['blocks', 'Call to action'],
      ['navigation', 'Header'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${api}/${route}`,
        headers: { ...as, 'content-type': 'application/json' },
        payload: { title, status: 'publish', content: '<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->' },
      });
      assert.equal(res.statusCode, 201, res.body);
      made.push(`${api}/${route}/${json(res).id}`);
    }
    const res = await send('DELETE', `${api}/users/${user.id}?force=true&reassign=false`, t.auth.admin);
    assert.equal(res.statusCode, 200, res.body);
    for (const url of made) {
      const kept = await send('GET', `${url}?context=edit`, t.auth.admin);
      assert.equal(kept.statusCode, 200, `${url}: ${kept.body}`);
    }
  });
});
