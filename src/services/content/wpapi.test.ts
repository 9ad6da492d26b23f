import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { type ContentTest, ids, startContent } from '../../../test/content.js';
import { png, storeEnv } from '../../../test/profiles.js';

// wpapi ships CommonJS without types.
const WPAPI = createRequire(import.meta.url)('wpapi');

let t: ContentTest;
before(async () => {
  t = await startContent({ listen: true, env: storeEnv() });
});
after(() => t.close());

const client = () =>
  new WPAPI({ endpoint: `${t.url}/wp-json`, username: 'admin', password: t.adminPassword });

describe('wpapi drives pages, media and comments unchanged', () => {
  test('pages: list children of a parent, create and update one', async () => {
    const children = await client().pages().parent(31).get();
    assert.deepEqual(
      children.map((p: { id: number }) => p.id),
      [32],
    );
    const created = await client().pages().create({ title: 'From wpapi', parent: 31, status: 'publish' });
    assert.equal(created.parent, 31);
    const updated = await client().pages().id(created.id).update({ menu_order: 4 });
    assert.equal(updated.menu_order, 4);
  });

  test('media: upload a file (multipart), then feature it on a post', async () => {
    const media = await client()
      .media()
      .file(png, 'wpapi.png')
      .create({ title: 'Uploaded by wpapi', alt_text: 'dot' });
    assert.equal(media.title.raw, 'Uploaded by wpapi');
    assert.equal(media.alt_text, 'dot');
    assert.equal(media.mime_type, 'image/png');
    assert.equal(media.media_details.width, 1);
    const post = await client().posts().id(2).update({ featured_media: media.id });
    assert.equal(post.featured_media, media.id);
    const embedded = await client().posts().id(2).embed().get();
    assert.equal(embedded._embedded['wp:featuredmedia'][0].id, media.id);
  });

  test('comments: post a reply and read the thread of a post', async () => {
    const reply = await client().comments().create({ post: 1, parent: 1, content: 'Reply from wpapi' });
    assert.equal(reply.status, 'approved');
    assert.equal(reply.author, ids.admin);
    const thread = await client().comments().forPost(1).get();
    assert.ok(thread.some((c: { id: number }) => c.id === reply.id));
    const pending = await client().comments().param('status', 'hold').get();
    assert.deepEqual(
      pending.map((c: { id: number }) => c.id),
      [3],
    );
  });
});

// @wordpress/api-fetch (a dev dependency on main) with a Node fetch handler: its default one calls window.fetch.
const apiFetchPackage = '@wordpress/api-fetch';
// biome-ignore lint/suspicious/noExplicitAny: loaded without its types, which assume a browser.
const apiFetch: any = await import(apiFetchPackage).then(
  (module) => module.default,
  () => undefined,
);

// biome-ignore lint/suspicious/noExplicitAny: api-fetch's options object.
async function nodeFetchHandler(options: any) {
  const { url, path, data, method = 'GET', headers = {}, body } = options;
  const response = await fetch(url ?? `${t.url}/wp-json/${String(path).replace(/^\//, '')}`, {
    method,
    headers: {
      Accept: 'application/json, */*;q=0.1',
      Authorization: t.auth.editor,
      ...(data !== undefined && { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: data !== undefined ? JSON.stringify(data) : body,
  });
  if (!response.ok) throw await response.json();
  return response.json();
}

describe('@wordpress/api-fetch drives pages, media and comments unchanged', {
  skip: !apiFetch && 'api-fetch is not installed',
}, () => {
  before(() => apiFetch.setFetchHandler(nodeFetchHandler));

  test('pages: create a child page, then move it with PUT (sent as POST + X-HTTP-Method-Override)', async () => {
    const page = await apiFetch({
      path: '/wp/v2/pages',
      method: 'POST',
      data: { title: 'api-fetch page', parent: 31 },
    });
    assert.equal(page.parent, 31);
    const moved = await apiFetch({
      path: `/wp/v2/pages/${page.id}`,
      method: 'PUT',
      data: { parent: 0, menu_order: 9 },
    });
    assert.deepEqual([moved.parent, moved.menu_order], [0, 9]);
  });

  test('media: upload FormData with a file, as the block editor does', async () => {
    const body = new FormData();
    body.append('file', new Blob([png], { type: 'image/png' }), 'editor.png');
    body.append('alt_text', 'from api-fetch');
    const media = await apiFetch({ path: '/wp/v2/media', method: 'POST', body });
    assert.deepEqual(
      [media.mime_type, media.alt_text, media.media_details.height],
      ['image/png', 'from api-fetch', 1],
    );
  });

  test('comments: moderate a held comment and read the post’s thread', async () => {
    const approved = await apiFetch({
      path: '/wp/v2/comments/3',
      method: 'POST',
      data: { status: 'approve' },
    });
    assert.equal(approved.status, 'approved');
    const thread = await apiFetch({ path: '/wp/v2/comments?post=1&per_page=100' });
    assert.ok(thread.some((c: { id: number }) => c.id === 3));
    const error = await apiFetch({ path: '/wp/v2/comments/999' }).catch((e: { code: string }) => e);
    assert.equal(error.code, 'rest_comment_invalid_id');
  });
});
