import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, type Json, json, startContent } from '../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const send = (method: 'GET' | 'POST' | 'PUT', url: string, auth?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });
const get = (url: string, auth?: string) => send('GET', url, auth);

describe('types, statuses and taxonomies', () => {
  test('/types lists post, page, attachment, nav_menu_item, wp_block, wp_navigation in view context; one type; unknown is 404', async () => {
    const types = json(await get(`${api}/types`));
    assert.deepEqual(Object.keys(types), [
      'post',
      'page',
      'attachment',
      'nav_menu_item',
      'wp_block',
      'wp_navigation',
    ]);
    // Menu items are the theme's: edit context shows them to administrators only, all primitives edit_theme_options.
    const editors = json(await get(`${api}/types?context=edit`, t.auth.editor));
    assert.deepEqual(Object.keys(editors), ['post', 'page', 'attachment', 'wp_block']);
    const items = json(await get(`${api}/types/nav_menu_item?context=edit`, t.auth.admin));
    assert.equal(items.rest_base, 'menu-items');
    assert.equal(items.viewable, false);
    assert.deepEqual(items.taxonomies, ['nav_menu']);
    assert.equal(items.capabilities.edit_post, 'edit_post');
    assert.equal(items.capabilities.create_posts, 'edit_theme_options');
    assert.deepEqual(items.visibility, { show_in_nav_menus: false, show_ui: false });
    assert.equal(
      json(await get(`${api}/types/nav_menu_item?context=edit`, t.auth.editor)).code,
      'rest_forbidden_context',
    );
    assert.deepEqual([types.page.rest_base, types.attachment.rest_base], ['pages', 'media']);
    assert.deepEqual(types.post, {
      description: '',
      hierarchical: false,
      has_archive: false,
      name: 'Posts',
      slug: 'post',
      icon: 'dashicons-admin-post',
      taxonomies: ['category', 'post_tag'],
      rest_base: 'posts',
      rest_namespace: 'wp/v2',
      _links: {
        collection: [{ href: 'http://localhost:80/wp-json/wp/v2/types' }],
        'wp:items': [{ href: 'http://localhost:80/wp-json/wp/v2/posts' }],
        curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
      },
    });
    const page = json(await get(`${api}/types/page?context=edit`, t.auth.editor));
    assert.equal(page.hierarchical, true);
    assert.equal(page.capabilities.edit_posts, 'edit_pages');
    assert.equal(page.viewable, true);
    const authorEdit = await get(`${api}/types/page?context=edit`, t.auth.author);
    assert.equal(authorEdit.statusCode, 403);
    assert.equal(json(authorEdit).code, 'rest_forbidden_context');
    const unknown = await get(`${api}/types/nope`);
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(json(unknown), {
      code: 'rest_type_invalid',
      message: 'Invalid post type.',
      data: { status: 404 },
    });
    assert.equal((await get(`${api}/types?context=edit`)).statusCode, 401);
  });

  test('/statuses shows only publish to the public, and every status to those who edit posts', async () => {
    const publicOnes = json(await get(`${api}/statuses`));
    assert.deepEqual(Object.keys(publicOnes), ['publish']);
    assert.deepEqual(publicOnes.publish, {
      name: 'Published',
      public: true,
      queryable: true,
      slug: 'publish',
      date_floating: false,
      _links: { archives: [{ href: 'http://localhost:80/wp-json/wp/v2/posts' }] },
    });
    const all = json(await get(`${api}/statuses`, t.auth.contributor));
    assert.deepEqual(Object.keys(all), ['publish', 'future', 'draft', 'pending', 'private', 'trash']);
    const draft = await get(`${api}/statuses/draft`);
    assert.equal(draft.statusCode, 401);
    assert.equal(json(draft).code, 'rest_cannot_read_status');
    assert.equal(json(await get(`${api}/statuses/draft?context=edit`, t.auth.author)).protected, true);
    assert.equal(json(await get(`${api}/statuses/nope`)).code, 'rest_status_invalid');
    assert.equal(json(await get(`${api}/statuses?context=edit`, t.auth.subscriber)).code, 'rest_cannot_view');
  });

  test('/taxonomies lists category, post_tag and nav_menu, filters by type and reads one', async () => {
    const all = json(await get(`${api}/taxonomies`));
    assert.deepEqual(Object.keys(all), ['category', 'post_tag', 'nav_menu']);
    assert.deepEqual(all.nav_menu, {
      name: 'Navigation Menus',
      slug: 'nav_menu',
      description: '',
      types: ['nav_menu_item'],
      hierarchical: false,
      rest_base: 'menus',
      rest_namespace: 'wp/v2',
      _links: all.nav_menu._links,
    });
    assert.deepEqual(Object.keys(json(await get(`${api}/taxonomies?type=nav_menu_item`))), ['nav_menu']);
    assert.deepEqual(Object.keys(json(await get(`${api}/taxonomies?type=post`))), ['category', 'post_tag']);
    assert.deepEqual(Object.keys(json(await get(`${api}/taxonomies?context=edit`, t.auth.editor))), [
      'category',
      'post_tag',
    ]);
    const menus = await get(`${api}/taxonomies/nav_menu?context=edit`, t.auth.editor);
    assert.equal(menus.statusCode, 403);
    assert.equal(json(menus).code, 'rest_forbidden_context');
    const asAdmin = json(await get(`${api}/taxonomies/nav_menu?context=edit`, t.auth.admin));
    assert.equal(asAdmin.capabilities.assign_terms, 'edit_theme_options');
    assert.equal(asAdmin.visibility.public, false);
    assert.deepEqual(all.category.types, ['post']);
    assert.equal(all.category.hierarchical, true);
    assert.equal(all.post_tag.rest_base, 'tags');
    assert.equal(all.category.capabilities, undefined);
    // Core casts the empty list to an object.
    assert.deepEqual(json(await get(`${api}/taxonomies?type=page`)), {});
    const tag = json(await get(`${api}/taxonomies/post_tag?context=edit`, t.auth.author));
    assert.equal(tag.capabilities.assign_terms, 'assign_post_tags');
    assert.equal(json(await get(`${api}/taxonomies/genre`)).code, 'rest_taxonomy_invalid');
  });
});

describe('the index', () => {
  test('lists the site routes with their methods and arguments', async () => {
    const routes = json(await get('/wp-json/')).routes;
    assert.deepEqual(routes['/wp/v2/settings'].methods, ['GET', 'POST', 'PUT', 'PATCH']);
    assert.deepEqual(routes['/wp/v2/search'].endpoints[0].args.type.enum, ['post', 'term', 'post-format']);
    assert.deepEqual(routes['/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords'].methods, [
      'GET',
      'POST',
      'DELETE',
    ]);
    assert.ok(routes['/wp/v2/types/(?P<type>[\\w-]+)']);
    assert.deepEqual(routes['/wp/v2/tags/(?P<id>[\\d]+)'].methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    assert.equal(routes['/wp/v2/users'].endpoints[1].args.username.required, true);
  });
});

describe('settings', () => {
  test('administrators read the registered settings; others are refused', async () => {
    const res = await get(`${api}/settings`, t.auth.admin);
    assert.equal(res.statusCode, 200);
    const settings = json(res);
    assert.deepEqual(Object.keys(settings).sort(), [
      'date_format',
      'default_category',
      'default_comment_status',
      'default_ping_status',
      'default_post_format',
      'description',
      'email',
      'language',
      'page_for_posts',
      'page_on_front',
      'posts_per_page',
      'show_on_front',
      'site_icon',
      'site_logo',
      'start_of_week',
      'time_format',
      'timezone',
      'title',
      'url',
      'use_smilies',
    ]);
    assert.equal(settings.title, 'Backlot Sample Site');
    assert.equal(settings.posts_per_page, 10);
    assert.equal(settings.use_smilies, true);
    assert.equal(settings.site_logo, null);
    const editor = await get(`${api}/settings`, t.auth.editor);
    assert.equal(editor.statusCode, 403);
    assert.deepEqual(json(editor), {
      code: 'rest_forbidden',
      message: 'Sorry, you are not allowed to do that.',
      data: { status: 403 },
    });
    assert.equal((await get(`${api}/settings`)).statusCode, 401);
  });

  test('POST saves settings (stored, shown in the index), checks types, and null resets one', async () => {
    const res = await send('POST', `${api}/settings`, t.auth.admin, {
      title: 'My Site',
      posts_per_page: 5,
      use_smilies: false,
      default_comment_status: 'closed',
      unknown_setting: 'ignored',
    });
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).title, 'My Site');
    assert.equal(json(res).posts_per_page, 5);
    assert.equal(json(res).use_smilies, false);
    assert.equal(json(res).default_comment_status, 'closed');
    const stored = await t.db.query<{ name: string; value: unknown }>(
      'SELECT name, value FROM content.options ORDER BY name',
    );
    assert.deepEqual(
      stored.rows.map((r) => [r.name, r.value]),
      [
        ['default_comment_status', 'closed'],
        ['posts_per_page', 5],
        ['title', 'My Site'],
        ['use_smilies', false],
      ],
    );
    assert.equal(json(await get('/wp-json/')).name, 'My Site');
    for (const [payload, param] of [
      [{ posts_per_page: 'many' }, 'posts_per_page'],
      [{ default_ping_status: 'sometimes' }, 'default_ping_status'],
      [{ email: 'nope' }, 'email'],
    ] as const) {
      const bad = await send('POST', `${api}/settings`, t.auth.admin, payload);
      assert.equal(bad.statusCode, 400, param);
      assert.equal(json(bad).code, 'rest_invalid_param');
      assert.ok(json(bad).data.params[param]);
    }
    const reset = await send('PUT', `${api}/settings`, t.auth.admin, { title: null });
    assert.equal(json(reset).title, 'Backlot Sample Site');
    const refused = await send('POST', `${api}/settings`, t.auth.author, { title: 'x' });
    assert.equal(refused.statusCode, 403);
  });
});

describe('search', () => {
  test('finds published posts, title matches first, with paging headers; past the end is 400', async () => {
    const res = await get(`${api}/search?search=testing&per_page=2`);
    assert.equal(res.statusCode, 200);
    const hits = json(res);
    assert.equal(hits.length, 2);
    assert.deepEqual(Object.keys(hits[0]), ['id', 'title', 'url', 'type', 'subtype', '_links']);
    assert.match(hits[0].title, /testing/);
    assert.equal(res.headers['x-wp-total'], '3');
    assert.equal(hits[0].type, 'post');
    assert.equal(hits[0].subtype, 'post');
    assert.equal(hits[0]._links.self[0].href, `http://localhost:80/wp-json/wp/v2/posts/${hits[0].id}`);
    assert.ok(Number(res.headers['x-wp-total']) >= 2);
    const drafts = json(await get(`${api}/search?search=part&per_page=100`));
    const statuses = await t.db.query<{ id: number; status: string }>('SELECT id, status FROM content.posts');
    const published = new Set(statuses.rows.filter((r) => r.status === 'publish').map((r) => r.id));
    assert.ok(drafts.length > 0 && drafts.every((h: Json) => published.has(h.id)));
    assert.deepEqual(json(await get(`${api}/search?search=caching&subtype=page`)), []);
    // Pages are searched too: subtype=page alone, and with any (the default) next to posts.
    const pages = json(await get(`${api}/search?search=contact&subtype=page`));
    assert.deepEqual(
      pages.map((h: Json) => [
        h.id,
        h.title,
        h.subtype,
        h.url,
        h._links.self[0].href,
        h._links.about[0].href,
      ]),
      [
        [
          33,
          'Contact',
          'page',
          'http://localhost:80/contact/',
          'http://localhost:80/wp-json/wp/v2/pages/33',
          'http://localhost:80/wp-json/wp/v2/types/page',
        ],
      ],
    );
    const anyType = json(await get(`${api}/search?search=team&subtype=any&per_page=100`));
    assert.ok(anyType.some((h: Json) => h.id === 32 && h.subtype === 'page'));
    const postsOnly = json(await get(`${api}/search?search=team&subtype=post&per_page=100`));
    assert.ok(postsOnly.every((h: Json) => h.subtype === 'post'));
    const draftPage = json(await get(`${api}/search?search=upcoming&subtype=page`));
    assert.deepEqual(draftPage, []);
    // Past the end: posts answer 200 [] with a total of 0 as core's WP_Query does; terms are 400.
    const past = await get(`${api}/search?search=caching&page=99`);
    assert.equal(past.statusCode, 200);
    assert.deepEqual(json(past), []);
    assert.deepEqual([past.headers['x-wp-total'], past.headers['x-wp-totalpages']], ['0', '0']);
    const pastTerms = await get(`${api}/search?type=term&search=news&page=9`);
    assert.equal(pastTerms.statusCode, 400);
    assert.equal(json(pastTerms).code, 'rest_search_invalid_page_number');
    const terms = json(await get(`${api}/search?type=term&search=news`));
    // A term's type is its taxonomy, and it has no subtype (core's term search handler).
    assert.deepEqual(
      terms.map((h: Json) => [h.title, h.type, 'subtype' in h]),
      [['News', 'category', false]],
    );
    const bad = await get(`${api}/search?type=people`);
    assert.equal(bad.statusCode, 400);
    assert.equal(json(bad).code, 'rest_invalid_param');
  });
});
