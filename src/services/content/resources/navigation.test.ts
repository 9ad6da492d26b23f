import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const send = (method: 'GET' | 'POST' | 'DELETE', url: string, auth?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });

const link = (attributes: object) => `<!-- wp:navigation-link ${JSON.stringify(attributes)} /-->`;

describe('navigation menus, /wp/v2/navigation (WordPress 6.1 wp_navigation)', () => {
  test('administrators write them; anyone reads a published one with its links rendered as core does', async () => {
    const content = [
      link({ label: 'Home', url: 'https://example.com/?a=1&b=2', kind: 'custom' }),
      // page 34 is a draft: its link is left out; a link without a label too
      link({
        label: 'Upcoming',
        type: 'page',
        id: 34,
        url: 'http://example.com/?page_id=34',
        kind: 'post-type',
      }),
      link({ label: 'Docs', url: '/docs', opensInNewTab: true, rel: 'noopener', description: 'All' }),
      link({ url: '/nothing' }),
    ].join('');
    const made = await send('POST', `${api}/navigation`, t.auth.admin, {
      title: 'Main',
      content,
      status: 'publish',
    });
    assert.equal(made.statusCode, 201);
    const { id } = json(made);
    const read = await send('GET', `${api}/navigation/${id}`);
    assert.equal(read.statusCode, 200);
    const menu = json(read);
    assert.equal(menu.type, 'wp_navigation');
    assert.deepEqual(menu.title, { rendered: 'Main' });
    assert.equal(
      menu.content.rendered,
      '<li class=" wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content"  href="https://example.com/?a=1&#038;b=2"><span class="wp-block-navigation-item__label">Home</span></a></li>' +
        '<li class=" wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content"  href="/docs" target="_blank"   rel="noopener"><span class="wp-block-navigation-item__label">Docs</span><span class="wp-block-navigation-item__description">All</span></a></li>',
    );
    assert.equal(menu.content.raw, undefined);
    assert.equal(menu.author, undefined);

    const editor = await send('POST', `${api}/navigation`, t.auth.editor, { title: 'Mine' });
    assert.deepEqual([editor.statusCode, json(editor).code], [403, 'rest_cannot_create']);
    const draft = json(await send('POST', `${api}/navigation`, t.auth.admin, {}));
    assert.equal(draft.status, 'draft');
    assert.equal((await send('GET', `${api}/navigation/${draft.id}`)).statusCode, 401);
    assert.equal((await send('GET', `${api}/navigation/${draft.id}`, t.auth.editor)).statusCode, 403);
    const refused = await send('DELETE', `${api}/navigation/${id}`, t.auth.editor);
    assert.deepEqual([refused.statusCode, json(refused).code], [403, 'rest_cannot_delete']);
    // A revision's content renders its links too.
    await send('POST', `${api}/navigation/${id}`, t.auth.admin, { title: 'Main menu' });
    const [revision] = json(await send('GET', `${api}/navigation/${id}/revisions`, t.auth.admin));
    assert.equal(revision.content.rendered, menu.content.rendered);
    assert.equal(revision.excerpt, undefined);
    const type = json(await send('GET', `${api}/types/wp_navigation?context=edit`, t.auth.admin));
    assert.equal(type.capabilities.edit_posts, 'edit_theme_options');
    assert.equal(type.rest_base, 'navigation');
  });
});
