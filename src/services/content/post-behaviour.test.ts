import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, type Json, json, published, startContent } from '../../../test/content.js';

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const get = (url: string, authorization?: string) =>
  t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
const send = (method: 'POST' | 'PUT', url: string, authorization: string, payload: object) =>
  t.app.inject({ method, url, payload, headers: { authorization } });
const idsOf = (res: { json(): Json }) => res.json().map((p: Json) => p.id);

describe('listing like WordPress', () => {
  test('page without per_page pages by 10; neither one gives the full list', async () => {
    const first = await get(`${api}/posts?page=1`);
    assert.equal(json(first).length, 10);
    assert.equal(first.headers['x-wp-totalpages'], String(Math.ceil(published / 10)));
    const second = await get(`${api}/posts?page=2`);
    assert.equal(json(second).length, published - 10);
    assert.match(String(second.headers.link), /page=1>; rel="prev"/);
    assert.equal(json(await get(`${api}/posts`)).length, published);
  });

  test('before, after and modified_* are strict bounds; a bad date is rest_invalid_param with details', async () => {
    assert.deepEqual(idsOf(await get(`${api}/posts?before=2024-01-05T00:00:00`)), [3, 2, 1]);
    assert.deepEqual(idsOf(await get(`${api}/posts?after=2024-01-25T00:00:00Z`)), [29, 27, 26, 25]);
    assert.deepEqual(
      idsOf(await get(`${api}/posts?modified_after=2024-01-20T00:00:00&modified_before=2024-01-23T00:00:00`)),
      [22, 21],
    );
    // An offset is converted: 02:00+03:00 is 23:00 the day before.
    assert.deepEqual(idsOf(await get(`${api}/posts?before=2024-01-04T02:00:00%2B03:00`)), [3, 2, 1]);
    const bad = await get(`${api}/posts?after=yesterday`);
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(json(bad), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): after',
      data: {
        status: 400,
        params: { after: 'Invalid date.' },
        details: { after: { code: 'rest_invalid_date', message: 'Invalid date.', data: null } },
      },
    });
  });

  test('categories_exclude, tags_exclude and tax_relation', async () => {
    const withoutFirst = json(await get(`${api}/posts?categories_exclude=1`));
    assert.equal(withoutFirst.length, 15);
    assert.ok(withoutFirst.every((p: Json) => !p.categories.includes(1)));
    assert.ok(
      json(await get(`${api}/posts?tags_exclude=6,7`)).every(
        (p: Json) => !p.tags.some((id: number) => id === 6 || id === 7),
      ),
    );
    assert.deepEqual(idsOf(await get(`${api}/posts?categories=2&tags=6`)), [21]);
    assert.deepEqual(
      idsOf(await get(`${api}/posts?categories=2&tags=6&tax_relation=OR`)),
      [29, 26, 21, 13, 6, 5, 1],
    );
    const bad = json(await get(`${api}/posts?tax_relation=XOR`));
    assert.equal(bad.code, 'rest_invalid_param');
    assert.deepEqual(bad.data.params, { tax_relation: 'tax_relation is not one of AND and OR.' });
    assert.equal(bad.data.details.tax_relation.code, 'rest_not_in_enum');
    assert.equal(
      json(await get(`${api}/posts?categories_exclude=x`)).data.details.categories_exclude.code,
      'rest_invalid_type',
    );
  });
});

describe('writing like WordPress', () => {
  test('a future date with publish schedules; a past date on a scheduled post publishes it', async () => {
    const scheduled = json(
      await send('POST', `${api}/posts`, t.auth.admin, {
        title: 'Later',
        status: 'publish',
        date: '2999-01-01T00:00:00',
      }),
    );
    assert.equal(scheduled.status, 'future');
    const published = json(
      await send('POST', `${api}/posts/${scheduled.id}`, t.auth.admin, { date: '2020-01-01T00:00:00' }),
    );
    assert.equal(published.status, 'publish');
    assert.equal(
      json(
        await send('POST', `${api}/posts/30`, t.auth.admin, {
          status: 'future',
          date: '2021-05-05T05:05:05',
        }),
      ).status,
      'publish',
    );
  });

  test('dates with offsets are converted and date_gmt alone sets the date', async () => {
    const offset = json(
      await send('POST', `${api}/posts`, t.auth.admin, {
        title: 'Offset',
        date: '2024-03-01T12:00:00+02:00',
      }),
    );
    assert.deepEqual([offset.date, offset.date_gmt], ['2024-03-01T10:00:00', '2024-03-01T10:00:00']);
    const gmt = json(
      await send('POST', `${api}/posts`, t.auth.admin, { title: 'GMT', date_gmt: '2024-03-02T08:00:00' }),
    );
    assert.equal(gmt.date, '2024-03-02T08:00:00');
    const bad = json(
      await send('POST', `${api}/posts`, t.auth.admin, { title: 'Bad', date: '2024-02-30T00:00:00' }),
    );
    assert.equal(bad.data.details.date.code, 'rest_invalid_date');
  });

  test('values are coerced as core does: "2,3", ["6"], "false" and form arrays', async () => {
    const created = json(
      await send('POST', `${api}/posts`, t.auth.editor, {
        title: 'Coerced',
        categories: '2,3',
        tags: ['6'],
        sticky: 'false',
        author: '2',
      }),
    );
    assert.deepEqual(
      [created.categories, created.tags, created.sticky, created.author],
      [[2, 3], [6], false, 2],
    );
    const form = await t.app.inject({
      method: 'POST',
      url: `${api}/posts`,
      headers: { authorization: t.auth.editor, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'title=Form&tags[]=6&tags[]=7&categories=4',
    });
    assert.equal(form.statusCode, 201);
    assert.deepEqual([json(form).tags, json(form).categories], [[6, 7], [4]]);
    const bad = json(await send('POST', `${api}/posts`, t.auth.editor, { title: 'x', categories: 'a,b' }));
    assert.equal(bad.code, 'rest_invalid_param');
  });

  test('titles, content and excerpts are texturized and block delimiters removed', async () => {
    const post = json(
      await send('POST', `${api}/posts`, t.auth.admin, {
        title: `"Quoted" -- it's... A & B`,
        content: "<!-- wp:paragraph -->\n<p>Don't stop</p>\n<!-- /wp:paragraph -->",
        excerpt: 'Tom & Jerry',
        status: 'publish',
      }),
    );
    assert.equal(post.title.rendered, '&#8220;Quoted&#8221; &#8212; it&#8217;s&#8230; A &#038; B');
    assert.equal(post.title.raw, `"Quoted" -- it's... A & B`);
    assert.equal(post.content.rendered, '\n<p>Don&#8217;t stop</p>\n');
    assert.equal(post.excerpt.rendered, '<p>Tom &#038; Jerry</p>\n');
    const code = json(
      await send('POST', `${api}/posts`, t.auth.admin, {
        title: 'Code',
        content: '<code>a--b "c"</code> &amp; 1--2',
      }),
    );
    assert.equal(code.content.rendered, '<p><code>a--b "c"</code> &amp; 1&#8211;2</p>\n');
  });

  test('a password protects content and excerpt until it is given; editors always see them', async () => {
    const created = json(
      await send('POST', `${api}/posts`, t.auth.admin, {
        title: 'Secret',
        content: 'Hidden words',
        status: 'publish',
        password: 'opensesame',
      }),
    );
    assert.equal(created.password, 'opensesame');
    const locked = json(await get(`${api}/posts/${created.id}`));
    assert.deepEqual(locked.content, { rendered: '', protected: true });
    assert.deepEqual(locked.excerpt, { rendered: '', protected: true });
    assert.equal('password' in locked, false);
    const opened = json(await get(`${api}/posts/${created.id}?password=opensesame`));
    assert.equal(opened.content.rendered, '<p>Hidden words</p>\n');
    const wrong = await get(`${api}/posts/${created.id}?password=nope`);
    assert.equal(wrong.statusCode, 403);
    assert.equal(json(wrong).code, 'rest_post_incorrect_password');
    // Any ?password= on a post without one is wrong too, as core compares it with the empty password.
    const unprotected = await get(`${api}/posts/1?password=x`);
    assert.equal(unprotected.statusCode, 403);
    assert.equal(json(unprotected).code, 'rest_post_incorrect_password');
    // Whoever asks: core checks the password before it looks at who may edit.
    const asEditor = await get(`${api}/posts/${created.id}?password=wrong`, t.auth.editor);
    assert.equal(asEditor.statusCode, 403);
    assert.equal(json(asEditor).code, 'rest_post_incorrect_password');
    // A write's refused password is the request's too: core's GET check then fails, so Allow drops GET.
    const refusedWrite = await send('POST', `${api}/posts/1`, t.auth.admin, { password: 'x' });
    assert.equal(refusedWrite.headers.allow, 'POST, PUT, PATCH, DELETE');
    assert.equal(
      json(await get(`${api}/posts/${created.id}`, t.auth.editor)).content.rendered,
      '<p>Hidden words</p>\n',
    );
    const listed = json(await get(`${api}/posts?include=${created.id}`))[0];
    assert.equal(listed.content.protected, true);
    assert.equal(listed.content.rendered, '');
    const sticky = await send('POST', `${api}/posts`, t.auth.admin, {
      title: 'S',
      password: 'x',
      sticky: true,
    });
    assert.equal(json(sticky).code, 'rest_invalid_field');
  });

  test('an author edits and deletes their own private post (issue 37)', async () => {
    const created = json(
      await send('POST', `${api}/posts`, t.auth.author, { title: 'Mine', status: 'private' }),
    );
    assert.equal(created.status, 'private');
    const updated = await send('POST', `${api}/posts/${created.id}`, t.auth.author, { title: 'Still mine' });
    assert.equal(updated.statusCode, 200);
    assert.equal(json(updated).title.raw, 'Still mine');
    const others = await send('POST', `${api}/posts/11`, t.auth.contributor, { title: 'Not mine' });
    assert.equal(others.statusCode, 403);
  });

  test('sticky and a password exclude each other on update too (issue 37)', async () => {
    const onSticky = await send('POST', `${api}/posts/1`, t.auth.admin, { password: 'x' });
    assert.equal(onSticky.statusCode, 400);
    assert.equal(json(onSticky).code, 'rest_invalid_field');
    assert.equal(json(onSticky).message, 'A sticky post can not be password protected.');
    const secret = json(
      await send('POST', `${api}/posts`, t.auth.admin, {
        title: 'Locked',
        password: 'pw',
        status: 'publish',
      }),
    );
    const made = await send('POST', `${api}/posts/${secret.id}`, t.auth.admin, { sticky: true });
    assert.equal(made.statusCode, 400);
    assert.equal(json(made).message, 'A password protected post can not be set to sticky.');
    const stored = json(await get(`${api}/posts/${secret.id}?context=edit`, t.auth.admin));
    assert.equal(stored.sticky, false);
    assert.equal(json(await get(`${api}/posts/1?context=edit`, t.auth.admin)).password, '');
    // Emptying the password and keeping sticky off is fine; a page has no sticky to refuse.
    assert.equal((await send('POST', `${api}/posts/1`, t.auth.admin, { password: '' })).statusCode, 200);
    const page = await send('POST', `${api}/pages`, t.auth.admin, {
      title: 'P',
      password: 'x',
      sticky: true,
    });
    assert.equal(page.statusCode, 201);
  });

  test('_fields as a PHP array, on items, lists and other routes (issue 37)', async () => {
    const one = await get(`${api}/posts/1?_fields[]=id&_fields[]=slug`);
    assert.equal(one.statusCode, 200);
    assert.deepEqual(json(one), { id: 1, slug: 'getting-started-with-rest-clients-part-1' });
    const list = await get(`${api}/posts?per_page=2&_fields[]=id&_fields[]=slug`);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(Object.keys(json(list)[0]), ['id', 'slug']);
    assert.match(String(list.headers.link), /_fields%5B0%5D=id&_fields%5B1%5D=slug&page=2/);
    const user = await get(`${api}/users/1?_fields[]=id&_fields[]=name`);
    assert.deepEqual(Object.keys(json(user)), ['id', 'name']);
    assert.deepEqual(Object.keys(json(await get(`${api}/categories?_fields[]=id`))[0]), ['id']);
  });
});
