import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  api,
  basic,
  type ContentTest,
  ids,
  type Json,
  json,
  published,
  startContent,
} from '../../../test/content.js';
import { runCommand } from '../../platform/commands.js';
import { tokenHash } from '../../platform/secrets.js';
import { UsageError } from '../../platform/service.js';
import { content } from './index.js';

let t: ContentTest;
const logLines: string[] = [];
before(async () => {
  t = await startContent({ logLines });
});
after(() => t.close());

const get = (url: string, authorization?: string) =>
  t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
const del = (url: string, authorization?: string, payload?: object) =>
  t.app.inject({ method: 'DELETE', url, payload, headers: authorization ? { authorization } : {} });
const postCount = async (author: number) =>
  (
    await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM content.posts WHERE author = $1', [
      author,
    ])
  ).rows[0]?.n;

describe('authentication', () => {
  test('the first start prints an application password for admin, stored only as a hash', async () => {
    assert.match(t.adminPassword, /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const stored = await t.db.query<{ secret_hash: string }>(
      `SELECT secret_hash FROM content.credentials WHERE user_id = 1 AND kind = 'app_password'`,
    );
    assert.deepEqual(
      stored.rows.map((r) => r.secret_hash),
      [tokenHash(t.adminPassword.replaceAll(' ', ''))],
    );
    const me = await get(`${api}/users/me`, t.auth.admin);
    assert.equal(me.statusCode, 200);
    assert.equal(json(me).slug, 'admin');
  });

  test('spaces in application passwords are ignored and the e-mail works as the user name', async () => {
    const squashed = t.adminPassword.replaceAll(' ', '');
    assert.equal((await get(`${api}/users/me`, basic('admin', squashed))).statusCode, 200);
    assert.equal((await get(`${api}/users/me`, basic('admin@example.com', t.adminPassword))).statusCode, 200);
  });

  test('a wrong application password is answered as an anonymous request, as WordPress 6.1 does', async () => {
    for (const header of [
      basic('admin', 'aaaa bbbb cccc dddd eeee ffff'),
      basic('nobody', t.adminPassword),
      basic('editor', t.adminPassword),
      'Basic !!!',
    ]) {
      const posts = await get(`${api}/posts?per_page=1`, header);
      assert.equal(posts.statusCode, 200, header);
      assert.equal(posts.headers['x-wp-total'], String(published)); // published posts only: the public's view
      assert.equal(posts.headers['cache-control'], undefined);
    }
    // Every wrong try still counts toward the login limit (test/security/brute-force.test.ts).
    const wrong = basic('admin', 'aaaa bbbb cccc dddd eeee ffff');
    const me = await get(`${api}/users/me`, wrong);
    assert.equal(me.statusCode, 401);
    assert.equal(json(me).code, 'rest_not_logged_in');
    const { rows } = await t.db.query<{ failures: number }>(
      'SELECT failures FROM content.login_failures ORDER BY failures DESC LIMIT 1',
    );
    assert.ok((rows[0]?.failures ?? 0) >= 5);
  });

  test('bearer tokens from `backlot content token create` authenticate; unknown ones are refused', async () => {
    const token = await runCommand(content, ['token', 'create', '--user', 'editor'], t.ctx);
    assert.match(String(token), /^[0-9a-f]{64}$/);
    const me = await get(`${api}/users/me?context=edit`, `Bearer ${token}`);
    assert.equal(me.statusCode, 200);
    assert.equal(json(me).username, 'editor');
    assert.deepEqual(json(me).roles, ['editor']);
    const stored = await t.db.query(
      `SELECT 1 FROM content.credentials WHERE secret_hash = $1 AND kind = 'bearer'`,
      [tokenHash(String(token))],
    );
    assert.equal(stored.rows.length, 1);
    const bad = await get(`${api}/users/me`, 'Bearer nope');
    assert.equal(bad.statusCode, 401);
    assert.equal(json(bad).code, 'incorrect_password');
  });

  test('the app-password command checks its arguments', async () => {
    const run = (...args: string[]) => runCommand(content, ['app-password', ...args], t.ctx);
    await assert.rejects(
      run('create'),
      new UsageError(
        'content app-password create: --user is required; usage: backlot content app-password create --user <user> [--name <name>]',
      ),
    );
    await assert.rejects(run('create', '--user', 'ghost'), /no user "ghost"/);
    await assert.rejects(run('create', '--user', 'author', '--role', 'admin'), /unknown option --role/);
    await assert.rejects(run('list'), /unknown command "app-password list" for content/);
    const password = await run('create', '--user=author', '--name', 'laptop');
    assert.equal((await get(`${api}/users/me`, basic('author', String(password)))).statusCode, 200);
  });

  test('secrets never reach the log', () => {
    const log = logLines.join('\n');
    assert.ok(logLines.length > 0);
    assert.ok(!log.includes(t.adminPassword));
    assert.ok(!log.includes(t.auth.admin.slice(6)));
  });

  test('/users/me without a login is 401 rest_not_logged_in', async () => {
    const res = await get(`${api}/users/me`);
    assert.equal(res.statusCode, 401);
    assert.deepEqual(json(res), {
      code: 'rest_not_logged_in',
      message: 'You are not currently logged in.',
      data: { status: 401 },
    });
  });
});

describe('reading users', () => {
  test('anonymous callers see public fields of users who have published posts', async () => {
    const res = await get(`${api}/users`);
    assert.equal(res.statusCode, 200);
    const users = json(res);
    assert.deepEqual(
      users.map((u: Json) => u.slug),
      ['admin', 'author', 'editor'],
    );
    assert.deepEqual(Object.keys(users[0]), [
      'id',
      'name',
      'url',
      'description',
      'link',
      'slug',
      'avatar_urls',
      'meta',
      '_links',
    ]);
    assert.equal(users[0].name, 'Ada Admin');
    assert.equal(res.headers['x-wp-total'], '3');
  });

  test('administrators list everyone with private fields in edit context', async () => {
    const res = await get(`${api}/users?context=edit&orderby=id`, t.auth.admin);
    const users = json(res);
    assert.deepEqual(
      users.map((u: Json) => u.username),
      ['admin', 'editor', 'author', 'contributor', 'subscriber'],
    );
    assert.deepEqual(users[3].roles, ['contributor']);
    assert.equal(users[3].email, 'contributor@example.com');
    assert.equal(users[3].capabilities.edit_posts, true);
    assert.equal(users[3].capabilities.publish_posts, undefined);
    const refused = await get(`${api}/users?context=edit`, t.auth.editor);
    assert.equal(refused.statusCode, 403);
    assert.equal(json(refused).code, 'rest_forbidden_context');
  });

  test('a single user: public when they published, otherwise only for themselves and administrators', async () => {
    assert.equal(json(await get(`${api}/users/2`)).name, 'Eddie Editor');
    const hidden = await get(`${api}/users/5`);
    assert.equal(hidden.statusCode, 401);
    assert.deepEqual(json(hidden), {
      code: 'rest_user_cannot_view',
      message: 'Sorry, you are not allowed to list users.',
      data: { status: 401 },
    });
    assert.equal((await get(`${api}/users/5`, t.auth.subscriber)).statusCode, 200);
    assert.equal((await get(`${api}/users/5`, t.auth.author)).statusCode, 403);
    const missing = await get(`${api}/users/99`);
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(json(missing), {
      code: 'rest_user_invalid_id',
      message: 'Invalid user ID.',
      data: { status: 404 },
    });
  });
});

describe('/me/settings/', () => {
  test('GET answers the caller’s settings; without a login 403 authorization_required', async () => {
    for (const path of ['/me/settings/', '/rest/v1.1/me/settings/']) {
      const res = await get(path, t.auth.editor);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(json(res), {
        user_login: 'editor',
        display_name: 'Eddie Editor',
        first_name: 'Eddie',
        last_name: 'Editor',
        description: "The site's editor.",
        user_email: 'editor@example.com',
        user_URL: '',
        language: 'en',
        avatar_URL: json(res).avatar_URL,
      });
      assert.match(json(res).avatar_URL, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=96/);
      const anonymous = await get(path);
      assert.equal(anonymous.statusCode, 403);
      assert.deepEqual(json(anonymous), {
        error: 'authorization_required',
        message: 'An active access token must be used to query information about the current user.',
      });
    }
  });

  test('POST saves a partial update and answers the saved keys', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/me/settings/',
      headers: { authorization: t.auth.author },
      payload: { display_name: 'Aurora A.', user_URL: 'https://aurora.example', language: 'de' },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res), {
      display_name: 'Aurora A.',
      user_URL: 'https://aurora.example',
      language: 'de',
    });
    const after = json(await get('/rest/v1.1/me/settings', t.auth.author));
    assert.equal(after.display_name, 'Aurora A.');
    assert.equal(after.first_name, 'Aurora');
    assert.equal(json(await get(`${api}/users/3`)).name, 'Aurora A.');
    assert.equal(json(await get(`${api}/users/me?context=edit`, t.auth.author)).locale, 'de_DE');
  });

  test('bad values, read-only and unknown keys are 400 invalid_input', async () => {
    for (const [payload, message] of [
      [{ user_email: 'not-an-email' }, 'Please enter a valid email address.'],
      [{ user_email: 'admin@example.com' }, 'That email address is already in use.'],
      [{ user_URL: 'javascript:alert(1)' }, 'Please enter a valid URL.'],
      [{ language: 'xx' }, 'Unknown language: xx'],
      [{ user_login: 'root' }, 'user_login cannot be changed'],
      [{ favourite_colour: 'blue' }, 'Unknown setting: favourite_colour'],
      [{ display_name: 5 }, 'display_name: must be string'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/me/settings/',
        headers: { authorization: t.auth.subscriber },
        payload,
      });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.deepEqual(json(res), { error: 'invalid_input', message });
    }
    const unchanged = json(await get('/me/settings', t.auth.subscriber));
    assert.equal(unchanged.user_email, 'subscriber@example.com');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/me/settings/',
      payload: { display_name: 'x' },
    });
    assert.equal(anonymous.statusCode, 403);
    assert.equal(json(anonymous).error, 'authorization_required');
  });
});

describe('deleting users', () => {
  test('only administrators delete users: 401 anonymous, 403 for an editor', async () => {
    const anonymous = await del(`${api}/users/5`);
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(json(anonymous), {
      code: 'rest_user_cannot_delete',
      message: 'Sorry, you are not allowed to delete this user.',
      data: { status: 401 },
    });
    assert.equal((await del(`${api}/users/5?force=true&reassign=1`, t.auth.editor)).statusCode, 403);
    assert.equal((await del(`${api}/users/99`, t.auth.admin)).statusCode, 404);
  });

  test('reassign to an unknown user or to the deleted user is 400 rest_user_invalid_reassign', async () => {
    for (const reassign of [ids.contributor, 99]) {
      const res = await del(`${api}/users/${ids.contributor}?force=true&reassign=${reassign}`, t.auth.admin);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(json(res), {
        code: 'rest_user_invalid_reassign',
        message: 'Invalid user ID for reassignment.',
        data: { status: 400 },
      });
    }
    assert.equal(await postCount(ids.contributor), 7);
  });

  test('without force the user is trashed: hidden, unable to log in, restorable by an administrator', async () => {
    const res = await del(`${api}/users/${ids.subscriber}`, t.auth.admin);
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).deleted, false);
    assert.equal(json(res).trashed, true);
    assert.equal(json(res).previous.username, 'subscriber');
    assert.equal((await get(`${api}/users/me`, t.auth.subscriber)).statusCode, 401);
    const listed = json(await get(`${api}/users?per_page=100`, t.auth.admin));
    assert.ok(!listed.some((u: Json) => u.id === ids.subscriber));
    assert.equal((await get(`${api}/users/${ids.subscriber}`, t.auth.editor)).statusCode, 404);
    const again = await del(`${api}/users/${ids.subscriber}`, t.auth.admin);
    assert.equal(again.statusCode, 410);
    assert.equal(json(again).code, 'rest_already_trashed');
    const restored = await t.app.inject({
      method: 'POST',
      url: `${api}/users/${ids.subscriber}/restore`,
      headers: { authorization: t.auth.admin },
    });
    assert.equal(restored.statusCode, 200);
    assert.equal(json(restored).username, 'subscriber');
    assert.equal((await get(`${api}/users/me`, t.auth.subscriber)).statusCode, 200);
  });

  test('force with reassign moves the posts to that user, then deletes the user for good', async () => {
    const before = await postCount(ids.editor);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `${api}/users/${ids.contributor}`,
      headers: { authorization: t.auth.admin },
      payload: { force: true, reassign: ids.editor },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).deleted, true);
    assert.equal(json(res).previous.id, ids.contributor);
    assert.equal(await postCount(ids.contributor), 0);
    assert.equal(await postCount(ids.editor), (before ?? 0) + 7);
    const gone = await t.db.query('SELECT 1 FROM content.users WHERE id = $1', [ids.contributor]);
    assert.equal(gone.rows.length, 0);
    assert.equal((await get(`${api}/users/${ids.contributor}`, t.auth.admin)).statusCode, 404);
  });

  test('force with reassign=false trashes the user’s posts, as wp_delete_user (issue 37)', async () => {
    assert.equal(await postCount(ids.author), 7);
    const res = await del(`${api}/users/${ids.author}?force=1&reassign=false`, t.auth.admin);
    assert.equal(res.statusCode, 200);
    assert.equal(await postCount(ids.author), 7);
    assert.equal((await get(`${api}/posts/3`)).statusCode, 401);
    const trashed = json(await get(`${api}/posts/3`, t.auth.admin));
    assert.equal(trashed.status, 'trash');
    assert.equal(trashed.author, ids.author);
    assert.match(trashed.slug, /^[a-z0-9-]+__trashed$/);
  });
});
