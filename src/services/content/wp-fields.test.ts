import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, type Json, json, startContent } from '../../../test/content.js';

// What WordPress 6.1 answers for these fields, links and headers (wordpress.differential.test.ts compares the
// two); here, what a client of backlot sees.

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const site = 'http://localhost:80';
const get = (url: string, authorization?: string) =>
  t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
const send = (method: 'POST' | 'DELETE', url: string, authorization?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: authorization ? { authorization } : {} });
const actions = (item: Json) => Object.keys(item._links).filter((rel) => rel.startsWith('wp:action-'));

describe('fields as WordPress shapes them', () => {
  test('meta is an empty array; a user in edit context has the block editor’s empty preferences', async () => {
    for (const path of ['/posts/1', '/pages/31', '/categories/2', '/tags/6', '/users/1'])
      assert.deepEqual(json(await get(`${api}${path}`)).meta, [], path);
    const me = json(await get(`${api}/users/me?context=edit`, t.auth.admin));
    assert.deepEqual(me.meta, { persisted_preferences: [] });
  });

  test('a post’s tags and categories come in name order', async () => {
    const post = json(
      await send('POST', `${api}/posts`, t.auth.admin, {
        title: 'Terms',
        categories: [3, 2],
        tags: [7, 10, 6],
      }),
    );
    // News (2) before Tutorials (3); javascript (6), performance (10), typescript (7).
    assert.deepEqual(post.categories, [2, 3]);
    assert.deepEqual(post.tags, [6, 10, 7]);
  });

  test('private titles start with “Private: ” and link to the permalink; protected ones keep their title', async () => {
    const secret = json(await get(`${api}/posts/11`, t.auth.editor));
    assert.equal(secret.title.rendered, 'Private: Getting started with REST clients, part 2');
    assert.equal(secret.link, `${site}/getting-started-with-rest-clients-part-2/`);
    const edit = json(await get(`${api}/posts/11?context=edit`, t.auth.admin));
    assert.equal(edit.title.raw, 'Getting started with REST clients, part 2');
    const locked = json(
      await send('POST', `${api}/posts`, t.auth.admin, {
        title: 'Locked',
        status: 'publish',
        password: 'pw',
      }),
    );
    assert.equal(locked.title.rendered, 'Locked');
  });

  test('edit context: permalink template, generated slug, block version and what the caller may do', async () => {
    const post = json(await get(`${api}/posts/11?context=edit`, t.auth.admin));
    assert.equal(post.permalink_template, `${site}/%postname%/`);
    assert.equal(post.generated_slug, 'getting-started-with-rest-clients-part-2');
    assert.equal(post.content.block_version, 0);
    assert.equal('block_version' in post.excerpt, false);
    assert.deepEqual(actions(post), [
      'wp:action-publish',
      'wp:action-unfiltered-html',
      'wp:action-sticky',
      'wp:action-assign-author',
      'wp:action-create-categories',
      'wp:action-assign-categories',
      'wp:action-create-tags',
      'wp:action-assign-tags',
    ]);
    for (const rel of actions(post))
      assert.deepEqual(post._links[rel], [{ href: `${site}/wp-json/wp/v2/posts/11` }]);
    const author = json(await get(`${api}/posts/3?context=edit`, t.auth.author));
    assert.deepEqual(actions(author), [
      'wp:action-publish',
      'wp:action-assign-categories',
      'wp:action-create-tags',
      'wp:action-assign-tags',
    ]);
    const page = json(await get(`${api}/pages/32?context=edit`, t.auth.admin));
    assert.equal(page.permalink_template, `${site}/about/%pagename%/`);
    assert.equal(page.generated_slug, 'team');
    assert.equal(page.link, `${site}/about/team/`);
    assert.deepEqual(actions(page), [
      'wp:action-publish',
      'wp:action-unfiltered-html',
      'wp:action-assign-author',
    ]);
    const blocks = json(
      await send('POST', `${api}/posts`, t.auth.admin, {
        title: 'B',
        content: '<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->',
      }),
    );
    assert.equal(blocks.content.block_version, 1);
    const view = json(await get(`${api}/posts/1`));
    for (const key of ['permalink_template', 'generated_slug']) assert.equal(key in view, false, key);
    assert.equal('block_version' in view.content, false);
    assert.deepEqual(actions(view), []);
  });

  test('a draft has no slug until published; the guid is the permalink a post had when it was created', async () => {
    const draft = json(await send('POST', `${api}/posts`, t.auth.admin, { title: 'Slugless draft' }));
    assert.equal(draft.slug, '');
    assert.equal(draft.generated_slug, 'slugless-draft');
    assert.equal(draft.link, `${site}/?p=${draft.id}`);
    const published = json(
      await send('POST', `${api}/posts/${draft.id}`, t.auth.admin, { status: 'publish' }),
    );
    assert.equal(published.slug, 'slugless-draft');
    assert.equal(published.link, `${site}/slugless-draft/`);
    assert.equal(published.guid.raw, `${site}/?p=${draft.id}`);
    // Someone who may not publish cannot name a post pending review; the seed's pending posts have no slug either.
    const pending = json(
      await send('POST', `${api}/posts`, t.auth.contributor, {
        title: 'For review',
        slug: 'mine',
        status: 'pending',
      }),
    );
    assert.equal(pending.slug, '');
    assert.equal(json(await get(`${api}/posts/8`, t.auth.admin)).slug, '');
    const direct = json(
      await send('POST', `${api}/posts`, t.auth.admin, { title: 'Straight out', status: 'publish' }),
    );
    assert.equal(direct.guid.raw, `${site}/straight-out/`);
    // Stored as a path: another host name sees its own.
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `${api}/posts/${direct.id}`,
      headers: { host: 'example.test' },
    });
    assert.equal(json(elsewhere).guid.rendered, 'http://example.test/straight-out/');
    const child = json(
      await send('POST', `${api}/pages`, t.auth.admin, { title: 'Deep', parent: 32, status: 'publish' }),
    );
    assert.equal(child.guid.raw, `${site}/about/team/deep/`);
    assert.equal(child.link, `${site}/about/team/deep/`);
  });

  test('trashing sets the slug aside and restoring gives it back; new pages are closed to comments', async () => {
    const post = json(
      await send('POST', `${api}/posts`, t.auth.admin, { title: 'Binned', status: 'publish' }),
    );
    const trashed = json(await send('DELETE', `${api}/posts/${post.id}`, t.auth.admin));
    assert.equal(trashed.slug, 'binned__trashed');
    // Trashing is an update: a post without revisions gets its first one, as wp_update_post saves it.
    assert.equal(trashed._links['version-history'][0].count, 1);
    assert.ok(trashed._links['predecessor-version']);
    const taken = json(
      await send('POST', `${api}/posts`, t.auth.admin, { title: 'Binned', status: 'publish' }),
    );
    assert.equal(taken.slug, 'binned');
    const back = json(await send('POST', `${api}/posts/${post.id}`, t.auth.admin, { status: 'draft' }));
    assert.equal(back.slug, 'binned-2');
    const page = json(await send('POST', `${api}/pages`, t.auth.admin, { title: 'Quiet', excerpt: 'Short' }));
    assert.equal(page.comment_status, 'closed');
    assert.equal(page.ping_status, 'closed');
    assert.deepEqual(page.excerpt, { raw: 'Short', rendered: '<p>Short</p>\n', protected: false });
  });

  test('an upload’s guid is its file URL; edit context adds its sample permalink and the caller’s actions', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/media`,
      payload: Buffer.from('a note'),
      headers: {
        authorization: t.auth.admin,
        'content-type': 'text/plain',
        'content-disposition': 'attachment; filename=note.txt',
      },
    });
    assert.equal(res.statusCode, 201);
    const media = json(res);
    assert.equal(media.guid.raw, media.source_url);
    assert.equal(media.permalink_template, `${site}/?attachment_id=${media.id}`);
    assert.equal(media.generated_slug, 'note');
    assert.deepEqual(actions(media), ['wp:action-unfiltered-html', 'wp:action-assign-author']);
    assert.ok(media._links.curies);
    const view = await get(`${api}/media/${media.id}`);
    assert.equal(view.headers.link, `<${site}/note/>; rel="alternate"; type=text/html`);
    // No `wp:` link in view context, so no curies either.
    assert.equal('curies' in json(view)._links, false);
    assert.deepEqual(json(view).meta, []);
  });

  test('a new post given a date was last modified then', async () => {
    const dated = json(
      await send('POST', `${api}/posts`, t.auth.admin, { title: 'Back then', date: '2020-01-01T10:00:00' }),
    );
    assert.equal(dated.modified, '2020-01-01T10:00:00');
    assert.equal(dated.modified_gmt, '2020-01-01T10:00:00');
    const renamed = json(await send('POST', `${api}/posts/${dated.id}`, t.auth.admin, { title: 'Now' }));
    assert.notEqual(renamed.modified, '2020-01-01T10:00:00');
  });

  test('orderby=include keeps the order the ids were given in, whatever order says', async () => {
    for (const order of ['asc', 'desc']) {
      const res = await get(`${api}/posts?include=3,1,2&orderby=include&order=${order}`);
      assert.deepEqual(
        json(res).map((p: Json) => p.id),
        [3, 1, 2],
      );
    }
  });

  test('_embed=<rels> embeds only those links', async () => {
    const all = json(await get(`${api}/posts/1?_embed`));
    assert.deepEqual(Object.keys(all._embedded).sort(), ['author', 'replies', 'wp:term']);
    const some = json(await get(`${api}/posts/1?_embed=author,wp:term`));
    assert.deepEqual(Object.keys(some._embedded).sort(), ['author', 'wp:term']);
    const none = json(await get(`${api}/posts/1?_embed=wp:featuredmedia`));
    assert.equal('_embedded' in none, false);
  });

  test('links: terms link their taxonomy; a deleted item’s previous has no links', async () => {
    const tag = json(await get(`${api}/tags/6`));
    assert.deepEqual(tag._links.about, [{ href: `${site}/wp-json/wp/v2/taxonomies/post_tag` }]);
    const made = json(await send('POST', `${api}/tags`, t.auth.admin, { name: 'short-lived' }));
    const gone = json(await send('DELETE', `${api}/tags/${made.id}?force=true`, t.auth.admin));
    assert.equal(gone.previous.name, 'short-lived');
    assert.equal('_links' in gone.previous, false);
    const post = json(await send('POST', `${api}/posts`, t.auth.admin, { title: 'Doomed' }));
    const deleted = json(await send('DELETE', `${api}/posts/${post.id}?force=true`, t.auth.admin));
    assert.equal(deleted.previous.id, post.id);
    assert.equal('_links' in deleted.previous, false);
  });

  test('an administrator’s capabilities include core’s theme, plugin and level ones', async () => {
    const admin = json(await get(`${api}/users/1?context=edit`, t.auth.admin));
    for (const cap of ['edit_themes', 'install_plugins', 'update_core', 'export', 'level_9', 'level_4'])
      assert.equal(admin.capabilities[cap], true, cap);
    const editor = json(await get(`${api}/users/2?context=edit`, t.auth.admin));
    assert.equal(editor.capabilities.level_5, true);
    assert.equal(editor.capabilities.level_8, undefined);
    assert.equal(editor.capabilities.edit_themes, undefined);
  });
});

describe('headers as WordPress sends them', () => {
  const index = `<${site}/wp-json/>; rel="https://api.w.org/"`;

  test('Link: a post’s page, or a list’s neighbours, instead of the API’s own link', async () => {
    const post = await get(`${api}/posts/1`);
    assert.equal(
      post.headers.link,
      `<${site}/getting-started-with-rest-clients-part-1/>; rel="alternate"; type=text/html`,
    );
    const draft = await get(`${api}/posts/7`, t.auth.admin);
    assert.equal(draft.headers.link, `<${site}/?p=7>; rel="alternate"; type=text/html`);
    const page = await get(`${api}/pages/32`);
    assert.equal(page.headers.link, `<${site}/about/team/>; rel="alternate"; type=text/html`);
    const paged = await get(`${api}/posts?per_page=2&_embed`);
    assert.equal(paged.headers.link, `<${site}/wp-json/wp/v2/posts?per_page=2&_embed&page=2>; rel="next"`);
    assert.equal((await get(`${api}/tags`)).headers.link, index);
    // Search past its last page: an empty page that still links the one before it, as core's search controller.
    const beyond = await get(`${api}/search?search=caching&page=99`);
    assert.deepEqual(json(beyond), []);
    assert.equal(beyond.headers.link, `<${site}/wp-json/wp/v2/search?search=caching&page=98>; rel="prev"`);
  });

  test('Allow: each method checked with the request, after the handler ran', async () => {
    // Refused: the methods the caller may still use.
    const anonymous = await send('POST', `${api}/posts`, undefined, { title: 'x' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.headers.allow, 'GET');
    // After a create the request is in edit context: an author may create tags but not read them that way.
    const tag = await send('POST', `${api}/tags`, t.auth.author, { name: 'from-an-author' });
    assert.equal(tag.statusCode, 201);
    assert.equal(tag.headers.allow, 'POST');
    const wrongPassword = await get(`${api}/posts/1?password=nope`);
    assert.equal(wrongPassword.statusCode, 403);
    assert.equal(wrongPassword.headers.allow, undefined);
    const hidden = await get(`${api}/users?roles=editor`);
    assert.equal(hidden.statusCode, 401);
    assert.equal(hidden.headers.allow, undefined);
    // Terms cannot be trashed (501), but everything stays allowed; once deleted, nothing is.
    const trash = await send('DELETE', `${api}/tags/${json(tag).id}`, t.auth.admin);
    assert.equal(trash.statusCode, 501);
    assert.equal(trash.headers.allow, 'GET, POST, PUT, PATCH, DELETE');
    const deleted = await send('DELETE', `${api}/tags/${json(tag).id}?force=true`, t.auth.admin);
    assert.equal(deleted.statusCode, 200);
    assert.equal(deleted.headers.allow, undefined);
    // A body that cannot be parsed is still answered for the signed-in caller.
    const broken = await t.app.inject({
      method: 'POST',
      url: `${api}/posts`,
      payload: '{"title": ',
      headers: { authorization: t.auth.admin, 'content-type': 'application/json' },
    });
    assert.equal(broken.statusCode, 400);
    assert.equal(json(broken).code, 'rest_invalid_json');
    assert.equal(broken.headers.allow, 'GET, POST');
    assert.equal(broken.headers['cache-control'], 'no-cache, must-revalidate, max-age=0');
    // `/users/me` can be deleted too, by whoever may delete users, as `/users/{id}`.
    assert.equal((await get(`${api}/users/me`, t.auth.admin)).headers.allow, 'GET, POST, PUT, PATCH, DELETE');
    const editor = await send('DELETE', `${api}/users/me?force=true&reassign=1`, t.auth.editor);
    assert.equal(editor.statusCode, 403);
    assert.equal(json(editor).code, 'rest_user_cannot_delete');
    assert.equal(editor.headers.allow, 'GET, POST, PUT, PATCH');
    const nobody = await send('DELETE', `${api}/users/me`);
    assert.equal(nobody.statusCode, 404);
    assert.equal(json(nobody).code, 'rest_user_invalid_id');
  });
});
