import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  api,
  type ContentTest,
  fetchStored,
  ids,
  type Json,
  json,
  startContent,
} from '../../../test/content.js';
import { multipart, png, storeEnv } from '../../../test/profiles.js';

let t: ContentTest;
before(async () => {
  t = await startContent({ env: storeEnv() });
});
after(() => t.close());

/** A 3×2 GIF: its header says how large it is. */
const gif = Buffer.from('R0lGODlhAwACAIAAAP///wAAACwAAAAAAwACAAACAoRRADs=', 'base64');

const upload = (body: Buffer, headers: Record<string, string>, query = '') =>
  t.app.inject({ method: 'POST', url: `${api}/media${query}`, payload: body, headers });

describe('media', () => {
  test('a raw upload with Content-Disposition is stored, measured and served', async () => {
    const res = await upload(
      gif,
      {
        authorization: t.auth.author,
        'content-type': 'image/gif',
        'content-disposition': 'attachment; filename="My Photo.gif"',
      },
      '?alt_text=A%20dot&caption=Tiny',
    );
    assert.equal(res.statusCode, 201);
    const media = json(res);
    assert.equal(res.headers.location, `http://localhost:80/wp-json/wp/v2/media/${media.id}`);
    assert.deepEqual(
      [
        media.type,
        media.status,
        media.media_type,
        media.mime_type,
        media.title.raw,
        media.alt_text,
        media.author,
      ],
      ['attachment', 'inherit', 'image', 'image/gif', 'My-Photo', 'A dot', ids.author],
    );
    assert.equal(media.caption.rendered, '<p>Tiny</p>\n');
    assert.equal(media.media_details.width, 3);
    assert.equal(media.media_details.height, 2);
    assert.equal(media.media_details.filesize, gif.length);
    assert.match(media.media_details.file, /^\d{4}\/\d{2}\/My-Photo\.gif$/);
    // Smaller than every registered size: no copies, so no `full` either (core's empty object).
    assert.deepEqual(media.media_details.sizes, {});
    assert.match(media.source_url, /\/(wp-content\/)?uploads\/\d{4}\/\d{2}\/My-Photo\.gif$/);
    const served = await fetchStored(t, media.source_url);
    assert.equal(served.status, 200);
    assert.deepEqual(served.body, gif);
    assert.equal(served.type, 'image/gif');
    // The same name again gets a suffix, as wp_unique_filename does.
    const again = json(
      await upload(gif, {
        authorization: t.auth.author,
        'content-type': 'image/gif',
        'content-disposition': 'attachment; filename=My Photo.gif',
      }),
    );
    assert.match(again.media_details.file, /My-Photo-1\.gif$/);
    // Its title and slug come from the name it was stored under, as core's.
    assert.deepEqual([again.title.raw, again.slug], ['My-Photo-1', 'my-photo-1']);
    const read = json(await t.app.inject({ method: 'GET', url: `${api}/media/${media.id}` }));
    assert.equal(read.source_url, media.source_url);
    assert.equal(read.post, null);
  });

  test('a multipart upload takes the `file` part and the other fields', async () => {
    const form = multipart([
      { name: 'title', value: 'From a form' },
      { name: 'post', value: '3' },
      { name: 'file', value: png, filename: 'dot.png', contentType: 'image/png' },
    ]);
    const res = await upload(form.body, { authorization: t.auth.editor, 'content-type': form.contentType });
    assert.equal(res.statusCode, 201);
    const media = json(res);
    assert.deepEqual(
      [media.title.raw, media.post, media.media_details.width, media.mime_type],
      ['From a form', 3, 1, 'image/png'],
    );
    const attached = json(await t.app.inject({ method: 'GET', url: `${api}/media?parent=3` }));
    assert.deepEqual(
      attached.map((m: Json) => m.id),
      [media.id],
    );
    assert.equal(
      json(await t.app.inject({ method: 'GET', url: `${api}/media?media_type=image` })).length >= 1,
      true,
    );
  });

  test('refusals as core words them', async () => {
    const cases: [Record<string, string>, Buffer, number, string][] = [
      [
        { 'content-type': 'image/png', 'content-disposition': 'attachment; filename=a.png' },
        png,
        401,
        'rest_cannot_create',
      ],
      [
        {
          authorization: t.auth.contributor,
          'content-type': 'image/png',
          'content-disposition': 'attachment; filename=a.png',
        },
        png,
        403, // no upload_files: the posts controller's create_posts check, as core
        'rest_cannot_create',
      ],
      [
        { authorization: t.auth.author, 'content-type': 'image/png' },
        png,
        400,
        'rest_upload_no_content_disposition',
      ],
      [
        { authorization: t.auth.author, 'content-type': 'image/png', 'content-disposition': 'attachment' },
        png,
        400,
        'rest_upload_invalid_disposition',
      ],
      [
        {
          authorization: t.auth.author,
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename=run.exe',
        },
        Buffer.from('MZ'),
        400,
        'rest_upload_sideload_error',
      ],
      [
        {
          authorization: t.auth.author,
          'content-type': 'image/png',
          'content-disposition': 'attachment; filename=fake.png',
        },
        Buffer.from('not a png'),
        400,
        'rest_upload_sideload_error',
      ],
    ];
    for (const [headers, body, status, code] of cases) {
      const res = await upload(body, headers);
      assert.equal(res.statusCode, status, code);
      assert.equal(json(res).code, code);
    }
    const empty = await t.app.inject({
      method: 'POST',
      url: `${api}/media`,
      headers: { authorization: t.auth.author },
    });
    assert.equal(json(empty).code, 'rest_upload_no_data');
    // A JSON body is data to core (its raw body), refused for the missing Content-Disposition.
    const jsonBody = await t.app.inject({
      method: 'POST',
      url: `${api}/media`,
      headers: { authorization: t.auth.author, 'content-type': 'application/json' },
      payload: '{}',
    });
    assert.equal(jsonBody.statusCode, 400);
    assert.equal(json(jsonBody).code, 'rest_upload_no_content_disposition');
  });

  test('featured_media on posts and pages: the link, the embed, and a bad id', async () => {
    const media = json(
      await upload(gif, {
        authorization: t.auth.admin,
        'content-type': 'image/gif',
        'content-disposition': 'attachment; filename=cover.gif',
      }),
    );
    const post = json(
      await t.app.inject({
        method: 'POST',
        url: `${api}/posts/1`,
        headers: { authorization: t.auth.admin },
        payload: { featured_media: media.id },
      }),
    );
    assert.equal(post.featured_media, media.id);
    assert.equal(
      post._links['wp:featuredmedia'][0].href,
      `http://localhost:80/wp-json/wp/v2/media/${media.id}`,
    );
    const embedded = json(await t.app.inject({ method: 'GET', url: `${api}/posts/1?_embed` }));
    assert.equal(embedded._embedded['wp:featuredmedia'][0].id, media.id);
    assert.equal(embedded._embedded['wp:featuredmedia'][0].source_url, media.source_url);
    const page = json(
      await t.app.inject({
        method: 'POST',
        url: `${api}/pages/31`,
        headers: { authorization: t.auth.admin },
        payload: { featured_media: media.id },
      }),
    );
    assert.equal(page.featured_media, media.id);
    const bad = await t.app.inject({
      method: 'POST',
      url: `${api}/posts/1`,
      headers: { authorization: t.auth.admin },
      payload: { featured_media: 2 },
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(json(bad).code, 'rest_invalid_featured_media');
  });

  test('updating fields, and deleting needs force (media has no trash)', async () => {
    const media = json(
      await upload(gif, {
        authorization: t.auth.author,
        'content-type': 'image/gif',
        'content-disposition': 'attachment; filename=gone.gif',
      }),
    );
    const updated = json(
      await t.app.inject({
        method: 'POST',
        url: `${api}/media/${media.id}`,
        headers: { authorization: t.auth.author },
        payload: { alt_text: 'New alt', caption: 'New caption' },
      }),
    );
    assert.deepEqual([updated.alt_text, updated.caption.raw], ['New alt', 'New caption']);
    const otherAuthor = await t.app.inject({
      method: 'POST',
      url: `${api}/media/${media.id}`,
      headers: { authorization: t.auth.contributor },
      payload: { alt_text: 'x' },
    });
    assert.equal(otherAuthor.statusCode, 403);
    const soft = await t.app.inject({
      method: 'DELETE',
      url: `${api}/media/${media.id}`,
      headers: { authorization: t.auth.author },
    });
    assert.equal(soft.statusCode, 501);
    assert.deepEqual(json(soft), {
      code: 'rest_trash_not_supported',
      message: "The post does not support trashing. Set 'force=true' to delete.",
      data: { status: 501 },
    });
    const hard = await t.app.inject({
      method: 'DELETE',
      url: `${api}/media/${media.id}?force=true`,
      headers: { authorization: t.auth.author },
    });
    assert.equal(json(hard).deleted, true);
    assert.equal((await t.app.inject({ method: 'GET', url: `${api}/media/${media.id}` })).statusCode, 404);
  });

  test('media attached to a draft is as hidden as the draft', async () => {
    const media = json(
      await upload(
        gif,
        {
          authorization: t.auth.author,
          'content-type': 'image/gif',
          'content-disposition': 'attachment; filename=draft.gif',
        },
        '?post=7',
      ),
    );
    assert.equal(media.post, 7);
    assert.equal((await t.app.inject({ method: 'GET', url: `${api}/media/${media.id}` })).statusCode, 401);
    const listed = json(await t.app.inject({ method: 'GET', url: `${api}/media?parent=7` }));
    assert.deepEqual(listed, []);
    const own = json(
      await t.app.inject({
        method: 'GET',
        url: `${api}/media?parent=7`,
        headers: { authorization: t.auth.author },
      }),
    );
    assert.deepEqual(
      own.map((m: Json) => m.id),
      [media.id],
    );
  });
});
