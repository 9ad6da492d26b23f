import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../../test/content.js';
import { serialize, unserialize } from './widgets/php.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });
const inactive = async () =>
  json(await send('GET', `${api}/sidebars/wp_inactive_widgets?_fields=widgets`, t.auth.admin)).widgets;
const site = 'http://localhost:80/wp-json/wp/v2';

describe('sidebars and widgets (WordPress 6.1 with a block theme: no sidebar registered)', () => {
  test('the install’s five block widgets are all in wp_inactive_widgets, the one sidebar there is', async () => {
    const res = await send('GET', `${api}/sidebars`, t.auth.admin);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.allow, 'GET');
    assert.deepEqual(json(res), [
      {
        id: 'wp_inactive_widgets',
        name: 'Inactive widgets',
        description: '',
        class: '',
        before_widget: '',
        after_widget: '',
        before_title: '',
        after_title: '',
        status: 'inactive',
        widgets: ['block-2', 'block-3', 'block-4', 'block-5', 'block-6'],
        _links: {
          collection: [{ href: `${site}/sidebars` }],
          self: [{ href: `${site}/sidebars/wp_inactive_widgets` }],
          'wp:widget': [{ embeddable: true, href: `${site}/widgets?sidebar=wp_inactive_widgets` }],
          curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
        },
      },
    ]);
    const missing = await send('GET', `${api}/sidebars/sidebar-1`, t.auth.admin);
    assert.deepEqual(
      [missing.statusCode, json(missing)],
      [
        404,
        { code: 'rest_sidebar_not_found', message: 'No sidebar exists with that id.', data: { status: 404 } },
      ],
    );
  });

  test('only administrators (edit_theme_options) manage widgets', async () => {
    const message = 'Sorry, you are not allowed to manage widgets on this site.';
    for (const [url, auth, status] of [
      [`${api}/sidebars`, undefined, 401],
      [`${api}/widgets`, t.auth.editor, 403],
      [`${api}/widget-types`, t.auth.author, 403],
    ] as const) {
      const res = await send('GET', url, auth);
      assert.deepEqual(json(res), { code: 'rest_cannot_manage_widgets', message, data: { status } }, url);
    }
  });

  test('a block widget in edit context: its admin form and its instance, encoded and raw', async () => {
    const res = await send(
      'GET',
      `${api}/widgets/block-2?context=edit&_fields=rendered,rendered_form,instance`,
      t.auth.admin,
    );
    const widget = json(res);
    assert.equal(widget.rendered, '');
    assert.equal(
      widget.rendered_form,
      '<p>\n\t\t\t<label for="widget-block-2-content">\n\t\t\t\tBlock HTML:\t\t\t</label>\n\t\t\t<textarea id="widget-block-2-content" name="widget-block[2][content]" rows="6" cols="50" class="widefat code">&lt;!-- wp:search /--&gt;</textarea>\n\t\t</p>',
    );
    assert.equal(widget.instance.encoded, 'YToxOntzOjc6ImNvbnRlbnQiO3M6MTk6IjwhLS0gd3A6c2VhcmNoIC8tLT4iO30=');
    assert.match(widget.instance.hash, /^[0-9a-f]{32}$/);
    assert.deepEqual(widget.instance.raw, { content: '<!-- wp:search /-->' });
  });

  test('new widgets go first in wp_inactive_widgets; moved and trashed ones last, as core files them', async () => {
    const made = await send('POST', `${api}/widgets`, t.auth.admin, {
      id_base: 'block',
      sidebar: 'sidebar-1',
      instance: { raw: { content: '<p>Hi</p>' } },
    });
    assert.equal(made.statusCode, 201);
    assert.deepEqual(
      [json(made).id, json(made).sidebar, json(made).instance.raw],
      ['block-7', 'sidebar-1', { content: '<p>Hi</p>' }],
    );
    assert.deepEqual(await inactive(), ['block-7', 'block-2', 'block-3', 'block-4', 'block-5', 'block-6']);
    const moved = await send('POST', `${api}/widgets/block-2`, t.auth.admin, { sidebar: 'sidebar-1' });
    assert.equal(json(moved).sidebar, 'sidebar-1');
    assert.deepEqual(await inactive(), ['block-7', 'block-3', 'block-4', 'block-5', 'block-6', 'block-2']);
    const trashed = await send('DELETE', `${api}/widgets/block-3`, t.auth.admin);
    assert.deepEqual([trashed.statusCode, json(trashed).sidebar], [200, 'wp_inactive_widgets']);
    // Already in wp_inactive_widgets, it is added again: WordPress 6.1 does the same.
    assert.deepEqual(await inactive(), [
      'block-7',
      'block-3',
      'block-4',
      'block-5',
      'block-6',
      'block-2',
      'block-3',
    ]);
    const deleted = await send('DELETE', `${api}/widgets/block-3?force=true`, t.auth.admin);
    assert.deepEqual([json(deleted).deleted, json(deleted).previous.id], [true, 'block-3']);
    const gone = await send('GET', `${api}/widgets/block-3`, t.auth.admin);
    assert.deepEqual([gone.statusCode, json(gone).code], [404, 'rest_widget_not_found']);
    const set = await send('POST', `${api}/sidebars/wp_inactive_widgets`, t.auth.admin, {
      widgets: ['block-6'],
    });
    assert.deepEqual(json(set).widgets, ['block-6']);
    assert.deepEqual(await inactive(), ['block-2', 'block-4', 'block-5', 'block-7', 'block-6']);
  });

  test('an encoded instance comes back only with this site’s hash', async () => {
    const read = json(await send('GET', `${api}/widgets/block-5?context=edit`, t.auth.admin));
    const encoded = await send('POST', `${api}/widget-types/block/encode`, t.auth.admin, {
      instance: { encoded: read.instance.encoded, hash: read.instance.hash },
      number: 5,
    });
    assert.equal(encoded.statusCode, 200);
    assert.deepEqual(json(encoded).instance, read.instance);
    assert.equal(json(encoded).form, read.rendered_form);
    const forged = await send('POST', `${api}/widgets`, t.auth.admin, {
      id_base: 'block',
      instance: { encoded: read.instance.encoded, hash: '0'.repeat(32) },
    });
    assert.deepEqual(
      [forged.statusCode, json(forged).code, json(forged).message],
      [400, 'rest_invalid_widget', 'The provided instance is malformed.'],
    );
    const preview = await send('POST', `${api}/widget-types/block/encode`, t.auth.admin, {
      form_data:
        'widget-block[1][content]=%3C!--%20wp%3Aparagraph%20--%3E%3Cp%3EHi%3C%2Fp%3E%3C!--%20%2Fwp%3Aparagraph%20--%3E',
    });
    assert.equal(json(preview).preview, '<div class="widget widget_block widget_text"><p>Hi</p></div>');
  });

  test('PHP serialization round-trips the values an instance holds, counting bytes', () => {
    const value = { content: 'Straße', n: 2, list: ['a', true, null], f: 1.5 };
    assert.equal(
      serialize(value),
      'a:4:{s:7:"content";s:7:"Straße";s:1:"n";i:2;s:4:"list";a:3:{i:0;s:1:"a";i:1;b:1;i:2;N;}s:1:"f";d:1.5;}',
    );
    assert.deepEqual(unserialize(serialize(value)), value);
    assert.equal(unserialize('a:1:{'), undefined);
  });
});
