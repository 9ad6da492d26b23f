import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, type Json, json, startContent } from '../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const send = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  auth?: string,
  payload?: object,
) => t.app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });
const termRow = async (id: number) =>
  (await t.db.query<Record<string, unknown>>('SELECT * FROM content.terms WHERE id = $1', [id])).rows[0];

describe('creating terms', () => {
  test('authors and contributors may create tags (assign_terms) but not categories', async () => {
    const tag = await send('POST', `${api}/tags`, t.auth.contributor, { name: 'Deno' });
    assert.equal(tag.statusCode, 201);
    assert.equal(json(tag).slug, 'deno');
    const category = await send('POST', `${api}/categories`, t.auth.author, { name: 'Deno' });
    assert.equal(category.statusCode, 403);
    assert.equal(json(category).code, 'rest_cannot_create');
    const subscriber = await send('POST', `${api}/tags`, t.auth.subscriber, { name: 'Bun' });
    assert.equal(subscriber.statusCode, 403);
    const parent = await send('POST', `${api}/tags`, t.auth.editor, { name: 'Bun', parent: 1 });
    assert.equal(parent.statusCode, 400);
    assert.equal(json(parent).code, 'rest_taxonomy_not_hierarchical');
    const again = await send('POST', `${api}/tags`, t.auth.author, { name: 'deno' });
    assert.deepEqual(json(again), {
      code: 'term_exists',
      message: 'A term with the name provided already exists in this taxonomy.',
      data: { status: 400, term_id: json(tag).id },
    });
    // A blank name passes the schema and is core's empty_term_name (400 here, where core answers 500).
    for (const name of ['', '   ']) {
      const blank = await send('POST', `${api}/tags`, t.auth.editor, { name });
      assert.equal(blank.statusCode, 400);
      assert.deepEqual(json(blank), {
        code: 'empty_term_name',
        message: 'A name is required for this term.',
        data: { status: 400 },
      });
    }
  });
});

describe('updating and deleting terms', () => {
  test('editors rename, re-slug and re-parent a category with POST, PUT or PATCH', async () => {
    const created = json(await send('POST', `${api}/categories`, t.auth.editor, { name: 'Guides' }));
    const res = await send('PATCH', `${api}/categories/${created.id}`, t.auth.editor, {
      name: 'How-tos',
      slug: 'how tos',
      parent: 3,
      description: 'Practical.',
    });
    assert.equal(res.statusCode, 200);
    const body = json(res);
    assert.equal(body.name, 'How-tos');
    assert.equal(body.slug, 'how-tos');
    assert.equal(body.parent, 3);
    assert.equal(body.description, 'Practical.');
    const row = await termRow(created.id);
    assert.equal(row?.name, 'How-tos');
    const put = await send('PUT', `${api}/categories/${created.id}`, t.auth.admin, { name: 'Howtos' });
    assert.equal(json(put).name, 'Howtos');
    assert.equal(json(put).slug, 'how-tos');
  });

  test('updates need manage_categories; unknown ids are 404; taken slugs are refused', async () => {
    const author = await send('POST', `${api}/tags/6`, t.auth.author, { name: 'JS' });
    assert.equal(author.statusCode, 403);
    assert.deepEqual(json(author), {
      code: 'rest_cannot_update',
      message: 'Sorry, you are not allowed to edit this term.',
      data: { status: 403 },
    });
    const anonymous = await send('POST', `${api}/tags/6`, undefined, { name: 'JS' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal((await send('POST', `${api}/tags/999`, t.auth.admin, { name: 'x' })).statusCode, 404);
    const taken = await send('POST', `${api}/tags/6`, t.auth.admin, { slug: 'typescript' });
    assert.equal(taken.statusCode, 400);
    assert.equal(json(taken).code, 'duplicate_term_slug');
    const badParent = await send('POST', `${api}/categories/2`, t.auth.admin, { parent: 999 });
    assert.equal(json(badParent).code, 'rest_term_invalid');
  });

  test('deleting needs force=true (terms have no trash) and moves posts to the default category', async () => {
    const created = json(await send('POST', `${api}/categories`, t.auth.editor, { name: 'Doomed' }));
    const child = json(
      await send('POST', `${api}/categories`, t.auth.editor, { name: 'Doomed child', parent: created.id }),
    );
    await t.db.query('DELETE FROM content.post_terms WHERE post_id = 2');
    await t.db.query('INSERT INTO content.post_terms (post_id, term_id) VALUES (2, $1)', [created.id]);
    const trash = await send('DELETE', `${api}/categories/${created.id}`, t.auth.editor);
    assert.equal(trash.statusCode, 501);
    assert.deepEqual(json(trash), {
      code: 'rest_trash_not_supported',
      message: "Terms do not support trashing. Set 'force=true' to delete.",
      data: { status: 501 },
    });
    const refused = await send('DELETE', `${api}/categories/${created.id}?force=true`, t.auth.author);
    assert.equal(json(refused).code, 'rest_cannot_delete');
    const res = await send('DELETE', `${api}/categories/${created.id}?force=true`, t.auth.editor);
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).deleted, true);
    assert.equal(json(res).previous.name, 'Doomed');
    assert.equal(await termRow(created.id), undefined);
    assert.equal((await termRow(child.id))?.parent, 0);
    const post = json(await send('GET', `${api}/posts/2`));
    assert.deepEqual(post.categories, [1]);
    const uncategorized = await send('DELETE', `${api}/categories/1?force=true`, t.auth.admin);
    assert.equal(uncategorized.statusCode, 403);
    const tag = await send('DELETE', `${api}/tags/13`, t.auth.admin, { force: true });
    assert.equal(tag.statusCode, 200);
  });
});

describe('listing terms', () => {
  test('exclude, include, slug, parent, hide_empty and post filter; past the last page is 200 []', async () => {
    const excluded = json(await send('GET', `${api}/categories?exclude=1,2`));
    assert.ok(excluded.every((c: Json) => c.id !== 1 && c.id !== 2));
    assert.ok(excluded.length > 0);
    const children = json(await send('GET', `${api}/categories?parent=0&per_page=100`));
    assert.ok(children.every((c: Json) => c.parent === 0));
    const slugs = json(await send('GET', `${api}/tags?slug=rest,design`));
    assert.deepEqual(slugs.map((c: Json) => c.slug).sort(), ['design', 'rest']);
    const nonEmpty = json(await send('GET', `${api}/tags?hide_empty=true&per_page=100`));
    assert.ok(nonEmpty.every((c: Json) => c.count > 0));
    const past = await send('GET', `${api}/tags?page=99`);
    assert.equal(past.statusCode, 200);
    assert.deepEqual(json(past), []);
    assert.ok(Number(past.headers['x-wp-total']) > 0);
    const bad = await send('GET', `${api}/tags?exclude=x`);
    assert.equal(bad.statusCode, 400);
    assert.equal(json(bad).code, 'rest_invalid_param');
    assert.ok(json(bad).data.params.exclude);
  });
});
