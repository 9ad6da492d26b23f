import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../test/content.js';

// An attachment's `link` (get_attachment_link in WordPress 6.1): under the parent's permalink when attached.

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const site = 'http://localhost:80';
const upload = async (name: string, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `${api}/media${query}`,
    payload: Buffer.from('plain text'),
    headers: {
      authorization: t.auth.admin,
      'content-type': 'text/plain',
      'content-disposition': `attachment; filename="${name}"`,
    },
  });

describe('attachment links', () => {
  test('an attached file lives under its post’s permalink, in every answer', async () => {
    const res = await upload('attached.txt', '?post=1');
    assert.equal(res.statusCode, 201);
    const file = json(res);
    const link = `${site}/getting-started-with-rest-clients-part-1/attached/`;
    assert.equal(file.link, link);
    assert.equal(file.permalink_template, `${site}/getting-started-with-rest-clients-part-1/%postname%/`);
    const read = await t.app.inject({ method: 'GET', url: `${api}/media/${file.id}` });
    assert.equal(json(read).link, link);
    assert.equal(read.headers.link, `<${link}>; rel="alternate"; type=text/html`);
    const [listed] = json(await t.app.inject({ method: 'GET', url: `${api}/media?parent=1` }));
    assert.equal(listed.link, link);
    await t.app.inject({
      method: 'POST',
      url: `${api}/posts/1`,
      payload: { featured_media: file.id },
      headers: { authorization: t.auth.admin },
    });
    const post = json(await t.app.inject({ method: 'GET', url: `${api}/posts/1?_embed=wp:featuredmedia` }));
    assert.equal(post._embedded['wp:featuredmedia'][0].link, link);
  });

  test('unattached files are at the site root; those of a draft only by id', async () => {
    assert.equal(json(await upload('loose.txt')).link, `${site}/loose/`);
    const draft = json(
      await t.app.inject({
        method: 'POST',
        url: `${api}/posts`,
        payload: { title: 'Unpublished', status: 'draft' },
        headers: { authorization: t.auth.admin },
      }),
    );
    const hidden = json(await upload('hidden.txt', `?post=${draft.id}`));
    assert.equal(hidden.link, `${site}/?attachment_id=${hidden.id}`);
  });

  test('a numeric slug under a post gets the attachment/ marker (it would read as a page number)', async () => {
    const numbered = json(await upload('2024.txt', '?post=1'));
    assert.equal(numbered.slug, '2024');
    assert.equal(numbered.link, `${site}/getting-started-with-rest-clients-part-1/attachment/2024/`);
  });
});
