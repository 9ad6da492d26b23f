import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, ids, json, startContent } from '../../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const send = (method: 'GET' | 'POST' | 'OPTIONS', url: string, auth?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });

describe('autosaves of posts and pages (WordPress 6.1)', () => {
  test('an autosave of a published post is a revision named <id>-autosave-v1, one per author, overwritten', async () => {
    const first = await send('POST', `${api}/posts/1/autosaves`, t.auth.admin, {
      title: 'Auto title',
      content: 'Auto <b>content</b>',
      excerpt: 'ex',
    });
    assert.equal(first.statusCode, 200);
    const saved = json(first);
    assert.equal(saved.parent, 1);
    assert.equal(saved.author, ids.admin);
    assert.equal(saved.slug, '1-autosave-v1');
    assert.deepEqual(saved.title, { raw: 'Auto title', rendered: 'Auto title' });
    assert.deepEqual(saved.content, { raw: 'Auto <b>content</b>', rendered: '<p>Auto <b>content</b></p>\n' });
    assert.deepEqual(saved.excerpt, { raw: 'ex', rendered: '<p>ex</p>\n' });
    assert.match(saved.preview_link, /\/\?preview_id=1&preview_nonce=[0-9a-f]{10}&preview=true$/);
    assert.deepEqual(Object.keys(saved._links), ['parent']);
    // The post itself is unchanged; its revision links count the autosave, as core's do.
    const post = json(await send('GET', `${api}/posts/1?context=edit`, t.auth.admin));
    assert.notEqual(post.title.raw, 'Auto title');
    assert.deepEqual(post._links['predecessor-version'][0].id, saved.id);

    // The same author's next autosave overwrites the first: only what was sent changes.
    const second = json(
      await send('POST', `${api}/posts/1/autosaves`, t.auth.admin, { title: 'Auto title 2' }),
    );
    assert.equal(second.id, saved.id);
    assert.equal(second.title.raw, 'Auto title 2');
    assert.equal(second.content.raw, 'Auto <b>content</b>');
    // Another editor gets their own.
    const editors = json(await send('POST', `${api}/posts/1/autosaves`, t.auth.editor, { title: 'Editor' }));
    assert.notEqual(editors.id, saved.id);
    assert.equal(editors.author, ids.editor);
    const list = await send('GET', `${api}/posts/1/autosaves`, t.auth.admin);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      json(list)
        .map((a: { id: number }) => a.id)
        .sort(),
      [saved.id, editors.id].sort(),
    );
    assert.equal(json(list)[0].title.raw, undefined);
    const revisions = json(await send('GET', `${api}/posts/1/revisions`, t.auth.admin));
    assert.ok(revisions.some((r: { id: number }) => r.id === saved.id));

    // Sending what the post already has drops the caller's autosave.
    const same = await send('POST', `${api}/posts/1/autosaves`, t.auth.admin, { title: post.title.raw });
    assert.equal(same.statusCode, 400);
    assert.deepEqual(json(same), {
      code: 'rest_autosave_no_changes',
      message: 'There is nothing to save. The autosave and the post content are the same.',
      data: { status: 400 },
    });
    const left = json(await send('GET', `${api}/posts/1/autosaves`, t.auth.admin));
    assert.deepEqual(
      left.map((a: { id: number }) => a.id),
      [editors.id],
    );
    // The single route answers the newest autosave of the post, whatever id it is given (as 6.1 does).
    const one = await send('GET', `${api}/posts/1/autosaves/12345`, t.auth.admin);
    assert.equal(one.statusCode, 200);
    assert.equal(json(one).id, editors.id);
    // Stored: survives a restart of the service.
    const restarted = await startContent({ db: t.db, dataDir: t.dataDir });
    try {
      const stored = await restarted.app.inject({
        url: `${api}/posts/1/autosaves`,
        headers: { authorization: t.auth.admin },
      });
      assert.deepEqual(
        json(stored).map((a: { id: number }) => a.id),
        [editors.id],
      );
    } finally {
      await restarted.close();
    }
  });

  test('the author autosaving their own draft updates the draft itself, without a revision', async () => {
    const draft = json(await send('POST', `${api}/posts`, t.auth.author, { title: 'Draft', content: 'x' }));
    const saved = await send('POST', `${api}/posts/${draft.id}/autosaves`, t.auth.author, {
      title: 'Draft, autosaved',
      content: 'y',
      excerpt: '',
    });
    assert.equal(saved.statusCode, 200);
    const body = json(saved);
    assert.equal(body.id, draft.id);
    assert.equal(body.parent, 0);
    assert.equal(body.slug, '');
    assert.equal(body.date, draft.date);
    assert.equal(body.preview_link, `${body.guid.raw.split('/?')[0]}/?p=${draft.id}&preview=true`);
    assert.equal(body._links, undefined);
    const post = json(await send('GET', `${api}/posts/${draft.id}?context=edit`, t.auth.author));
    assert.equal(post.title.raw, 'Draft, autosaved');
    assert.equal(post.content.raw, 'y');
    assert.equal(post._links['version-history'][0].count, 0);
    assert.deepEqual(json(await send('GET', `${api}/posts/${draft.id}/autosaves`, t.auth.author)), []);
    const none = await send('GET', `${api}/posts/${draft.id}/autosaves/1`, t.auth.author);
    assert.equal(none.statusCode, 404);
    assert.equal(json(none).code, 'rest_post_no_autosave');
    // An administrator's autosave of the same draft is a revision, previewed through the draft's plain link.
    const admins = json(
      await send('POST', `${api}/posts/${draft.id}/autosaves`, t.auth.admin, { title: 'A' }),
    );
    assert.equal(admins.slug, `${draft.id}-autosave-v1`);
    assert.match(admins.preview_link, new RegExp(`/\\?p=${draft.id}&preview_id=${draft.id}&preview_nonce=`));
  });

  test('permissions and errors are WordPress’s', async () => {
    const cases: [string, string, string | undefined, object | undefined, number, string][] = [
      ['GET', `${api}/posts/1/autosaves`, undefined, undefined, 401, 'rest_cannot_read'],
      ['GET', `${api}/posts/1/autosaves`, t.auth.contributor, undefined, 403, 'rest_cannot_read'],
      ['GET', `${api}/posts/1/autosaves/3`, undefined, undefined, 401, 'rest_cannot_read'],
      ['GET', `${api}/pages/1/autosaves`, t.auth.admin, undefined, 404, 'rest_post_invalid_parent'],
      ['GET', `${api}/posts/999/autosaves/3`, t.auth.admin, undefined, 404, 'rest_post_invalid_parent'],
      ['POST', `${api}/posts/9999/autosaves`, t.auth.admin, { title: 'x' }, 404, 'rest_post_invalid_id'],
      ['POST', `${api}/posts/1/autosaves`, t.auth.contributor, { title: 'x' }, 403, 'rest_cannot_edit'],
      ['POST', `${api}/posts/1/autosaves`, undefined, { title: 'x' }, 401, 'rest_cannot_edit'],
      ['POST', `${api}/posts/1/autosaves`, t.auth.author, { title: 'x', author: 1 }, 403, 'rest_cannot_edit'],
    ];
    for (const [method, url, auth, payload, status, code] of cases) {
      const answer = await send(method as 'GET', url, auth, payload);
      assert.equal(answer.statusCode, status, `${method} ${url}`);
      assert.equal(json(answer).code, code, `${method} ${url}`);
    }
    const pageSaved = await send('POST', `${api}/pages/31/autosaves`, t.auth.editor, {
      content: 'Page draft',
    });
    assert.equal(pageSaved.statusCode, 200);
    assert.equal(json(pageSaved).slug, '31-autosave-v1');
    assert.equal(json(pageSaved).title.raw, '');
    const options = await send('OPTIONS', `${api}/posts/1/autosaves`, t.auth.admin);
    assert.equal(options.statusCode, 200);
    assert.deepEqual(json(options).methods, ['GET', 'POST']);
  });
});
