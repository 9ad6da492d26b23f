import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, ids, type Json, json, startContent } from '../../../test/content.js';
import { png, storeEnv } from '../../../test/profiles.js';

// Arguments the routes list that change what a client gets, as WordPress 6.1 applies them (media, users,
// comments, meta); revisions' are in revisions.test.ts.

let t: ContentTest;
before(async () => {
  t = await startContent({ env: storeEnv() });
});
after(() => t.close());

const send = (method: string, url: string, authorization?: string, payload?: unknown, more = {}) =>
  t.app.inject({
    method: method as 'GET',
    url,
    payload: payload as object,
    headers: { ...(authorization ? { authorization } : {}), ...more },
  });
const idsOf = (res: { json(): Json }) => res.json().map((item: Json) => item.id) as number[];

describe('media list arguments', () => {
  let attached: number;
  let note: number;
  before(async () => {
    const upload = (name: string, type: string, body: Buffer, query = '') =>
      send('POST', `${api}/media${query}`, t.auth.admin, body, {
        'content-type': type,
        'content-disposition': `attachment; filename="${name}"`,
      });
    attached = json(await upload('attached.png', 'image/png', png, '?post=1')).id;
    note = json(await upload('note.txt', 'text/plain', Buffer.from('hello'))).id;
  });
  const media = async (query: string) => {
    const res = await send('GET', `${api}/media${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return idsOf(res);
  };

  test('dates: after, before, modified_after, modified_before', async () => {
    assert.deepEqual(await media('?after=2024-01-01T00:00:00'), [note, attached]);
    assert.deepEqual(await media('?before=2024-01-01T00:00:00'), []);
    assert.deepEqual(await media('?modified_after=2024-01-01T00:00:00'), [note, attached]);
    assert.deepEqual(await media('?modified_before=2024-01-01T00:00:00'), []);
    const bad = await send('GET', `${api}/media?after=yesterday`);
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(json(bad), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): after',
      data: {
        status: 400,
        params: { after: 'Invalid date.' },
        details: { after: { code: 'rest_invalid_date', message: 'Invalid date.', data: null } },
      },
    });
  });

  test('parent, parent_exclude, media_type, mime_type, search (file names too), include, exclude', async () => {
    assert.deepEqual(await media('?parent=1'), [attached]);
    assert.deepEqual(await media('?parent=0'), [note]);
    assert.deepEqual(await media('?parent_exclude=1'), [note]);
    assert.deepEqual(await media('?media_type=text'), [note]);
    assert.deepEqual(await media('?mime_type=image/png'), [attached]);
    // Core filters only by an allowed type; anything else is ignored (every item).
    assert.deepEqual(await media('?mime_type=image'), [note, attached]);
    assert.deepEqual(await media('?mime_type=image/nope'), [note, attached]);
    assert.deepEqual(await media('?search=.png'), [attached]);
    assert.deepEqual(await media(`?include=${note}`), [note]);
    assert.deepEqual(await media(`?exclude=${note}`), [attached]);
    assert.equal(json(await send('GET', `${api}/media?parent_exclude=abc`)).code, 'rest_invalid_param');
  });
});

describe('users by capability', () => {
  const users = (query: string, who = t.auth.admin) => send('GET', `${api}/users${query}`, who);
  const sorted = async (query: string) => idsOf(await users(query)).sort((a, b) => a - b);

  test('administrators filter by capabilities: roles that hold one, or a role of that name', async () => {
    assert.deepEqual(await sorted('?capabilities=edit_posts'), [1, 2, 3, 4]);
    assert.deepEqual(await sorted('?capabilities=level_5'), [ids.admin, ids.editor]);
    assert.deepEqual(await sorted('?capabilities=install_plugins'), [ids.admin]);
    assert.deepEqual(await sorted('?capabilities=editor'), [ids.editor]);
    assert.deepEqual(await sorted('?capabilities=install_plugins,moderate_comments'), [1, 2]);
    assert.deepEqual(await sorted('?capabilities=edit_posts&roles=subscriber'), [1, 2, 3, 4, 5]);
  });

  test('others may not (401 anonymous, 403 signed in)', async () => {
    const body = (status: number) => ({
      code: 'rest_user_cannot_view',
      message: 'Sorry, you are not allowed to filter users by capability.',
      data: { status },
    });
    const editor = await users('?capabilities=edit_posts', t.auth.editor);
    assert.equal(editor.statusCode, 403);
    assert.deepEqual(json(editor), body(403));
    const anonymous = await send('GET', `${api}/users?capabilities=edit_posts`);
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(json(anonymous), body(401));
  });

  test('names sort without regard to case, as WordPress’s collation', async () => {
    const made = await send('POST', `${api}/users`, t.auth.admin, {
      username: 'lowercase',
      email: 'lowercase@example.com',
      password: 'secret-123',
      name: 'aaron lowercase',
    });
    assert.equal(made.statusCode, 201, made.body);
    const names = json(await users('?orderby=name&per_page=100')).map((u: Json) => u.name);
    assert.equal(names[0], 'aaron lowercase');
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
  });
});

describe('comments of a password-protected post', () => {
  let post: number;
  let comment: number;
  before(async () => {
    post = json(
      await send('POST', `${api}/posts`, t.auth.admin, {
        title: 'Secret',
        status: 'publish',
        password: 'pw',
      }),
    ).id;
    comment = json(await send('POST', `${api}/comments`, t.auth.admin, { post, content: 'Behind it' })).id;
  });

  test('need the post’s password, given for that one post', async () => {
    const locked = await send('GET', `${api}/comments?post=${post}`);
    assert.equal(locked.statusCode, 401);
    assert.deepEqual(json(locked), {
      code: 'rest_cannot_read_post',
      message: 'Sorry, you are not allowed to read the post for this comment.',
      data: { status: 401 },
    });
    assert.deepEqual(idsOf(await send('GET', `${api}/comments?post=${post}&password=pw`)), [comment]);
    assert.equal((await send('GET', `${api}/comments?post=${post}&password=nope`)).statusCode, 401);
    assert.equal((await send('GET', `${api}/comments?post=${post},1&password=pw`)).statusCode, 401);
    assert.equal((await send('GET', `${api}/comments?post=${post}`, t.auth.subscriber)).statusCode, 403);
    assert.deepEqual(idsOf(await send('GET', `${api}/comments?post=${post}`, t.auth.admin)), [comment]);
    const one = await send('GET', `${api}/comments/${comment}`);
    assert.equal(one.statusCode, 401);
    assert.equal(json(one).code, 'rest_cannot_read');
    assert.equal(json(await send('GET', `${api}/comments/${comment}?password=pw`)).id, comment);
  });

  test('are left out of other lists, which still count them', async () => {
    const list = await send('GET', `${api}/comments?per_page=100`);
    assert.ok(!idsOf(list).includes(comment));
    assert.equal(Number(list.headers['x-wp-total']), idsOf(list).length + 1);
  });
});

describe('meta on writes', () => {
  test('unregistered keys are accepted and ignored; a non-object is 400 before permissions', async () => {
    const before = json(await send('GET', `${api}/pages/31?context=edit`, t.auth.admin));
    const saved = await send('POST', `${api}/pages/31`, t.auth.admin, { meta: { color: 'blue' } });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.equal(json(saved).meta.color, undefined);
    // Any update moves `modified`, as wp_update_post.
    assert.ok(json(saved).modified > before.modified);
    for (const [url, who] of [
      [`${api}/posts/1`, undefined],
      [`${api}/users/me`, t.auth.admin],
      [`${api}/categories`, t.auth.admin],
    ] as const) {
      const bad = await send('POST', url, who, { meta: 'blue' });
      assert.equal(bad.statusCode, 400, url);
      assert.deepEqual(json(bad), {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): meta',
        data: { status: 400, params: { meta: 'Invalid parameter.' }, details: [] },
      });
    }
  });

  test('a comment update records who sent it (author_ip, author_user_agent), as core', async () => {
    const res = await send(
      'POST',
      `${api}/comments/1`,
      t.auth.admin,
      { content: 'Edited' },
      {
        'user-agent': 'list-arguments-test',
      },
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      [json(res).author_ip, json(res).author_user_agent],
      ['127.0.0.1', 'list-arguments-test'],
    );
  });
});

describe('orderby include, include_slugs and relevance (posts, pages, media)', () => {
  const list = async (url: string) => {
    const res = await send('GET', url);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Json[];
  };

  test('include and include_slugs keep the order asked for, whatever `order` says', async () => {
    for (const order of ['', '&order=asc', '&order=desc'])
      assert.deepEqual(
        (await list(`${api}/posts?include=3,1,2&orderby=include${order}`)).map((p) => p.id),
        [3, 1, 2],
      );
    const [newest, , third] = await list(`${api}/posts?per_page=3`);
    const bySlug = await list(`${api}/posts?slug=${third.slug},${newest.slug}&orderby=include_slugs`);
    assert.deepEqual(
      bySlug.map((p) => p.id),
      [third.id, newest.id],
    );
    // Without slugs core falls back to the date, oldest first.
    const all = (await list(`${api}/posts?per_page=100`)).map((p) => p.id);
    assert.deepEqual(
      (await list(`${api}/posts?per_page=100&orderby=include_slugs`)).map((p) => p.id),
      [...all].reverse(),
    );
  });

  test('relevance puts title matches first; include and relevance need their argument', async () => {
    // The newest post, with the word only in its content: by date it would come first.
    const made = await send('POST', `${api}/posts`, t.auth.admin, {
      title: 'Unrelated',
      content: 'A word on caching',
      status: 'publish',
    });
    assert.equal(made.statusCode, 201);
    const found = await list(`${api}/posts?per_page=100&search=caching&orderby=relevance`);
    assert.equal(found.at(-1)?.id, json(made).id);
    const inTitle = found.map((p) => /caching/i.test(p.title.rendered));
    assert.ok(inTitle.includes(true) && inTitle.includes(false));
    assert.deepEqual(
      inTitle,
      [...inTitle].sort((a, b) => Number(b) - Number(a)),
    );
    for (const [query, code] of [
      ['?orderby=include', 'rest_orderby_include_missing_include'],
      ['?orderby=relevance', 'rest_no_search_term_defined'],
    ]) {
      const res = await send('GET', `${api}/media${query}`);
      assert.equal(res.statusCode, 400);
      assert.equal(json(res).code, code);
    }
  });
});

describe('orderby include and include_slugs (users, terms, comments)', () => {
  const order = async (url: string, who?: string) => {
    const res = await send('GET', url, who);
    assert.equal(res.statusCode, 200, res.body);
    return idsOf(res);
  };

  test('users: the include list’s order, reversed by order=desc; slugs in their order', async () => {
    assert.deepEqual(await order(`${api}/users?include=4,1,3&orderby=include`, t.auth.admin), [4, 1, 3]);
    assert.deepEqual(
      await order(`${api}/users?include=4,1,3&orderby=include&order=desc`, t.auth.admin),
      [3, 1, 4],
    );
    const bySlug = await send('GET', `${api}/users?slug=editor,admin&orderby=include_slugs`, t.auth.admin);
    assert.deepEqual(
      json(bySlug).map((u: Json) => u.slug),
      ['editor', 'admin'],
    );
  });

  test('categories: the include list’s order, reversed by order=desc', async () => {
    const all = await order(`${api}/categories?per_page=100`);
    const asked = [all[2], all[0], all[1]];
    assert.deepEqual(await order(`${api}/categories?include=${asked}&orderby=include`), asked);
    assert.deepEqual(
      await order(`${api}/categories?include=${asked}&orderby=include&order=desc`),
      [...asked].reverse(),
    );
  });

  test('comments: the include list’s order, whatever `order` says', async () => {
    for (const direction of ['', '&order=asc', '&order=desc'])
      assert.deepEqual(await order(`${api}/comments?include=1,2&orderby=include${direction}`), [1, 2]);
    assert.deepEqual(await order(`${api}/comments?include=1,2`), [2, 1]);
  });

  test('comments: type filters (only plain comments are stored)', async () => {
    assert.deepEqual(await order(`${api}/comments?type=pingback`, t.auth.admin), []);
    assert.deepEqual(await order(`${api}/comments?type=comment&include=1,2`, t.auth.admin), [2, 1]);
  });
});
