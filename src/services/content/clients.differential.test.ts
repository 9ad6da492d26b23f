import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { basic, type ContentTest, type Json, published, startContent } from '../../../test/content.js';
import {
  requireWordPress,
  startAlongside,
  type TestWordPress,
  wordPressSkip,
} from '../../../test/wordpress.js';

// The clients people point at a WordPress stand-in, unchanged, against a real WordPress 6.1 and against backlot:
// the same calls must give the same results. wpapi and @wordpress/api-fetch are devDependencies.

// wpapi ships CommonJS without types.
const WPAPI = createRequire(import.meta.url)('wpapi');

const skip = wordPressSkip();
let wordpress: TestWordPress;
let backlot: ContentTest;

before(async () => {
  if (skip) return;
  requireWordPress();
  [wordpress, backlot] = await startAlongside(() => startContent({ listen: true }));
});

after(async () => {
  await wordpress?.stop();
  await backlot?.close();
});

type Side = { name: string; url: string; password: string };
const sides = (): Side[] => [
  { name: 'WordPress', url: wordpress.url, password: wordpress.adminAppPassword },
  { name: 'backlot', url: backlot.url, password: backlot.adminPassword },
];

/** Runs the same client code on both sites, in turn, and answers the two results. */
async function onBoth<T>(run: (side: Side) => Promise<T>): Promise<[T, T]> {
  const [wp, ours] = sides();
  return [await run(wp as Side), await run(ours as Side)];
}

const ids = (items: Json[]) => items.map((item) => item.id);
const errorOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: Json) => ({ code: error.code, status: error.data?.status }),
  );

describe('wpapi 1.2.2', { skip }, () => {
  const client = (side: Side, auth = false) =>
    new WPAPI({
      endpoint: `${side.url}/wp-json`,
      ...(auth && { username: 'admin', password: side.password }),
    });

  test('lists posts page by page with perPage, the paging totals and the next link', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      const first = await client(side).posts().perPage(5).get();
      const second = await first._paging.next.get();
      const { total, totalPages } = first._paging;
      return {
        first: ids(first),
        second: ids(second),
        total,
        totalPages,
        prev: Boolean(second._paging.prev),
      };
    });
    assert.deepEqual(ours, wp);
    assert.equal(wp.total, published);
  });

  test('reads one post, filters by category and by author, and reads terms and public users', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      const post = await client(side).posts().id(1).get();
      const inNews = await client(side).posts().categories(2).perPage(100).get();
      const byEditor = await client(side).posts().author(2).perPage(100).get();
      const categories = await client(side).categories().get();
      const users = await client(side).users().get();
      return {
        post: { id: post.id, slug: post.slug, categories: post.categories, tags: [...post.tags].sort() },
        inNews: ids(inNews),
        byEditor: ids(byEditor),
        categories: categories.map((c: Json) => [c.id, c.name, c.count]),
        users: users.map((u: Json) => [u.id, u.name, u.slug]),
      };
    });
    assert.deepEqual(ours, wp);
  });

  test('creates, updates (PUT) and trashes a post as the administrator', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      const wpapi = client(side, true);
      const created = await wpapi
        .posts()
        .create({ title: 'Made by wpapi', content: 'Body', status: 'publish' });
      const updated = await wpapi.posts().id(created.id).update({ title: 'Renamed by wpapi' });
      const trashed = await wpapi.posts().id(created.id).delete();
      return {
        created: [created.id, created.status, created.title.raw, created.author],
        updated: updated.title.raw,
        trashed: trashed.status,
      };
    });
    assert.deepEqual(ours, wp);
    assert.deepEqual(wp.created, [35, 'publish', 'Made by wpapi', 1]); // after the four seeded pages
  });

  test('reads the signed-in user and deletes a user with force and reassign', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      const me = await client(side, true).users().me().get();
      const removed = await client(side, true).users().id(5).delete({ force: true, reassign: 1 });
      return { me: [me.id, me.name], removed: [removed.deleted, removed.previous.username] };
    });
    assert.deepEqual(ours, wp);
    assert.deepEqual(wp.removed, [true, 'subscriber']);
  });

  test('errors reject with WordPress codes', async () => {
    const [wp, ours] = await onBoth(async (side) => ({
      missing: await errorOf(client(side).posts().id(999).get()),
      anonymous: await errorOf(client(side).posts().create({ title: 'x' })),
    }));
    assert.deepEqual(ours, wp);
  });

  test('autosaves a published post and lists its autosaves; reads a block type through root()', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      const wpapi = client(side, true);
      const saved = await wpapi
        .posts()
        .id(3)
        .autosaves()
        .create({ title: 'Autosaved by wpapi', content: 'Draft text' });
      const listed = await wpapi.posts().id(3).autosaves().get();
      const paragraph = await wpapi.root('wp/v2/block-types/core/paragraph').get();
      const refused = await errorOf(client(side).posts().id(3).autosaves().get());
      return {
        saved: [saved.parent, saved.slug, saved.title.raw, saved.content.raw, saved.author],
        listed: listed.map((a: Json) => a.id === saved.id),
        paragraph: [paragraph.name, paragraph.title, paragraph.category],
        refused,
      };
    });
    assert.deepEqual(ours, wp);
    assert.deepEqual(wp.saved, [3, '3-autosave-v1', 'Autosaved by wpapi', 'Draft text', 1]);
  });

  test('creates a reusable block, lists and reads it, and trashes it (blocks())', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      const wpapi = client(side, true);
      const made = await wpapi.blocks().create({
        title: 'wpapi block',
        content: '<!-- wp:paragraph --><p>Hi</p><!-- /wp:paragraph -->',
        status: 'publish',
      });
      const listed = await wpapi.blocks().get();
      const read = await wpapi.blocks().id(made.id).get();
      const trashed = await wpapi.blocks().id(made.id).delete();
      const refused = await errorOf(client(side).blocks().id(made.id).get());
      return {
        made: [made.type, made.slug, made.title, made.content.block_version],
        listed: listed.map((block: Json) => block.id === made.id),
        read: [read.title, read.content],
        trashed: trashed.status,
        refused,
      };
    });
    assert.deepEqual(ours, wp);
    assert.deepEqual(wp.trashed, 'trash');
    assert.deepEqual(wp.refused, { code: 'rest_forbidden', status: 401 });
  });

  test('lists pages, comments and media', async () => {
    const [wp, ours] = await onBoth(async (side) => ({
      pages: ids(await client(side).pages().get()),
      comments: ids(await client(side).comments().get()),
      media: ids(await client(side).media().get()),
    }));
    assert.deepEqual(ours, wp);
  });
});

// Its default handler calls `window.fetch`, so Node needs a fetch handler. Its types describe the CommonJS build
// (default export one level down) while Node loads its ES build, whose default export is the function.
type ApiFetch = typeof import('@wordpress/api-fetch').default;
const apiFetch = (await import('@wordpress/api-fetch')).default as unknown as ApiFetch;

let target: Side;
/** The Node fetch handler: what api-fetch's default handler does with `window.fetch`, plus Basic auth. */
async function nodeFetchHandler(options: Json) {
  const { url, path, data, parse = true, method = 'GET', headers = {}, body } = options;
  const response = await fetch(url ?? `${target.url}/wp-json/${String(path).replace(/^\//, '')}`, {
    method,
    headers: {
      Accept: 'application/json, */*;q=0.1',
      Authorization: basic('admin', target.password),
      ...(data !== undefined && { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: data !== undefined ? JSON.stringify(data) : body,
  });
  if (!response.ok) {
    if (!parse) throw response;
    throw await response.json().catch(() => ({ code: 'invalid_json' }));
  }
  if (!parse) return response;
  return response.status === 204 ? null : response.json();
}

describe('@wordpress/api-fetch with a fetch handler for Node', { skip }, () => {
  before(() => apiFetch.setFetchHandler(nodeFetchHandler));
  const call = <T>(options: Json) =>
    onBoth<T>((side) => {
      target = side;
      return apiFetch(options);
    });

  test('lists posts and reads every category with per_page=-1 (follows the Link header)', async () => {
    const [wp, ours] = await call<Json[]>({ path: '/wp/v2/posts?per_page=5' });
    assert.deepEqual(ids(ours), ids(wp));
    const [allWp, allOurs] = await call<Json[]>({ path: '/wp/v2/categories?per_page=-1' });
    assert.deepEqual(ids(allOurs), ids(allWp));
  });

  test('creates and updates a post (PUT goes out as POST with X-HTTP-Method-Override)', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      target = side;
      const created = await apiFetch<Json>({
        path: '/wp/v2/posts',
        method: 'POST',
        data: { title: 'api-fetch' },
      });
      const updated = await apiFetch<Json>({
        path: `/wp/v2/posts/${created.id}`,
        method: 'PUT',
        data: { title: 'PUT' },
      });
      return [created.status, created.title.raw, updated.title.raw];
    });
    assert.deepEqual(ours, wp);
  });

  test('makes a menu, adds a link and a post to it, reads it back, updates it and deletes it', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      target = side;
      const menu = await apiFetch<Json>({
        path: '/wp/v2/menus',
        method: 'POST',
        data: { name: 'api-fetch menu', auto_add: true },
      });
      const link = await apiFetch<Json>({
        path: '/wp/v2/menu-items',
        method: 'POST',
        data: { title: 'Home', url: 'https://example.com/', menus: menu.id, menu_order: 1 },
      });
      const post = await apiFetch<Json>({
        path: '/wp/v2/menu-items',
        method: 'POST',
        data: { type: 'post_type', object_id: 1, menus: menu.id, menu_order: 2 },
      });
      const items = await apiFetch<Json[]>({ path: `/wp/v2/menu-items?menus=${menu.id}` });
      const renamed = await apiFetch<Json>({
        path: `/wp/v2/menus/${menu.id}`,
        method: 'PUT',
        data: { name: 'api-fetch renamed' },
      });
      const moved = await apiFetch<Json>({
        path: `/wp/v2/menu-items/${link.id}`,
        method: 'PUT',
        data: { menu_order: 3 },
      });
      const order = await apiFetch<Json[]>({ path: `/wp/v2/menu-items?menus=${menu.id}` });
      const deleted = await apiFetch<Json>({ path: `/wp/v2/menus/${menu.id}?force=true`, method: 'DELETE' });
      const gone = await errorOf(apiFetch({ path: `/wp/v2/menu-items/${post.id}` }));
      return {
        menu: [menu.name, menu.slug, menu.auto_add],
        items: items.map((item) => [
          item.id - link.id,
          item.title.rendered,
          item.type,
          item.object,
          item.url.replace(side.url, ''),
        ]),
        renamed: [renamed.name, renamed.slug],
        moved: moved.menu_order,
        order: order.map((item) => item.id - link.id),
        deleted: [deleted.deleted, deleted.previous.name],
        gone,
      };
    });
    assert.deepEqual(ours, wp);
    assert.deepEqual(ours.order, [1, 0]);
  });

  test('autosaves a draft in place and a published page as an autosave, and lists block types', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      target = side;
      const draft = await apiFetch<Json>({ path: '/wp/v2/posts', method: 'POST', data: { title: 'Draft' } });
      const inPlace = await apiFetch<Json>({
        path: `/wp/v2/posts/${draft.id}/autosaves`,
        method: 'POST',
        data: { title: 'Draft, autosaved', content: 'Typed', excerpt: '' },
      });
      const reread = await apiFetch<Json>({ path: `/wp/v2/posts/${draft.id}?context=edit` });
      const page = await apiFetch<Json>({
        path: '/wp/v2/pages/31/autosaves',
        method: 'POST',
        data: { title: 'About, autosaved', content: 'New text' },
      });
      const latest = await apiFetch<Json>({ path: `/wp/v2/pages/31/autosaves/${page.id}?context=edit` });
      const about = await apiFetch<Json>({ path: '/wp/v2/pages/31?context=edit' });
      const same = await errorOf(
        apiFetch({ path: '/wp/v2/pages/31/autosaves', method: 'POST', data: { title: about.title.raw } }),
      );
      const left = await apiFetch<Json[]>({ path: '/wp/v2/pages/31/autosaves' });
      const types = await apiFetch<Json[]>({ path: '/wp/v2/block-types?_fields=name' });
      return {
        inPlace: [inPlace.id === draft.id, inPlace.title.raw, inPlace.preview_link.replace(side.url, '')],
        reread: [reread.title.raw, reread.content.raw, reread.status],
        page: [
          page.slug,
          page.title.raw,
          page.preview_link.replace(side.url, '').replace(/nonce=\w+/, 'nonce'),
        ],
        latest: [latest.id === page.id, latest.content.raw],
        same,
        left: left.length,
        types: types.map((type) => type.name),
      };
    });
    assert.deepEqual(ours, wp);
    assert.equal(ours.inPlace[0], true);
    assert.equal(ours.types.length, 90);
  });

  test('reusable blocks: create as a draft, publish with PUT, list, read in edit context, delete for good', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      target = side;
      const draft = await apiFetch<Json>({
        path: '/wp/v2/blocks',
        method: 'POST',
        data: { title: 'api-fetch block', content: '<!-- wp:heading --><h2>Hi</h2><!-- /wp:heading -->' },
      });
      const published = await apiFetch<Json>({
        path: `/wp/v2/blocks/${draft.id}`,
        method: 'PUT',
        data: { status: 'publish' },
      });
      const list = await apiFetch<Json[]>({ path: '/wp/v2/blocks?per_page=100' });
      const edit = await apiFetch<Json>({ path: `/wp/v2/blocks/${draft.id}?context=edit` });
      const deleted = await apiFetch<Json>({
        path: `/wp/v2/blocks/${draft.id}?force=true`,
        method: 'DELETE',
      });
      const gone = await errorOf(apiFetch({ path: `/wp/v2/blocks/${draft.id}` }));
      return {
        draft: [
          draft.status,
          draft.slug,
          draft.title,
          draft.link.replace(side.url, '').replace(/\d+$/, 'id'),
        ],
        published: [published.status, published.slug, published.link.replace(side.url, '')],
        listed: list.some((block) => block.id === draft.id),
        edit: [edit.title, edit.content, edit.password, Object.keys(edit._links).sort()],
        deleted: [deleted.deleted, deleted.previous.title],
        gone,
      };
    });
    assert.deepEqual(ours, wp);
    assert.deepEqual(ours.gone, { code: 'rest_post_invalid_id', status: 404 });
  });

  test('navigation menus: create one with links, read it rendered, rename it, list it, delete it', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      target = side;
      const link = (attributes: object) => `<!-- wp:navigation-link ${JSON.stringify(attributes)} /-->`;
      const made = await apiFetch<Json>({
        path: '/wp/v2/navigation',
        method: 'POST',
        data: {
          title: 'api-fetch navigation',
          status: 'publish',
          content:
            link({ label: 'Home', url: 'https://example.com/' }) +
            link({ label: 'About', type: 'page', id: 31, url: '/about/' }),
        },
      });
      const read = await apiFetch<Json>({ path: `/wp/v2/navigation/${made.id}` });
      const renamed = await apiFetch<Json>({
        path: `/wp/v2/navigation/${made.id}`,
        method: 'PUT',
        data: { title: 'Renamed' },
      });
      const listed = await apiFetch<Json[]>({ path: '/wp/v2/navigation' });
      const deleted = await apiFetch<Json>({
        path: `/wp/v2/navigation/${made.id}?force=true`,
        method: 'DELETE',
      });
      return {
        made: [made.type, made.slug, made.title.raw, made.content.block_version],
        read: [read.title, read.content.rendered],
        renamed: renamed.title.raw,
        listed: listed.some((menu) => menu.id === made.id),
        deleted: [deleted.deleted, deleted.previous.title.raw],
      };
    });
    assert.deepEqual(ours, wp);
    assert.match(ours.read[1], /wp-block-navigation-item__label">About</);
  });

  test('reads the signed-in user and refuses an unknown post with its code', async () => {
    const [wp, ours] = await onBoth(async (side) => {
      target = side;
      const me = await apiFetch<Json>({ path: '/wp/v2/users/me' });
      return { me: me.id, missing: await errorOf(apiFetch({ path: '/wp/v2/posts/999' })) };
    });
    assert.deepEqual(ours, wp);
  });
});
