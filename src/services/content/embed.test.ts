import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, ids, type Json, json, startContent } from '../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const get = async (url: string, authorization?: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
};
const rels = (item: Json) => (item._embedded ? Object.keys(item._embedded) : undefined);

describe('_embed names the link relations to embed (rest_parse_embed_param)', () => {
  test('a bare _embed, _embed=1, =true and =0 embed every embeddable link', async () => {
    for (const value of ['', '=', '=1', '=true', '=0']) {
      assert.deepEqual(
        rels(await get(`${api}/posts/1?_embed${value}`)),
        ['author', 'replies', 'wp:term'],
        value,
      );
    }
  });

  test('a list embeds only those relations, in the order of _links; unknown names are ignored', async () => {
    const post = await get(`${api}/posts/1?_embed=wp:term,author,nope`);
    assert.deepEqual(rels(post), ['author', 'wp:term']);
    assert.equal(post._embedded.author[0].id, ids.admin);
    assert.deepEqual(rels(await get(`${api}/posts/1?_embed=author%20replies`)), ['author', 'replies']);
    const list = await get(`${api}/posts?per_page=3&_embed[]=author&_embed[]=nope`);
    assert.equal(list.length, 3);
    assert.ok(list.every((p: Json) => rels(p)?.join() === 'author' && p._embedded.author[0].id === p.author));
  });

  test('the next-page link numbers _embed[] as PHP rebuilds it', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${api}/posts?per_page=2&_embed[]=author&_embed[]=nope`,
    });
    assert.equal(
      res.headers.link,
      '<http://localhost:80/wp-json/wp/v2/posts?per_page=2&_embed%5B0%5D=author&_embed%5B1%5D=nope&page=2>; rel="next"',
    );
  });

  test('nothing to embed: no _embedded at all', async () => {
    const post = await get(`${api}/posts/1?_embed=nope`);
    assert.equal('_embedded' in post, false);
    assert.ok(post._links.author);
    // Pages have no terms: asking for them alone embeds nothing.
    assert.equal('_embedded' in (await get(`${api}/pages/32?_embed=wp:term`)), false);
    assert.deepEqual(rels(await get(`${api}/pages/32?_embed=up`)), ['up']);
  });
});

describe('_embed with _fields', () => {
  test('without _links or _embedded among the fields, neither comes back', async () => {
    assert.deepEqual(await get(`${api}/posts/1?_fields=id,slug&_embed`), {
      id: 1,
      slug: (await get(`${api}/posts/1`)).slug,
    });
  });

  test('_embedded among the fields brings the whole _links and the asked-for embeds', async () => {
    const post = await get(`${api}/posts/1?_fields=id,_embedded&_embed=author`);
    assert.deepEqual(Object.keys(post), ['id', '_links', '_embedded']);
    assert.ok(post._links.self && post._links['wp:term']);
    assert.deepEqual(rels(post), ['author']);
  });

  test('on one item a field under _links keeps every link, as core adds links outside the picked data', async () => {
    const post = await get(`${api}/posts/1?_fields=id,_links.self&_embed=author`);
    assert.ok(post._links.self && post._links.collection);
    assert.deepEqual(rels(post), ['author']);
    const plain = await get(`${api}/posts/1?_fields=_links.self`);
    assert.deepEqual(Object.keys(plain), ['_links']);
    assert.ok(plain._links.author);
  });

  test('in a list _links is picked like data, and only what is left of it is embedded', async () => {
    const [post] = await get(`${api}/posts?per_page=1&_fields=id,_links.author&_embed`);
    assert.deepEqual(Object.keys(post._links), ['author']);
    assert.deepEqual(rels(post), ['author']);
    const [bare] = await get(`${api}/posts?per_page=1&_fields=id,_embedded&_embed`);
    assert.deepEqual(Object.keys(bare), ['id']);
  });

  test('_embedded without _embed is not a field', async () => {
    assert.deepEqual(await get(`${api}/posts/1?_fields=id,_embedded`), { id: 1 });
  });
});

describe('embedded errors', () => {
  test('an author the caller may not see is embedded as the error users/<id> answers', async () => {
    // Post 4 is the contributor's draft; the contributor has published nothing and editors cannot list users.
    const post = await get(`${api}/posts/4?_embed=author`, t.auth.editor);
    assert.deepEqual(post._embedded.author, [
      {
        code: 'rest_user_cannot_view',
        message: 'Sorry, you are not allowed to list users.',
        data: { status: 403 },
      },
    ]);
    const asAdmin = await get(`${api}/posts/4?_embed=author`, t.auth.admin);
    assert.equal(asAdmin._embedded.author[0].id, ids.contributor);
    const asSelf = await get(`${api}/posts/4?_embed=author`, t.auth.contributor);
    assert.equal(asSelf._embedded.author[0].id, ids.contributor);
  });
});

describe('_embed on the other routes: what each linked route answers, in embed context', () => {
  test('comments embed their author, post (up), parent (in-reply-to) and replies (children)', async () => {
    const comments = await get(`${api}/comments?post=1&orderby=id&order=asc&_embed`);
    const [first, reply] = comments;
    assert.equal(reply.parent, first.id);
    assert.deepEqual(rels(first), ['up', 'children']);
    assert.deepEqual(
      first._embedded.children[0].map((c: Json) => c.id),
      [reply.id],
    );
    assert.deepEqual(rels(reply), ['author', 'up', 'in-reply-to']);
    assert.equal(reply._embedded.author[0].id, reply.author);
    assert.equal(reply._embedded.author[0].email, undefined);
    assert.equal(reply._embedded.up[0].id, 1);
    assert.equal(reply._embedded.up[0].content, undefined, 'embed context: no content');
    assert.equal(reply._embedded['in-reply-to'][0].id, first.id);
    assert.equal(reply._embedded['in-reply-to'][0].post, undefined, 'embed context: no post field');
    const only = await get(`${api}/comments/${reply.id}?_embed=in-reply-to`);
    assert.deepEqual(rels(only), ['in-reply-to']);
  });

  test('search results embed the hit itself (self)', async () => {
    const [hit] = await get(`${api}/search?search=caching&per_page=1&_embed`);
    assert.deepEqual(rels(hit), ['self']);
    assert.equal(hit._embedded.self[0].id, hit.id);
    assert.ok(hit._embedded.self[0].excerpt.rendered);
  });

  test('media embeds its author; users and terms have nothing embeddable', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `${api}/media`,
      payload: png,
      headers: {
        authorization: t.auth.editor,
        'content-type': 'image/png',
        'content-disposition': 'attachment; filename=pixel.png',
      },
    });
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    const media = await get(`${api}/media/${json(uploaded).id}?_embed`);
    assert.deepEqual(rels(media), ['author']);
    assert.equal(media._embedded.author[0].id, ids.editor);
    assert.equal('_embedded' in (await get(`${api}/users/1?_embed`)), false);
    assert.equal('_embedded' in (await get(`${api}/categories/1?_embed`)), false);
  });

  test('a child category embeds its parent (up); an unknown one answers its own 404, nothing embedded', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: `${api}/categories`,
      headers: { authorization: t.auth.admin },
      payload: { name: 'Embedded child', parent: 1 },
    });
    assert.equal(made.statusCode, 201, made.body);
    const child = await get(`${api}/categories/${json(made).id}?_embed`);
    assert.deepEqual(rels(child), ['up']);
    assert.equal(child._embedded.up[0].id, 1);
    assert.equal(child._embedded.up[0].count, undefined, 'embed context: no count');
    const missing = await t.app.inject({ method: 'GET', url: `${api}/categories/9999?_embed` });
    assert.equal(missing.statusCode, 404);
    assert.equal(json(missing).code, 'rest_term_invalid');
  });

  test('_fields: lists keep the links picked, items all of them when _embedded is asked for', async () => {
    const [listed] = await get(`${api}/comments?post=1&orderby=id&order=desc&_fields=id,_embedded&_embed`);
    assert.deepEqual(Object.keys(listed), ['id']);
    const [picked] = await get(`${api}/comments?post=1&orderby=id&order=desc&_fields=id,_links.up&_embed`);
    assert.deepEqual(Object.keys(picked._links), ['up']);
    assert.deepEqual(rels(picked), ['up']);
    const one = await get(`${api}/comments/${listed.id}?_fields=id,_embedded&_embed=author`);
    assert.deepEqual(Object.keys(one), ['id', '_links', '_embedded']);
    assert.deepEqual(rels(one), ['author']);
  });
});
