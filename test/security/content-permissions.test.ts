import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, type Login, startContent } from '../content.js';

// Issue 35, items 2–5: what WordPress 6.1 refuses or hides, measured against a real install.

let t: ContentTest;
/** A published, password-protected post (by the administrator). */
let secret: number;
before(async () => {
  t = await startContent();
  const res = await get('/posts', 'admin', 'POST', {
    title: 'Locked note',
    content: 'The vault code is xyzzy',
    status: 'publish',
    password: 'pw',
  });
  assert.equal(res.statusCode, 201);
  secret = json(res).id;
});
after(() => t.close());

function get(path: string, as?: Login, method: 'GET' | 'POST' = 'GET', payload?: object) {
  const headers = as ? { authorization: t.auth[as] } : {};
  return t.app.inject({ method, url: api + path, headers, payload });
}

const error = (status: number, code: string, message: string) => ({ code, message, data: { status } });

describe('issue 35', () => {
  test('2: an edit-context list holds only what the caller may edit, as each item’s own route', async () => {
    const leak = await get('/posts?context=edit&_fields=id,password,content.raw', 'contributor');
    assert.equal(leak.statusCode, 200);
    assert.deepEqual(json(leak), []);
    // As core, the totals still count what the query found.
    const view = await get('/posts', 'contributor');
    assert.equal(leak.headers['x-wp-total'], view.headers['x-wp-total']);
    // An author edits their own published posts only (3, 15, 23, 27); an editor every one, passwords included.
    const author = await get('/posts?context=edit&_fields=id,author', 'author');
    assert.deepEqual(
      json(author).map((p: { id: number }) => p.id),
      [27, 23, 15, 3],
    );
    const editor = await get(`/posts?context=edit&include=${secret}&_fields=id,password`, 'editor');
    assert.deepEqual(json(editor), [{ id: secret, password: 'pw' }]);
    // The single route refuses what the list leaves out.
    assert.deepEqual(
      json(await get(`/posts/${secret}?context=edit`, 'contributor')),
      error(403, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.'),
    );
    // Pages, comments and users: edit context needs edit_pages, moderate_comments, list_users.
    assert.deepEqual(
      json(await get('/pages?context=edit', 'contributor')),
      error(403, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.'),
    );
    assert.deepEqual(
      json(await get('/comments?context=edit', 'contributor')),
      error(403, 'rest_forbidden_context', 'Sorry, you are not allowed to edit comments.'),
    );
    assert.deepEqual(
      json(await get('/users?context=edit', 'contributor')),
      error(403, 'rest_forbidden_context', 'Sorry, you are not allowed to list users.'),
    );
  });

  test('3: context=edit on media and terms needs the right to edit them; post= on terms must be readable', async () => {
    const editPosts = 'Sorry, you are not allowed to edit posts in this post type.';
    assert.deepEqual(json(await get('/media?context=edit')), error(401, 'rest_forbidden_context', editPosts));
    assert.deepEqual(
      json(await get('/media?context=edit', 'subscriber')),
      error(403, 'rest_forbidden_context', editPosts),
    );
    const editTerms = 'Sorry, you are not allowed to edit terms in this taxonomy.';
    assert.deepEqual(
      json(await get('/categories?context=edit')),
      error(401, 'rest_forbidden_context', editTerms),
    );
    assert.deepEqual(json(await get('/tags?context=edit')), error(401, 'rest_forbidden_context', editTerms));
    assert.deepEqual(
      json(await get('/tags?context=edit', 'author')),
      error(403, 'rest_forbidden_context', editTerms),
    );
    const editTerm = 'Sorry, you are not allowed to edit this term.';
    assert.deepEqual(json(await get('/tags/6?context=edit')), error(401, 'rest_forbidden_context', editTerm));
    assert.deepEqual(
      json(await get('/categories/2?context=edit', 'author')),
      error(403, 'rest_forbidden_context', editTerm),
    );
    const editor = await get('/tags/6?context=edit&_fields=id,slug', 'editor');
    assert.equal(editor.statusCode, 200);
    assert.deepEqual(json(editor), { id: 6, slug: 'javascript' });
    const editorList = await get('/categories?context=edit&_fields=id', 'editor');
    assert.equal(editorList.statusCode, 200);
    assert.equal(json(editorList).length, 5);

    // Post 7 is the author's draft: its terms are theirs to see, not the public's.
    const viewTerms = 'Sorry, you are not allowed to view terms for this post.';
    assert.deepEqual(json(await get('/categories?post=7')), error(401, 'rest_forbidden_context', viewTerms));
    assert.deepEqual(
      json(await get('/tags?post=7', 'subscriber')),
      error(403, 'rest_forbidden_context', viewTerms),
    );
    const own = await get('/categories?post=7&_fields=id', 'author');
    assert.equal(own.statusCode, 200);
    assert.deepEqual(json(own), [{ id: 3 }]);
    assert.deepEqual(json(await get('/categories?post=1&_fields=id')), [{ id: 2 }]);
    assert.deepEqual(
      json(await get('/categories?post=9999')),
      error(400, 'rest_post_invalid_id', 'Invalid post ID.'),
    );
  });

  test('4: a visitor’s search never matches a password-protected post; a logged-in caller’s does', async () => {
    const posts = await get('/posts?search=xyzzy');
    assert.equal(posts.statusCode, 200);
    assert.deepEqual(json(posts), []);
    assert.equal(posts.headers['x-wp-total'], '0');
    // Not by its title either: WP_Query leaves such posts out of a visitor's search altogether.
    assert.deepEqual(json(await get('/posts?search=Locked')), []);
    assert.deepEqual(json(await get('/search?search=xyzzy')), []);
    // Listed without a search, as WordPress lists it (its content stays protected).
    const listed = await get(`/posts?include=${secret}&_fields=id,content`);
    assert.deepEqual(json(listed), [{ id: secret, content: { rendered: '', protected: true } }]);
    const subscriber = await get('/posts?search=xyzzy&_fields=id', 'subscriber');
    assert.deepEqual(json(subscriber), [{ id: secret }]);
    const hits = await get('/search?search=xyzzy', 'subscriber');
    assert.deepEqual(
      json(hits).map((hit: { id: number }) => hit.id),
      [secret],
    );
  });

  test('5: commenting on a password-protected post needs its password, unless one may edit the post', async () => {
    const refused = await get('/comments', 'subscriber', 'POST', { post: secret, content: 'Let me in' });
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(
      json(refused),
      error(403, 'rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.'),
    );
    const wrong = await get('/comments?password=nope', 'subscriber', 'POST', {
      post: secret,
      content: 'Guess',
    });
    assert.equal(wrong.statusCode, 403);
    const opened = await get('/comments?password=pw', 'subscriber', 'POST', {
      post: secret,
      content: 'I know it',
    });
    assert.equal(opened.statusCode, 201);
    assert.equal(json(opened).post, secret);
    const editor = await get('/comments', 'editor', 'POST', { post: secret, content: 'Editors may' });
    assert.equal(editor.statusCode, 201);
  });
});
