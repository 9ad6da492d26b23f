import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../../test/content.js';
import { blockTypes } from './block-types/index.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const get = (url: string, auth?: string) =>
  t.app.inject({ method: 'GET', url, headers: auth ? { authorization: auth } : {} });

describe('block types (WordPress 6.1, read-only)', () => {
  test('contributors and up read the 90 core block types in WordPress’s order; others are refused', async () => {
    assert.equal(blockTypes.length, 90);
    const list = await get(`${api}/block-types`, t.auth.contributor);
    assert.equal(list.statusCode, 200);
    const names = json(list).map((b: { name: string }) => b.name);
    assert.deepEqual(
      names,
      blockTypes.map((b) => b.name),
    );
    assert.equal(names[0], 'core/legacy-widget');
    assert.ok(names.includes('core/paragraph') && names.includes('core/navigation'));
    for (const [auth, status] of [
      [undefined, 401],
      [t.auth.subscriber, 403],
    ] as const) {
      const refused = await get(`${api}/block-types`, auth);
      assert.equal(refused.statusCode, status);
      assert.deepEqual(json(refused), {
        code: 'rest_block_type_cannot_view',
        message: 'Sorry, you are not allowed to manage block types.',
        data: { status },
      });
    }
  });

  test('one block type with its links; a namespace lists its blocks; unknown ones are 404', async () => {
    const paragraph = json(await get(`${api}/block-types/core/paragraph`, t.auth.admin));
    assert.equal(paragraph.name, 'core/paragraph');
    assert.equal(paragraph.title, 'Paragraph');
    assert.equal(paragraph.is_dynamic, false);
    assert.equal(paragraph.category, 'text');
    assert.deepEqual(Object.keys(paragraph._links), ['collection', 'self', 'up']);
    assert.match(paragraph._links.up[0].href, /\/wp-json\/wp\/v2\/block-types\/core$/);
    const latest = json(await get(`${api}/block-types/core/latest-posts`, t.auth.admin));
    assert.match(
      latest._links['wp:render-block'][0].href,
      /\/block-renderer\/core\/latest-posts\?context=edit$/,
    );
    assert.equal(json(await get(`${api}/block-types/core`, t.auth.admin)).length, 90);
    assert.deepEqual(json(await get(`${api}/block-types/other`, t.auth.admin)), []);
    assert.deepEqual(json(await get(`${api}/block-types?namespace=other`, t.auth.admin)), []);
    const picked = await get(`${api}/block-types?_fields=name,title`, t.auth.admin);
    assert.deepEqual(json(picked)[0], { name: 'core/legacy-widget', title: 'Legacy Widget' });
    const missing = await get(`${api}/block-types/core/nothing`, t.auth.admin);
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(json(missing), {
      code: 'rest_block_type_invalid',
      message: 'Invalid block type.',
      data: { status: 404 },
    });
    // A name outside WordPress's route pattern matches no route there either.
    for (const url of [
      `${api}/block-types/core/a.b`,
      `${api}/block-types/co.re`,
      `${api}/menu-locations/a.b`,
    ]) {
      const outside = await get(url, t.auth.admin);
      assert.equal(outside.statusCode, 404, url);
      assert.equal(json(outside).code, 'rest_no_route', url);
    }
    const write = await t.app.inject({
      method: 'POST',
      url: `${api}/block-types/core/paragraph`,
      headers: { authorization: t.auth.admin },
    });
    assert.equal(write.statusCode, 404);
    assert.equal(json(write).code, 'rest_no_route');
  });
});
