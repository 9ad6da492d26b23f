import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ContentTest, json, startContent } from '../../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const site = 'http://localhost:80';
const get = (path: string, auth?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/wp-json/oembed/1.0${path}`,
    headers: auth ? { authorization: auth } : {},
  });
const notFound = { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } };

describe('oEmbed (WordPress 6.1)', () => {
  test('an address whose last segment is a NUL or a malformed escape names no post: 404, not 500', async () => {
    for (const url of ['%2500', `${site}/%2500/`, `${site}/%25E0%25A4/`]) {
      const res = await get(`/embed?url=${url}`);
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(json(res), notFound, url);
    }
  });

  test('a published page by its permalink: the rich type, sized to maxwidth', async () => {
    const res = await get(`/embed?url=${encodeURIComponent(`${site}/about/`)}&maxwidth=450`);
    assert.equal(res.statusCode, 200);
    const { html, ...data } = json(res);
    assert.deepEqual(data, {
      version: '1.0',
      provider_name: 'Backlot Sample Site',
      provider_url: site,
      author_name: 'Ada Admin',
      author_url: `${site}/author/admin/`,
      title: 'About',
      type: 'rich',
      width: 450,
      height: 254,
    });
    const secret = /data-secret="(\w{10})"/.exec(html)?.[1];
    assert.ok(secret, html);
    assert.equal(
      html,
      `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${site}/about/">About</a></blockquote>` +
        `<iframe sandbox="allow-scripts" security="restricted" src="${site}/about/embed/#?secret=${secret}" width="450" height="254" title="&#8220;About&#8221; &#8212; Backlot Sample Site" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`,
    );
  });

  test('?p= links, widths kept within 200–600, _fields, and format=xml', async () => {
    const small = await get(
      `/embed?url=${encodeURIComponent(`${site}/?p=1`)}&maxwidth=10&_fields=width,height,title`,
    );
    assert.deepEqual(json(small), {
      width: 200,
      height: 200,
      title: 'Getting started with REST clients, part 1',
    });
    const xml = await get(`/embed?url=${encodeURIComponent(`${site}/about/`)}&format=xml`);
    assert.equal(xml.statusCode, 200);
    assert.equal(xml.headers['content-type'], 'text/xml; charset=UTF-8');
    assert.match(
      xml.body,
      /^<\?xml version="1\.0"\?>\n<oembed><version>1\.0<\/version><provider_name>Backlot Sample Site<\/provider_name>/,
    );
    assert.match(
      xml.body,
      /<title>About<\/title><type>rich<\/type><width>600<\/width><height>338<\/height><html>&lt;blockquote /,
    );
  });

  test('drafts, unknown paths, other sites (offline) and a missing url', async () => {
    const draft = await t.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/posts',
      payload: { title: 'Unpublished', status: 'draft' },
      headers: { authorization: t.auth.admin },
    });
    for (const url of [
      `${site}/?p=${json(draft).id}`,
      `${site}/no-such-post/`,
      'https://example.com/a-post/',
    ]) {
      const res = await get(`/embed?url=${encodeURIComponent(url)}`);
      assert.deepEqual([res.statusCode, json(res)], [404, notFound], url);
    }
    const missing = await get('/embed');
    assert.deepEqual(json(missing), {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): url',
      data: { status: 400, params: ['url'] },
    });
  });

  test('the proxy: who may edit posts, for this site’s own addresses', async () => {
    const own = `/proxy?url=${encodeURIComponent(`${site}/about/`)}&_fields=title,type`;
    assert.deepEqual(json(await get(own, t.auth.contributor)), { title: 'About', type: 'rich' });
    const message = 'Sorry, you are not allowed to make proxied oEmbed requests.';
    assert.deepEqual(json(await get(own, t.auth.subscriber)), {
      code: 'rest_forbidden',
      message,
      data: { status: 403 },
    });
    assert.equal((await get(own)).statusCode, 401);
    const other = await get(`/proxy?url=${encodeURIComponent('https://example.com/')}`, t.auth.admin);
    assert.deepEqual([other.statusCode, json(other)], [404, notFound]);
  });
});
