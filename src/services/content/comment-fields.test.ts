import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../test/content.js';

// Comment fields and Allow headers as WordPress 6.1 answers them (measured by the differential test).

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const request = (method: 'GET' | 'POST', url: string, authorization?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: authorization ? { authorization } : {} });
const gravatar = (email: string, size: number) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(email).digest('hex')}?s=${size}&d=mm&r=g`;

describe('comment fields', () => {
  test('a registered author’s avatar is their account’s; a guest’s is the e-mail they gave', async () => {
    const [reply, first] = json(await request('GET', `${api}/comments?post=1`));
    // Comment 2 was left by admin under the address ada.admin@example.com; core's avatar follows the account.
    assert.equal(reply.author, 1);
    assert.deepEqual(reply.author_avatar_urls, {
      '24': gravatar('admin@example.com', 24),
      '48': gravatar('admin@example.com', 48),
      '96': gravatar('admin@example.com', 96),
    });
    assert.equal(first.author, 0);
    assert.equal(first.author_avatar_urls['96'], gravatar('a.wordpress.commenter@example.com', 96));
    const held = json(await request('GET', `${api}/comments/3?context=edit`, t.auth.admin));
    assert.equal(held.author_email, 'sam.subscriber@example.com');
    assert.equal(held.author_avatar_urls['96'], gravatar('subscriber@example.com', 96));
  });

  test('a subscriber’s new comment comes back in view context; a moderator’s in edit context', async () => {
    const mine = await request('POST', `${api}/comments`, t.auth.subscriber, { post: 2, content: 'Hello' });
    assert.equal(mine.statusCode, 201);
    const body = json(mine);
    assert.deepEqual(body.content, { rendered: '<p>Hello</p>\n' });
    for (const key of ['author_email', 'author_ip', 'author_user_agent']) assert.equal(key in body, false);
    assert.equal(body.status, 'hold');
    const stored = json(await request('GET', `${api}/comments/${body.id}?context=edit`, t.auth.admin));
    assert.equal(stored.author_email, 'subscriber@example.com');
    assert.equal(stored.content.raw, 'Hello');
    const moderated = json(
      await request('POST', `${api}/comments`, t.auth.admin, { post: 2, content: 'Hi' }),
    );
    assert.equal(moderated.content.raw, 'Hi');
    assert.equal(moderated.author_email, 'admin@example.com');
  });
});

describe('Allow on comments and users', () => {
  const allow = async (method: 'GET' | 'POST', url: string, who?: string, payload?: object) =>
    (await request(method, url, who, payload)).headers.allow;

  test('POST is allowed on a list only with a post to comment on, and never with a status filter', async () => {
    assert.equal(await allow('GET', `${api}/comments?status=hold`, t.auth.admin), 'GET');
    assert.equal(await allow('GET', `${api}/comments?status=all`, t.auth.admin), 'GET');
    assert.equal(await allow('GET', `${api}/comments?type=pingback`, t.auth.admin), 'GET');
    assert.equal(await allow('GET', `${api}/comments?post=1`, t.auth.admin), 'GET, POST');
    assert.equal(await allow('GET', `${api}/comments?post=1`), 'GET');
    // An author may not moderate: the default status=approve of a list refuses POST.
    assert.equal(await allow('GET', `${api}/comments?status=hold`, t.auth.author), 'GET');
    assert.equal(await allow('GET', `${api}/comments?post=1`, t.auth.author), 'GET');
  });

  test('a refused write still names what the caller may do', async () => {
    const empty = await request('POST', `${api}/comments`, t.auth.subscriber, { post: 1, content: '' });
    assert.equal(empty.statusCode, 400);
    assert.equal(json(empty).code, 'rest_comment_content_invalid');
    // Without status=approve in the request, a subscriber may not list comments: only POST remains.
    assert.equal(empty.headers.allow, 'POST');
    const notMine = await request('POST', `${api}/comments/1`, t.auth.subscriber, { content: 'Not mine' });
    assert.equal(notMine.statusCode, 403);
    assert.equal(notMine.headers.allow, 'GET');
    const missing = await request('POST', `${api}/comments/999`, t.auth.admin, { content: 'x' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers.allow, undefined);
  });

  test('filtering users by capability needs list_users, so nobody else is allowed the GET', async () => {
    assert.equal(await allow('GET', `${api}/users?capabilities=edit_posts`), undefined);
    assert.equal(await allow('GET', `${api}/users?capabilities=edit_posts`, t.auth.editor), undefined);
    assert.equal(await allow('GET', `${api}/users?capabilities=edit_posts`, t.auth.admin), 'GET, POST');
  });
});
