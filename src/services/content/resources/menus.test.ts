import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const send = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS',
  url: string,
  auth?: string,
  payload?: object,
) => t.app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });

describe('menus, menu items and menu locations (WordPress 6.1)', () => {
  test('an administrator makes a menu with items of each type, lists them by menu, updates and deletes', async () => {
    const menu = await send('POST', `${api}/menus`, t.auth.admin, { name: 'Main', description: 'Top bar' });
    assert.equal(menu.statusCode, 201);
    const id = json(menu).id;
    assert.match(String(menu.headers.location), new RegExp(`/wp-json/wp/v2/menus/${id}$`));
    assert.deepEqual(
      { ...json(menu), _links: Object.keys(json(menu)._links) },
      {
        id,
        description: 'Top bar',
        name: 'Main',
        slug: 'main',
        meta: [],
        locations: [],
        auto_add: false,
        _links: ['self', 'collection', 'about', 'wp:post_type', 'curies'],
      },
    );
    const again = await send('POST', `${api}/menus`, t.auth.admin, { name: 'main' });
    assert.equal(again.statusCode, 400);
    assert.equal(json(again).code, 'menu_exists');
    assert.equal(json(again).data.term_id, id);

    const custom = await send('POST', `${api}/menu-items`, t.auth.admin, {
      title: 'Docs',
      url: 'https://example.com/docs',
      menus: id,
      menu_order: 1,
      classes: ['big', 'x y'],
    });
    assert.equal(custom.statusCode, 201);
    const item = json(custom);
    assert.equal(item.type, 'custom');
    assert.equal(item.object, 'custom');
    assert.equal(item.object_id, item.id);
    assert.equal(item.type_label, 'Custom Link');
    assert.deepEqual(item.title, { raw: 'Docs', rendered: 'Docs' });
    assert.deepEqual(item.classes, ['big', 'x', 'y']);
    assert.deepEqual(item.xfn, ['']);
    assert.equal(item.menus, id);

    const post = json(
      await send('POST', `${api}/menu-items`, t.auth.admin, {
        type: 'post_type',
        object_id: 1,
        menus: id,
        menu_order: 2,
      }),
    );
    assert.equal(post.object, 'post');
    assert.equal(post.type_label, 'Post');
    assert.equal(post.invalid, false);
    assert.ok(post._links['wp:menu-item-object']);
    const term = json(
      await send('POST', `${api}/menu-items`, t.auth.admin, {
        type: 'taxonomy',
        object_id: 2,
        menus: id,
        menu_order: 3,
      }),
    );
    assert.equal(term.object, 'category');
    assert.equal(term.type_label, 'Category');
    const archive = json(
      await send('POST', `${api}/menu-items`, t.auth.admin, {
        type: 'post_type_archive',
        object: 'post',
        menus: id,
        menu_order: 4,
      }),
    );
    assert.equal(archive.title.raw, 'Post Archives');
    assert.equal(archive.type_label, 'Post Type Archive');

    const noUrl = await send('POST', `${api}/menu-items`, t.auth.admin, { title: 'Nowhere' });
    assert.equal(json(noUrl).code, 'rest_url_required');
    const badMenu = await send('POST', `${api}/menu-items`, t.auth.admin, {
      title: 'X',
      url: 'https://x',
      menus: 99999,
    });
    assert.equal(json(badMenu).code, 'invalid_menu_id');

    const listed = await send('GET', `${api}/menu-items?menus=${id}`, t.auth.contributor);
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(
      json(listed).map((i: { id: number }) => i.id),
      [item.id, post.id, term.id, archive.id],
    );
    assert.equal(listed.headers['x-wp-total'], '4');

    const updated = await send('POST', `${api}/menu-items/${item.id}`, t.auth.admin, { title: 'Guides' });
    assert.equal(json(updated).title.raw, 'Guides');
    assert.equal(json(updated).url, 'https://example.com/docs');

    const trash = await send('DELETE', `${api}/menu-items/${item.id}`, t.auth.admin);
    assert.equal(trash.statusCode, 501);
    assert.equal(json(trash).code, 'rest_trash_not_supported');
    const gone = await send('DELETE', `${api}/menu-items/${item.id}?force=true`, t.auth.admin);
    assert.equal(json(gone).deleted, true);
    assert.equal(json(gone).previous.title.rendered, 'Guides');

    const deleted = await send('DELETE', `${api}/menus/${id}?force=true`, t.auth.admin);
    assert.equal(deleted.statusCode, 200);
    assert.equal(json(deleted).previous.name, 'Main');
    assert.equal((await send('GET', `${api}/menu-items/${post.id}`, t.auth.admin)).statusCode, 404);
  });

  test('reads need edit_posts (contributors and up); writes and locations need edit_theme_options', async () => {
    const menu = json(await send('POST', `${api}/menus`, t.auth.admin, { name: 'Footer' }));
    const anonymous = await send('GET', `${api}/menus`);
    assert.equal(anonymous.statusCode, 401);
    assert.equal(json(anonymous).code, 'rest_cannot_view');
    assert.equal((await send('GET', `${api}/menus`, t.auth.subscriber)).statusCode, 403);
    const author = await send('GET', `${api}/menus/${menu.id}`, t.auth.author);
    assert.equal(author.statusCode, 200);
    // The Allow header comes from the same checks: an author reads, an administrator also writes.
    assert.equal(author.headers.allow, 'GET');
    const admin = await send('GET', `${api}/menus/${menu.id}`, t.auth.admin);
    assert.equal(admin.headers.allow, 'GET, POST, PUT, PATCH, DELETE');
    const edit = await send('GET', `${api}/menus?context=edit`, t.auth.editor);
    assert.equal(json(edit).code, 'rest_forbidden_context');
    const create = await send('POST', `${api}/menus`, t.auth.editor, { name: 'Nope' });
    assert.equal(create.statusCode, 403);
    assert.equal(json(create).code, 'rest_cannot_create');
    const item = await send('POST', `${api}/menu-items`, t.auth.editor, { title: 'x', url: 'https://x' });
    assert.equal(json(item).code, 'rest_cannot_create');
    assert.equal((await send('GET', `${api}/menu-items`)).statusCode, 401);

    const locations = await send('GET', `${api}/menu-locations`, t.auth.admin);
    assert.equal(locations.statusCode, 200);
    assert.equal(locations.body, '[]');
    assert.equal((await send('GET', `${api}/menu-locations`, t.auth.editor)).statusCode, 403);
    const primary = await send('GET', `${api}/menu-locations/primary`, t.auth.admin);
    assert.equal(json(primary).code, 'rest_menu_location_invalid');
    const located = await send('POST', `${api}/menus/${menu.id}`, t.auth.admin, { locations: ['primary'] });
    assert.equal(located.statusCode, 400);
    assert.deepEqual(json(located).data.params, { locations: 'Invalid menu location.' });
  });

  test('the index and OPTIONS describe the three routes', async () => {
    const index = json(await send('GET', '/wp-json/wp/v2'));
    for (const route of [
      '/wp/v2/menus',
      '/wp/v2/menus/(?P<id>[\\d]+)',
      '/wp/v2/menu-items',
      '/wp/v2/menu-items/(?P<id>[\\d]+)',
      '/wp/v2/menu-locations',
      '/wp/v2/menu-locations/(?P<location>[\\w-]+)',
    ])
      assert.ok(index.routes[route], route);
    assert.deepEqual(index.routes['/wp/v2/menus'].methods, ['GET', 'POST']);
    const options = await send('OPTIONS', `${api}/menu-items`, t.auth.admin);
    assert.equal(json(options).schema.title, 'nav_menu_item');
    assert.equal(options.headers.allow, 'GET, POST');
  });
});
