import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });
const refusal = (status: number, code: string, message: string) => ({ code, message, data: { status } });

describe('themes (WordPress 6.1, read-only)', () => {
  test('administrators list the active theme, Twenty Twenty-Three, with its paging headers', async () => {
    const res = await send('GET', `${api}/themes`, t.auth.admin);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-wp-total'], '1');
    assert.equal(res.headers['x-wp-totalpages'], '1');
    assert.equal(res.headers.allow, 'GET');
    const [theme] = json(res);
    assert.equal(theme.stylesheet, 'twentytwentythree');
    assert.equal(theme.status, 'active');
    assert.deepEqual(theme.name, { raw: 'Twenty Twenty-Three', rendered: 'Twenty Twenty-Three' });
    assert.equal(theme.screenshot, 'http://localhost:80/wp-content/themes/twentytwentythree/screenshot.png');
    assert.equal(theme.theme_supports['block-templates'], true);
    assert.deepEqual(theme._links, {
      self: [{ href: 'http://localhost:80/wp-json/wp/v2/themes/twentytwentythree' }],
      collection: [{ href: 'http://localhost:80/wp-json/wp/v2/themes' }],
    });
    const inactive = await send('GET', `${api}/themes?status=inactive`, t.auth.admin);
    assert.deepEqual([json(inactive), inactive.headers['x-wp-total']], [[], '0']);
    const one = await send('GET', `${api}/themes/twentytwentythree?_fields=stylesheet,version`, t.auth.admin);
    assert.deepEqual(json(one), { stylesheet: 'twentytwentythree', version: '1.0' });
    const other = await send('GET', `${api}/themes/twentytwentytwo`, t.auth.admin);
    assert.deepEqual(
      [other.statusCode, json(other)],
      [404, refusal(404, 'rest_theme_not_found', 'Theme not found.')],
    );
  });

  test('whoever may edit posts reads the active theme only; others are refused', async () => {
    const active = await send('GET', `${api}/themes?status=active&_fields=stylesheet`, t.auth.contributor);
    assert.deepEqual([active.statusCode, json(active)], [200, [{ stylesheet: 'twentytwentythree' }]]);
    const byName = await send('GET', `${api}/themes/twentytwentythree?_fields=status`, t.auth.author);
    assert.deepEqual(json(byName), { status: 'active' });
    const all = await send('GET', `${api}/themes`, t.auth.editor);
    assert.deepEqual(
      [all.statusCode, json(all)],
      [403, refusal(403, 'rest_cannot_view_themes', 'Sorry, you are not allowed to view themes.')],
    );
    const viewActive = 'Sorry, you are not allowed to view the active theme.';
    const subscriber = await send('GET', `${api}/themes?status=active`, t.auth.subscriber);
    assert.deepEqual(json(subscriber), refusal(403, 'rest_cannot_view_active_theme', viewActive));
    const anonymous = await send('GET', `${api}/themes/twentytwentythree`);
    assert.deepEqual(json(anonymous), refusal(401, 'rest_cannot_view_active_theme', viewActive));
    const write = await send('POST', `${api}/themes/twentytwentythree`, t.auth.admin, {});
    assert.deepEqual([write.statusCode, json(write).code], [404, 'rest_no_route']);
  });
});

describe('plugins (WordPress 6.1, none installed, offline)', () => {
  const manage = 'Sorry, you are not allowed to manage plugins for this site.';
  test('administrators list none; any plugin is not found, whatever they do with it', async () => {
    const list = await send('GET', `${api}/plugins?status=active`, t.auth.admin);
    assert.deepEqual([list.statusCode, json(list), list.headers.allow], [200, [], 'GET, POST']);
    for (const [method, url, payload] of [
      ['GET', `${api}/plugins/akismet/akismet`],
      ['POST', `${api}/plugins/hello`, { status: 'active' }],
      ['DELETE', `${api}/plugins/akismet/akismet`],
    ] as const) {
      const res = await send(method, url, t.auth.admin, payload);
      assert.deepEqual(
        [res.statusCode, json(res)],
        [404, refusal(404, 'rest_plugin_not_found', 'Plugin not found.')],
      );
      assert.equal(res.headers.allow, undefined);
    }
    const dotted = await send('GET', `${api}/plugins/a.b`, t.auth.admin);
    assert.deepEqual([dotted.statusCode, json(dotted).code], [404, 'rest_no_route']);
  });

  test('installing asks WordPress.org, which an offline site cannot reach (500 plugins_api_failed)', async () => {
    const res = await send('POST', `${api}/plugins`, t.auth.admin, { slug: 'hello-dolly' });
    assert.equal(res.statusCode, 500);
    assert.equal(json(res).code, 'plugins_api_failed');
    assert.deepEqual(json(res).additional_data, ['User has blocked requests through HTTP.']);
    const missing = await send('POST', `${api}/plugins`, t.auth.admin, {});
    assert.deepEqual(json(missing), {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): slug',
      data: { status: 400, params: ['slug'] },
    });
  });

  test('others are refused with core’s codes, before the plugin is looked up', async () => {
    const cases = [
      ['GET', `${api}/plugins`, undefined, 401, 'rest_cannot_view_plugins', manage],
      ['GET', `${api}/plugins/hello`, t.auth.editor, 403, 'rest_cannot_view_plugin', manage],
      ['PUT', `${api}/plugins/hello`, t.auth.editor, 403, 'rest_cannot_manage_plugins', manage],
      ['DELETE', `${api}/plugins/hello`, t.auth.author, 403, 'rest_cannot_manage_plugins', manage],
      [
        'POST',
        `${api}/plugins`,
        t.auth.editor,
        403,
        'rest_cannot_install_plugin',
        'Sorry, you are not allowed to install plugins on this site.',
      ],
    ] as const;
    for (const [method, url, auth, status, code, message] of cases) {
      const payload = method === 'GET' || method === 'DELETE' ? undefined : { slug: 'x', status: 'inactive' };
      const res = await send(method, url, auth, payload);
      assert.deepEqual(
        [res.statusCode, json(res)],
        [status, refusal(status, code, message)],
        `${method} ${url}`,
      );
    }
  });
});
