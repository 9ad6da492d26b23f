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
