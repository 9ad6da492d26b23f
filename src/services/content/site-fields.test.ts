import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../test/content.js';

// Search results, taxonomies and post types as WordPress 6.1 answers them (measured by the differential test).

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const get = (url: string, authorization?: string) =>
  t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
const site = 'http://localhost:80';

describe('search, taxonomies and types', () => {
  test('a term found by /search has its taxonomy as type and no subtype; every result links the search', async () => {
    const [news] = json(await get(`${api}/search?search=news&type=term`));
    assert.deepEqual(
      { ...news, _links: undefined },
      { id: news.id, title: 'News', url: `${site}/category/news/`, type: 'category', _links: undefined },
    );
    assert.deepEqual(news._links.collection, [{ href: `${site}/wp-json/wp/v2/search` }]);
    assert.deepEqual(news._links.about, [{ href: `${site}/wp-json/wp/v2/taxonomies/category` }]);
    const [page] = json(await get(`${api}/search?search=contact&subtype=page`));
    assert.equal(page.type, 'post');
    assert.equal(page.subtype, 'page');
    assert.deepEqual(page._links.collection, [{ href: `${site}/wp-json/wp/v2/search` }]);
  });

  test('a post type without taxonomies answers an empty object', async () => {
    const res = await get(`${api}/taxonomies?type=page`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '{}');
    assert.deepEqual(Object.keys(json(await get(`${api}/taxonomies?type=post`))), ['category', 'post_tag']);
  });

  test('a post type in edit context has core’s capabilities, labels and visibility', async () => {
    const page = json(await get(`${api}/types/page?context=edit`, t.auth.admin));
    assert.deepEqual(page.visibility, { show_in_nav_menus: true, show_ui: true });
    assert.equal(page.capabilities.read, 'read');
    assert.equal(page.capabilities.edit_published_posts, 'edit_published_pages');
    assert.equal(page.capabilities.delete_others_posts, 'delete_others_pages');
    assert.equal(Object.keys(page.capabilities).length, 15);
    assert.equal(Object.keys(page.labels).length, 34);
    assert.equal(page.labels.add_new_item, 'Add New Page');
    assert.equal(page.labels.parent_item_colon, 'Parent Page:');
    const media = json(await get(`${api}/types/attachment?context=edit`, t.auth.admin));
    assert.deepEqual(media.visibility, { show_in_nav_menus: false, show_ui: true });
    assert.equal(media.labels.view_item, 'View Attachment Page');
    assert.equal(media.capabilities.create_posts, 'upload_files');
    // Outside edit context these stay hidden, as core's schema says.
    const view = json(await get(`${api}/types/page`));
    for (const key of ['visibility', 'labels', 'capabilities']) assert.equal(key in view, false);
  });
});
