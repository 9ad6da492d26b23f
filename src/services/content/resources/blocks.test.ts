import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, ids, json, startContent } from '../../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const send = (method: 'GET' | 'POST' | 'DELETE', url: string, auth?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });

const paragraph = '<!-- wp:paragraph --><p>Kind regards</p><!-- /wp:paragraph -->';
const forbidden = (status: number, code: string, message: string) => ({ code, message, data: { status } });

describe('reusable blocks, /wp/v2/blocks (WordPress 6.1 wp_block)', () => {
  test('an author publishes a block: raw title and content only, no author, excerpt or comments', async () => {
    const made = await send('POST', `${api}/blocks`, t.auth.author, {
      title: 'Signature',
      content: paragraph,
      status: 'publish',
    });
    assert.equal(made.statusCode, 201);
    const block = json(made);
    assert.equal(made.headers.location, `http://localhost:80/wp-json/wp/v2/blocks/${block.id}`);
    // The same fields as core (the serializer writes optional ones last).
    assert.deepEqual(
      Object.keys(block).sort(),
      [
        'id',
        'date',
        'date_gmt',
        'guid',
        'modified',
        'modified_gmt',
        'password',
        'slug',
        'status',
        'type',
        'link',
        'title',
        'content',
        'template',
        '_links',
      ].sort(),
    );
    assert.equal(block.type, 'wp_block');
    assert.equal(block.slug, 'signature');
    assert.equal(block.link, 'http://localhost:80/signature/');
    assert.deepEqual(block.title, { raw: 'Signature' });
    assert.deepEqual(block.content, { raw: paragraph, protected: false, block_version: 1 });
    assert.deepEqual(Object.keys(block._links), [
      'self',
      'collection',
      'about',
      'version-history',
      'wp:attachment',
      'wp:action-publish',
      'curies',
    ]);
    assert.equal(block._links.about[0].href, `http://localhost:80/wp-json/wp/v2/types/wp_block`);

    const read = await send('GET', `${api}/blocks/${block.id}`, t.auth.contributor);
    assert.equal(read.statusCode, 200);
    assert.equal(read.headers.allow, 'GET');
    assert.deepEqual(json(read).content, { raw: paragraph, protected: false });
    const embed = json(await send('GET', `${api}/blocks/${block.id}?context=embed`, t.auth.author));
    assert.deepEqual(Object.keys(embed), ['id', 'date', 'slug', 'type', 'link', 'title', '_links']);
    assert.deepEqual(embed.title, []);
    // A block is not a post.
    assert.equal((await send('GET', `${api}/posts/${block.id}`, t.auth.admin)).statusCode, 404);
  });

  test('readers without edit_posts: 401/403 on a block, an empty list that still counts them', async () => {
    const { id } = json(
      await send('POST', `${api}/blocks`, t.auth.editor, {
        title: 'Footer',
        content: 'x',
        status: 'publish',
      }),
    );
    const anonymous = await send('GET', `${api}/blocks/${id}`);
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(
      json(anonymous),
      forbidden(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.'),
    );
    const subscriber = await send('GET', `${api}/blocks/${id}`, t.auth.subscriber);
    assert.deepEqual(
      [subscriber.statusCode, json(subscriber)],
      [403, forbidden(403, 'rest_forbidden', 'Sorry, you are not allowed to do that.')],
    );
    const list = await send('GET', `${api}/blocks`);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(json(list), []);
    const total = Number(list.headers['x-wp-total']);
    assert.ok(total >= 1);
    const editors = await send('GET', `${api}/blocks`, t.auth.contributor);
    assert.equal(json(editors).length, total);
  });

  test('contributors may not create blocks; an author may trash their published block, not their draft', async () => {
    const contributor = await send('POST', `${api}/blocks`, t.auth.contributor, { title: 'Mine?' });
    assert.deepEqual(
      [contributor.statusCode, json(contributor)],
      [403, forbidden(403, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.')],
    );
    const draft = json(await send('POST', `${api}/blocks`, t.auth.author, { title: 'Draft', content: 'x' }));
    assert.equal(draft.status, 'draft');
    const refused = await send('DELETE', `${api}/blocks/${draft.id}`, t.auth.author);
    assert.deepEqual(
      [refused.statusCode, json(refused)],
      [403, forbidden(403, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.')],
    );
    const published = json(
      await send('POST', `${api}/blocks`, t.auth.author, { title: 'Out', content: 'x', status: 'publish' }),
    );
    const trashed = await send('DELETE', `${api}/blocks/${published.id}`, t.auth.author);
    assert.equal(trashed.statusCode, 200);
    assert.equal(json(trashed).status, 'trash');
    const gone = await send('DELETE', `${api}/blocks/${draft.id}?force=true`, t.auth.admin);
    assert.equal(json(gone).deleted, true);
    assert.deepEqual(json(gone).previous.title, { raw: 'Draft' });
    assert.equal((await send('GET', `${api}/blocks/${draft.id}`, t.auth.admin)).statusCode, 404);
  });

  test('an update keeps a revision, read with the raw title and content and without an excerpt', async () => {
    const { id } = json(
      await send('POST', `${api}/blocks`, t.auth.author, {
        title: 'Quote',
        content: 'One',
        status: 'publish',
      }),
    );
    const updated = await send('POST', `${api}/blocks/${id}`, t.auth.author, { content: 'Two' });
    assert.equal(updated.statusCode, 200);
    const list = await send('GET', `${api}/blocks/${id}/revisions`, t.auth.author);
    assert.equal(list.statusCode, 200);
    const [revision] = json(list);
    assert.equal(json(list).length, 1);
    assert.equal(revision.parent, id);
    assert.deepEqual(revision.title, { raw: 'Quote', rendered: 'Quote' });
    assert.deepEqual(revision.content, { raw: 'Two', rendered: '<p>Two</p>\n' });
    assert.equal(revision.excerpt, undefined);
    assert.deepEqual(Object.keys(revision.guid), ['rendered']);
    assert.equal(revision._links.parent[0].href, `http://localhost:80/wp-json/wp/v2/blocks/${id}`);
    const refused = await send('GET', `${api}/blocks/${id}/revisions`, t.auth.contributor);
    assert.deepEqual([refused.statusCode, json(refused).code], [403, 'rest_cannot_read']);
  });

  test('autosaves: an autosave revision of a published block, with no preview link (blocks are not viewable)', async () => {
    const { id } = json(
      await send('POST', `${api}/blocks`, t.auth.author, {
        title: 'Banner',
        content: 'One',
        status: 'publish',
      }),
    );
    const saved = await send('POST', `${api}/blocks/${id}/autosaves`, t.auth.admin, { content: 'Typed' });
    assert.equal(saved.statusCode, 200);
    const autosave = json(saved);
    assert.equal(autosave.slug, `${id}-autosave-v1`);
    assert.equal(autosave.preview_link, '');
    assert.deepEqual(autosave.content, { raw: 'Typed', rendered: '<p>Typed</p>\n' });
    assert.equal(autosave.excerpt, undefined);
    const listed = json(await send('GET', `${api}/blocks/${id}/autosaves`, t.auth.admin));
    assert.deepEqual(
      listed.map((a: { id: number }) => a.id),
      [autosave.id],
    );
    const refused = await send('GET', `${api}/blocks/${id}/autosaves`, t.auth.contributor);
    assert.equal(refused.statusCode, 403);
  });

  test('/types lists wp_block with its capability mix', async () => {
    const type = json(await send('GET', `${api}/types/wp_block?context=edit`, t.auth.admin));
    assert.equal(type.rest_base, 'blocks');
    assert.equal(type.viewable, false);
    assert.deepEqual(type.supports, { title: true, editor: true, revisions: true });
    assert.equal(type.capabilities.delete_posts, 'delete_blocks');
    assert.equal(type.capabilities.create_posts, 'publish_posts');
    assert.equal(type.capabilities.read, 'edit_posts');
    assert.equal(type.labels.singular_name, 'Reusable block');
    assert.equal(ids.author, 3);
  });
});
