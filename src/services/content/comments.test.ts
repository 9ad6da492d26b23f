import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, ids, type Json, json, startContent } from '../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const get = (url: string, authorization?: string) =>
  t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
const send = (
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  authorization: string | undefined,
  payload?: object,
) => t.app.inject({ method, url, payload, headers: authorization ? { authorization } : {} });
const idsOf = (res: { json(): Json }) => res.json().map((c: Json) => c.id);

describe('comments', () => {
  test('the public sees approved comments, nested by parent, with core’s fields', async () => {
    const res = await get(`${api}/comments?post=1`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(idsOf(res), [2, 1]);
    assert.equal(res.headers['x-wp-total'], '2');
    const [reply, first] = json(res);
    assert.deepEqual(
      [reply.parent, reply.author, reply.status, reply.type],
      [1, ids.admin, 'approved', 'comment'],
    );
    assert.equal(first.content.rendered, '<p>Hi, this is a comment.</p>\n');
    assert.equal(first.link, 'http://localhost:80/getting-started-with-rest-clients-part-1/#comment-1');
    assert.equal('author_email' in first, false);
    assert.equal(reply._links['in-reply-to'][0].href, 'http://localhost:80/wp-json/wp/v2/comments/1');
    assert.equal(first._links.children[0].href, 'http://localhost:80/wp-json/wp/v2/comments?parent=1');
    assert.deepEqual(idsOf(await get(`${api}/comments?parent=1`)), [2]);
    assert.equal((await get(`${api}/comments/3`)).statusCode, 401);
    assert.equal(json(await get(`${api}/comments/99`)).code, 'rest_comment_invalid_id');
  });

  test('a page past the end is 200 [] with the totals, as core (issue 37)', async () => {
    const past = await get(`${api}/comments?per_page=1&page=99`);
    assert.equal(past.statusCode, 200);
    assert.deepEqual(json(past), []);
    assert.equal(past.headers['x-wp-totalpages'], past.headers['x-wp-total']);
  });

  test('a second comment within 15 s is a flood, unless the caller moderates (issue 37)', async () => {
    const first = await send('POST', `${api}/comments`, t.auth.author, { post: 1, content: 'Quick one' });
    assert.equal(first.statusCode, 201);
    const flood = await send('POST', `${api}/comments`, t.auth.author, { post: 2, content: 'Quick two' });
    assert.equal(flood.statusCode, 400);
    assert.deepEqual(json(flood), {
      code: 'comment_flood',
      message: 'You are posting comments too quickly. Slow down.',
      data: { status: 400 },
    });
    // A duplicate is still told first; moderators are never throttled.
    const again = await send('POST', `${api}/comments`, t.auth.author, { post: 1, content: 'Quick one' });
    assert.equal(json(again).code, 'comment_duplicate');
    for (const content of ['Editor one', 'Editor two'])
      assert.equal(
        (await send('POST', `${api}/comments`, t.auth.editor, { post: 1, content })).statusCode,
        201,
      );
    // 15 seconds later (the last comment moved back in time) the author may comment again.
    await t.db.query(`UPDATE content.comments SET date = date - interval '15 seconds' WHERE author = $1`, [
      ids.author,
    ]);
    const later = await send('POST', `${api}/comments`, t.auth.author, { post: 2, content: 'Quick two' });
    assert.equal(later.statusCode, 201);
    await t.db.query(`DELETE FROM content.comments WHERE content LIKE 'Quick %' OR content LIKE 'Editor %'`);
  });

  test('other statuses need edit_posts to ask and moderate_comments to see', async () => {
    const anonymous = await get(`${api}/comments?status=hold`);
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(json(anonymous), {
      code: 'rest_forbidden_param',
      message: 'Query parameter not permitted: status',
      data: { status: 401 },
    });
    assert.deepEqual(idsOf(await get(`${api}/comments?status=hold`, t.auth.editor)), [3]);
    assert.deepEqual(idsOf(await get(`${api}/comments?status=spam`, t.auth.admin)), [4]);
    assert.equal(
      json(await get(`${api}/comments/3?context=edit`, t.auth.editor)).author_email,
      'sam.subscriber@example.com',
    );
    assert.equal((await get(`${api}/comments?context=edit`, t.auth.author)).statusCode, 403);
  });

  test('a post’s author edits its comments but reads them in edit context only as a moderator, as core; Allow says the same', async () => {
    const post = json(
      await send('POST', `${api}/posts`, t.auth.author, { title: 'Open to comments', status: 'publish' }),
    );
    const made = await send('POST', `${api}/comments`, t.auth.editor, {
      post: post.id,
      content: 'From an editor',
    });
    assert.equal(made.statusCode, 201);
    const url = `${api}/comments/${json(made).id}`;
    const edit = await get(`${url}?context=edit`, t.auth.author);
    assert.equal(edit.statusCode, 403);
    assert.deepEqual(json(edit), {
      code: 'rest_forbidden_context',
      message: 'Sorry, you are not allowed to edit comments.',
      data: { status: 403 },
    });
    assert.equal(edit.headers.allow, 'POST, PUT, PATCH, DELETE');
    const view = await get(url, t.auth.author);
    assert.equal(view.statusCode, 200);
    assert.equal(view.headers.allow, 'GET, POST, PUT, PATCH, DELETE');
    // After a write the context is edit, so GET leaves Allow: the same check the read route runs.
    const edited = await send('POST', url, t.auth.author, { content: 'Edited by the post’s author' });
    assert.equal(edited.statusCode, 200);
    assert.equal(json(edited).content.raw, 'Edited by the post’s author');
    assert.equal(edited.headers.allow, 'POST, PUT, PATCH, DELETE');
    assert.equal((await send('DELETE', `${api}/posts/${post.id}?force=true`, t.auth.admin)).statusCode, 200);
  });

  test('posting needs a login; new commenters wait for moderation, moderators do not', async () => {
    const anonymous = await send('POST', `${api}/comments`, undefined, {
      post: 1,
      content: 'Hello',
      author_name: 'Guest',
      author_email: 'g@example.com',
    });
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(json(anonymous), {
      code: 'rest_comment_login_required',
      message: 'Sorry, you must be logged in to comment.',
      data: { status: 401 },
    });
    const held = await send('POST', `${api}/comments`, t.auth.subscriber, {
      post: 1,
      parent: 1,
      content: 'Nice post',
    });
    assert.equal(held.statusCode, 201);
    const comment = json(held);
    assert.deepEqual(
      [comment.status, comment.author, comment.author_name, comment.parent],
      ['hold', ids.subscriber, 'Sam Subscriber', 1],
    );
    assert.equal(held.headers.location, `http://localhost:80/wp-json/wp/v2/comments/${comment.id}`);
    // Hidden from the public, visible to its author.
    assert.equal((await get(`${api}/comments/${comment.id}`)).statusCode, 401);
    assert.equal((await get(`${api}/comments/${comment.id}`, t.auth.subscriber)).statusCode, 200);
    const duplicate = await send('POST', `${api}/comments`, t.auth.subscriber, {
      post: 1,
      parent: 1,
      content: 'Nice post',
    });
    assert.equal(duplicate.statusCode, 409);
    const approved = json(
      await send('POST', `${api}/comments`, t.auth.editor, { post: 2, content: 'From the editor' }),
    );
    assert.equal(approved.status, 'approved');
    for (const [payload, status, code] of [
      [{ post: 1, content: 'x', status: 'approved' }, 403, 'rest_comment_invalid_status'],
      [{ post: 7, content: 'x' }, 403, 'rest_comment_draft_post'],
      [{ post: 999, content: 'x' }, 403, 'rest_comment_invalid_post_id'],
      [{ post: 1, content: '' }, 400, 'rest_comment_content_invalid'],
      [{ post: 1, content: 'x', parent: 4 }, 400, 'rest_comment_invalid_parent'],
    ] as const) {
      const res = await send('POST', `${api}/comments`, t.auth.subscriber, payload);
      assert.equal(res.statusCode, status, code);
      assert.equal(json(res).code, code);
    }
  });

  test('moderation: editors approve, trash and delete; others may not', async () => {
    const held = json(
      await send('POST', `${api}/comments`, t.auth.contributor, { post: 2, content: 'Please approve' }),
    );
    const refused = await send('POST', `${api}/comments/${held.id}`, t.auth.author, { status: 'approve' });
    assert.equal(refused.statusCode, 403);
    assert.equal(json(refused).code, 'rest_cannot_edit');
    const approved = json(
      await send('POST', `${api}/comments/${held.id}`, t.auth.editor, { status: 'approve' }),
    );
    assert.equal(approved.status, 'approved');
    assert.ok(idsOf(await get(`${api}/comments?post=2`)).includes(held.id));
    const trashed = json(await send('DELETE', `${api}/comments/${held.id}`, t.auth.editor));
    assert.equal(trashed.status, 'trash');
    const again = await send('DELETE', `${api}/comments/${held.id}`, t.auth.editor);
    assert.equal(again.statusCode, 410);
    const deleted = json(await send('DELETE', `${api}/comments/${held.id}?force=true`, t.auth.editor));
    assert.equal(deleted.deleted, true);
    assert.equal((await get(`${api}/comments/${held.id}`, t.auth.admin)).statusCode, 404);
  });

  test('posts link their replies and embed them', async () => {
    const post = json(await get(`${api}/posts/1?_embed`));
    assert.equal(post._links.replies[0].href, 'http://localhost:80/wp-json/wp/v2/comments?post=1');
    const replies = post._embedded.replies[0];
    assert.ok(replies.some((c: Json) => c.id === 1));
    assert.ok(replies.every((c: Json) => c.status === undefined));
  });

  test('comments on pages point `up` at the page', async () => {
    const comment = json(
      await send('POST', `${api}/comments`, t.auth.admin, { post: '31', content: 'On a page' }),
    );
    assert.equal(comment.post, 31);
    assert.deepEqual(comment._links.up[0], {
      embeddable: true,
      post_type: 'page',
      href: 'http://localhost:80/wp-json/wp/v2/pages/31',
    });
  });
});
